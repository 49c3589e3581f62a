/* The player's hand: every card, the ones `view.legal_actions` lets them play enabled, the
   others dimmed on their turn: tapped or hovered, a dimmed card says why it may not be played
   now (the engine's reason, `game.explain.dimmed`, in the player's words). Arrow keys move
   between cards, Enter or Space plays one. A new deal's cards come in with a short motion. */
import { $, T, cardLabel, face, make, sortCards } from "./dom.js";
import { cancelled, explain, legal, view } from "./model.js";

// A card the player may play now (a dimmed one is no button to move to).
const PLAYABLE = ":not([disabled]):not(.illegal)";

function tellWhy(text) {
  const line = $("card-why");
  line.textContent = text;
  line.hidden = false;
}

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
      const why = explain(S);
      return {
        cards: sortCards(v.hand).map((code) => ({ code, action: plays.get(code) || null })),
        myTurn: plays.size > 0,
        busy: pending === "act",
        why: (why && why.dimmed && T.dimmed[why.dimmed]) || T.dimmed_title,
        deal: `${v.deal_number}`,
      };
    },
    ({ cards, myTurn, busy, why, deal }) => {
      hand.replaceChildren();
      hand.hidden = !cards.length;
      // A new deal: its cards are dealt out (a motion the reduced-motion setting removes).
      hand.classList.toggle("dealt", hand.dataset.deal !== undefined && hand.dataset.deal !== deal);
      hand.dataset.deal = deal;
      $("card-why").hidden = true;
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
          // On the player's turn, the cards they may not play look dimmed, and say why.
          button.classList.add("illegal");
          button.setAttribute("aria-disabled", "true");
          button.setAttribute("aria-describedby", "card-why");
          button.title = why;
          button.addEventListener("click", () => tellWhy(why));
        }
        button.disabled = (!action && !myTurn) || busy;
        hand.append(button);
      }
      hand.classList.toggle("my-turn", !!myTurn);
      const lost = !document.activeElement || document.activeElement === document.body;
      if (focusCard !== null && (lost || hand.contains(document.activeElement))) {
        const again = hand.querySelector(`[data-card="${focusCard}"]${PLAYABLE}`)
          || hand.querySelector(`button${PLAYABLE}`);
        // Without scrolling: a player reading the chat below stays where they are.
        if (again) again.focus({ preventScroll: true });
      }
    },
  );

  hand.addEventListener("keydown", (event) => {
    if (!["ArrowLeft", "ArrowRight"].includes(event.key)) return;
    const buttons = [...hand.querySelectorAll(`button${PLAYABLE}`)];
    if (!buttons.length) return;
    const at = buttons.indexOf(document.activeElement);
    const step = event.key === "ArrowRight" ? 1 : -1;
    buttons[(at + step + buttons.length) % buttons.length].focus();
    event.preventDefault();
  });
}
