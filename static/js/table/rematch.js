/* Between games: the open rematch (a player offered the next game with the same players with
   the summary's button; the others accept or decline; it starts once everyone seated
   accepted), and, while a table
   waits for players, filling its empty seats with robots. The words are the includes'
   (_rematch.html, _waiting.html); the frame says who may offer and answer (`may`). */
import { $, fmt } from "./dom.js";

const OWN = ["rematch", "rematch_answer"];

export function watchRematch(store, request) {
  const box = $("rematch-box");
  if (!box) return;
  const words = box.dataset;
  store.watch(
    (S, { pending }) => {
      const may = S.may || {};
      const offer = S.table.rematch;
      // The offer itself is the summary's "New game" button: here, the offer and its votes.
      if (!offer) return { shown: false, fill: !!may.robots };
      const me = S.you ? S.you.user : null;
      return {
        shown: true,
        fill: false,
        offer: { ...offer, mine: offer.by === me },
        answer: !!may.rematch_answer,
        busy: OWN.includes(pending),
      };
    },
    (slice) => {
      $("fill-robots-box").hidden = !slice.fill;
      box.hidden = !slice.shown;
      if (!slice.shown) return;
      const { offer } = slice;
      $("rematch-text").textContent = offer.mine ? words.yours : fmt(words.offered, { user: offer.by });
      const votes = [];
      if (offer.accepted.length) votes.push(fmt(words.accepted, { users: offer.accepted.join(", ") }));
      if (offer.waiting.length) votes.push(fmt(words.waiting, { users: offer.waiting.join(", ") }));
      $("rematch-votes").textContent = votes.join(" ");
      $("rematch-accept").hidden = !slice.answer;
      $("rematch-decline").hidden = !slice.answer;
      for (const id of ["rematch-accept", "rematch-decline"]) $(id).disabled = slice.busy;
    },
  );
  $("rematch-accept").addEventListener("click", () => request({ type: "rematch_answer", accept: true }));
  $("rematch-decline").addEventListener("click", () => request({ type: "rematch_answer", accept: false }));
}
