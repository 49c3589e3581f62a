/* A logged-in player's own socket, on every page (/ws/me/): the header's count of
   invitations changes as soon as someone invites them (docs/protocol.md). */
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const badge = document.getElementById("invitations-badge");
  if (!badge || !window.tuteSocket) return;
  window.tuteSocket("/ws/me/", {
    stopCodes: [4403],
    onMessage(frame) {
      if (frame.type !== "invitations") return;
      badge.querySelector(".n").textContent = String(frame.count);
      badge.setAttribute("aria-label", `${badge.dataset.label}: ${frame.count}`);
      badge.hidden = frame.count === 0;
    },
  });
});
