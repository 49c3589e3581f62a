/* A logged-in player's own socket, on every page (/ws/me/): the header's count of
   invitations changes as soon as someone invites them, the podium of an arena they played
   in is announced wherever they are, and a master's table page hears of a declined
   invitation (docs/protocol.md). */
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const badge = document.getElementById("invitations-badge");
  if (!badge || !window.tuteSocket) return;
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (all, key) => (key in values ? values[key] : all));

  function invitations(frame) {
    badge.querySelector(".n").textContent = String(frame.count);
    badge.setAttribute("aria-label", `${badge.dataset.label}: ${frame.count}`);
    badge.hidden = frame.count === 0;
  }

  function arenaOver(frame) {
    const box = document.getElementById("arena-over");
    if (!box) return;
    // A player none of whose games counted has no place (rank null): no "#1" of a tie at zero.
    const said = frame.rank === null ? box.dataset.unplaced : box.dataset.text;
    let text = fill(said, { name: frame.arena.name, rank: frame.rank, players: frame.players });
    if (frame.podium.length) {
      const names = frame.podium.map((p) => `${p.rank}. ${p.user}`).join(", ");
      text += " " + fill(box.dataset.podium, { names });
    }
    box.querySelector(".text").textContent = text;
    box.querySelector("a.see").href = frame.arena.url;
    box.hidden = false;
  }

  window.tuteSocket("/ws/me/", {
    stopCodes: [4403],
    onMessage(frame) {
      if (frame.type === "invitations") invitations(frame);
      else if (frame.type === "arena_over") arenaOver(frame);
      // A page of the table whose master this player is reads its list of invited again.
      else if (frame.type === "invitation_declined")
        document.dispatchEvent(new CustomEvent("tute:invitation-declined", { detail: frame }));
    },
  });
});
