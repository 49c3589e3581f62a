/* The puzzle page: the server checks every move and answers with the board to show
   (htmx swaps it in); this only marks the card tapped and stops a second tap while the
   answer is on its way, then moves the focus to the answer for screen readers. */
"use strict";
(() => {
  document.addEventListener("htmx:beforeRequest", (event) => {
    const board = document.getElementById("puzzle-board");
    if (!board || !board.contains(event.target)) return;
    const submitter = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent
      && event.detail.requestConfig.triggeringEvent.submitter;
    if (submitter) submitter.classList.add("pending");
    board.querySelectorAll("button").forEach((button) => { button.disabled = true; });
  });
  // A refused move (400) or one out of turn (409) comes with the board as it stands: show it.
  document.addEventListener("htmx:beforeSwap", (event) => {
    const status = event.detail.xhr.status;
    if ((status === 400 || status === 409) && event.detail.target
        && event.detail.target.id === "puzzle-board") {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
  document.addEventListener("htmx:afterSwap", (event) => {
    const feedback = document.getElementById("puzzle-feedback");
    if (!feedback || !event.detail.target || event.detail.target.id !== "puzzle-board") return;
    const verdict = feedback.querySelector(".verdict");
    if (verdict) {
      verdict.tabIndex = -1;
      verdict.focus({ preventScroll: false });
    }
  });
})();
