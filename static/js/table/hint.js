/* The practice hint: at a table where only robots play with you, "Hint" asks the strongest
   robot what it would do from your own view; the answer comes to this socket alone
   (`hint`). The button shows when the frame says the hint may be asked (`may.hint`). A card
   is named and marked in the hand too, until the hand is drawn again. */
import { $, cardLabel, fmt } from "./dom.js";

// A card by its name; an announcement by the words of its own button on the page.
function actionLabel(action) {
  if ("play" in action) return cardLabel(action.play);
  const buttons = [...document.querySelectorAll("#actions button")];
  const same = buttons.find((b) => b.dataset.action === JSON.stringify(action));
  return same ? same.textContent : Object.keys(action).find((k) => k !== "seat");
}

export function watchHint(store, request) {
  const box = $("hint-box");
  if (!box) return { show() {} };
  store.watch(
    (S, { pending }) => {
      return {
        shown: !!(S.may && S.may.hint),
        busy: pending === "hint",
        count: S.count,
      };
    },
    (slice) => {
      box.hidden = !slice.shown;
      $("hint-button").disabled = slice.busy;
      $("hint-text").textContent = "";
    },
  );
  $("hint-button").addEventListener("click", () => request({ type: "hint" }));
  return {
    show(frame) {
      store.refused(); // answered: the button works again
      if (frame.count !== store.snapshot.count) return; // the game moved on meanwhile
      $("hint-text").textContent = fmt(box.dataset.says, { action: actionLabel(frame.action) });
      markCard(frame.action);
    },
  };
}

function markCard(action) {
  document.querySelectorAll("#hand .hinted").forEach((node) => node.classList.remove("hinted"));
  if (!("play" in action)) return;
  const card = document.querySelector(`#hand [data-card="${action.play}"]`);
  if (!card) return;
  card.classList.add("hinted");
  card.setAttribute("aria-describedby", "hint-text");
}
