/* The arena's page, live: every frame of /ws/arenas/<id>/ means something changed, and the
   page swaps in its `arena-live` part again (rendered by the server, in the reader's
   language). The countdowns tick here between frames. Join and Pause are sent over the
   socket when it is open, else their forms post as without JavaScript. */
"use strict";
(function () {
  const root = document.querySelector(".arena[data-socket]");
  if (!root) return;
  // One redraw at a time; a frame that comes during one asks for another after it (the
  // part being fetched may have been rendered before that frame's change).
  let pending = false;
  let again = false;
  function redraw() {
    if (pending) { again = true; return; }
    pending = true;
    htmx.ajax("GET", root.dataset.liveUrl, { target: "#arena-live", swap: "outerHTML" })
      .finally(() => {
        pending = false;
        if (again) { again = false; redraw(); }
      });
  }
  const socket = window.tuteSocket(root.dataset.socket, {
    onMessage(frame) {
      if (frame.type === "arena") redraw();
      else if (frame.type === "error") {
        const box = document.querySelector("#arena-error");
        if (box) { box.textContent = frame.message; box.hidden = false; }
      }
    },
  });
  // A new table of yours: go and play at it, as the arena seated you.
  let seen = (document.querySelector("[data-my-table]") || {}).dataset?.myTable;
  document.addEventListener("htmx:afterSwap", () => {
    const mine = document.querySelector("[data-my-table]");
    const table = mine && mine.dataset.myTable;
    if (table && table !== seen) location.href = mine.getAttribute("href");
    seen = table;
  });
  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-arena-request]");
    if (button && socket.send({ type: button.dataset.arenaRequest })) event.preventDefault();
  });
  function format(seconds) {
    const s = Math.max(0, Math.round(seconds));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    const mm = String(m).padStart(h ? 2 : 1, "0"), ss = String(r).padStart(2, "0");
    return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
  }
  let drawnAt = Date.now();
  document.addEventListener("htmx:afterSwap", () => { drawnAt = Date.now(); tick(); });
  function tick() {
    const gone = (Date.now() - drawnAt) / 1000;
    for (const el of document.querySelectorAll("[data-countdown]")) {
      el.textContent = format(Number(el.dataset.countdown) - gone);
    }
  }
  tick();
  setInterval(tick, 1000);
})();
