/* The lobby stays live: every message of /ws/lobby/ (a table opened, filled, started or
   closed) reloads the list with the filters on show, through htmx. */
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const lobby = document.querySelector("[data-lobby-socket]");
  if (!lobby) return;
  let timer = null;
  function refresh() {
    clearTimeout(timer);
    // Several changes in a burst (a game starting moves every seat) make one request.
    timer = setTimeout(() => {
      const target = document.getElementById("lobby-tables");
      if (!target) return;
      htmx.ajax("GET", location.pathname + location.search, { target, swap: "outerHTML" });
    }, 150);
  }
  let first = true;
  window.tuteSocket(lobby.dataset.lobbySocket, {
    onMessage(frame) {
      // The first `tables` message is what the page already shows; later ones (after a
      // reconnect) may not be.
      if (frame.type === "tables" && first) { first = false; return; }
      refresh();
    },
  });
});
