/* The open proposal to cancel the game: who proposed it, who accepted, who must still answer
   (robots do not vote), and Accept and Refuse for each of those. Its countdown is the
   timers'. */
import { $, T, fmt } from "./dom.js";
import { gameOn } from "./model.js";

export function watchCancel(store, request) {
  store.watch(
    (S, { pending }) => {
      const cancel = gameOn(S) ? S.game.cancel : null;
      if (!cancel) return null;
      const me = S.you ? S.you.user : null;
      const votes = [];
      if (cancel.accepted.length) votes.push(fmt(T.cancel_accepted_by, { users: cancel.accepted.join(", ") }));
      if (cancel.waiting.length) votes.push(fmt(T.cancel_waiting, { users: cancel.waiting.join(", ") }));
      return {
        text: cancel.by === me ? T.cancel_yours : fmt(T.cancel_proposed, { user: cancel.by }),
        votes: votes.join(" "),
        answer: !!(S.may && S.may.cancel_answer),
        busy: pending === "cancel_answer",
      };
    },
    (slice) => {
      $("cancel-box").hidden = !slice;
      if (!slice) return;
      $("cancel-text").textContent = slice.text;
      $("cancel-votes").textContent = slice.votes;
      $("cancel-answer").hidden = !slice.answer;
      $("cancel-answer").querySelectorAll("button").forEach((b) => { b.disabled = slice.busy; });
    },
  );
  $("cancel-accept").addEventListener("click", () => request({ type: "cancel_answer", accept: true }));
  $("cancel-refuse").addEventListener("click", () => request({ type: "cancel_answer", accept: false }));
}
