/* Between games: the rematch (any player offers the next game with the same players, the
   others accept or decline; it starts once everyone seated accepted), and, while a table
   waits for players, filling its empty seats with robots. The words are the includes'
   (_rematch.html, _waiting.html); the server decides who must answer (`table.rematch`). */
import { $, fmt } from "./dom.js";
import { mySeat } from "./model.js";

const OWN = ["rematch", "rematch_answer"];

export function watchRematch(store, request) {
  const box = $("rematch-box");
  if (!box) return;
  const words = box.dataset;
  store.watch(
    (S, { pending }) => {
      const me = mySeat(S) === null ? null : S.you.user;
      const over = S.table.status === "open" && S.game && S.game.status !== "playing";
      // Against robots alone the master's new game is the rematch: no second button for it.
      const people = S.table.seats.filter((seat) => seat && seat.user).length;
      if (!me || !over || people < 2) return { shown: false, fill: fillable(S, me) };
      const offer = S.table.rematch;
      return {
        shown: true,
        fill: false,
        offer: offer && { ...offer, mine: offer.by === me },
        answer: !!(offer && offer.waiting.includes(me)),
        busy: OWN.includes(pending),
      };
    },
    (slice) => {
      $("fill-robots-box").hidden = !slice.fill;
      box.hidden = !slice.shown;
      if (!slice.shown) return;
      const { offer } = slice;
      $("rematch-text").textContent = offer
        ? (offer.mine ? words.yours : fmt(words.offered, { user: offer.by }))
        : "";
      const votes = [];
      if (offer && offer.accepted.length) votes.push(fmt(words.accepted, { users: offer.accepted.join(", ") }));
      if (offer && offer.waiting.length) votes.push(fmt(words.waiting, { users: offer.waiting.join(", ") }));
      $("rematch-votes").textContent = votes.join(" ");
      $("rematch-offer").hidden = !!offer;
      $("rematch-accept").hidden = !slice.answer;
      $("rematch-decline").hidden = !slice.answer;
      for (const id of ["rematch-offer", "rematch-accept", "rematch-decline"]) $(id).disabled = slice.busy;
    },
  );
  $("rematch-offer").addEventListener("click", () => request({ type: "rematch" }));
  $("rematch-accept").addEventListener("click", () => request({ type: "rematch_answer", accept: true }));
  $("rematch-decline").addEventListener("click", () => request({ type: "rematch_answer", accept: false }));
}

// A seated player at a table waiting for players, before its first game.
function fillable(S, me) {
  return !!me && S.table.status === "open" && !S.table.game_id && S.table.free_seats > 0;
}
