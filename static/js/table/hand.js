/* The player's hand: every card, the ones `view.legal_actions` lets them play enabled, the
   others dimmed on their turn; arrow keys move between cards, Enter or Space plays one. */
import { $, cardLabel, face, make, sortCards } from "./dom.js";
import { cancelled, legal, view } from "./model.js";

export function watchHand(store, act) {
  const hand = $("hand");
  // The card the keyboard was on: a redraw puts the focus back on it (or the first card).
  let focusCard = null;
  hand.addEventListener("focusin", (event) => { focusCard = event.target.dataset.card || null; });
  hand.addEventListener("focusout", (event) => {
    // Left for elsewhere, not taken away by a redraw (a removed card is no longer connected).
    queueMicrotask(() => {
      if (event.target.isConnected && !hand.contains(document.activeElement)) focusCard = null;
    });
  });

  store.watch(
    (S, { pending }) => {
      const v = view(S);
      if (!v || !v.hand || cancelled(S)) return { cards: [] };
      const plays = new Map();
      for (const a of legal(S)) if ("play" in a) plays.set(a.play, a);
      return {
        cards: sortCards(v.hand).map((code) => ({ code, action: plays.get(code) || null })),
        myTurn: plays.size > 0,
        busy: pending === "act",
      };
    },
    ({ cards, myTurn, busy }) => {
      hand.replaceChildren();
      hand.hidden = !cards.length;
      hand.dataset.cards = cards.map((c) => c.code).join(" ");
      for (const { code, action } of cards) {
        const button = make("button", "card-btn");
        button.type = "button";
        button.dataset.card = code;
        button.setAttribute("aria-label", cardLabel(code));
        button.append(face(code));
        if (action) {
          button.classList.add("playable");
          button.addEventListener("click", () => act(action));
        } else if (myTurn) {
          // On the player's turn, the cards they may not play look dimmed.
          button.classList.add("illegal");
        }
        button.disabled = !action || busy;
        hand.append(button);
      }
      hand.classList.toggle("my-turn", !!myTurn);
      const lost = !document.activeElement || document.activeElement === document.body;
      if (focusCard !== null && (lost || hand.contains(document.activeElement))) {
        const again = hand.querySelector(`[data-card="${focusCard}"]:not([disabled])`)
          || hand.querySelector("button:not([disabled])");
        // Without scrolling: a player reading the chat below stays where they are.
        if (again) again.focus({ preventScroll: true });
      }
    },
  );

  hand.addEventListener("keydown", (event) => {
    if (!["ArrowLeft", "ArrowRight"].includes(event.key)) return;
    const buttons = [...hand.querySelectorAll("button:not([disabled])")];
    if (!buttons.length) return;
    const at = buttons.indexOf(document.activeElement);
    const step = event.key === "ArrowRight" ? 1 : -1;
    buttons[(at + step + buttons.length) % buttons.length].focus();
    event.preventDefault();
  });
}
