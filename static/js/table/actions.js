/* The announcements the player may make now (a cante, a tute, the trump exchange, capote, a
   bid): one button for each of `view.legal_actions` that is no card. A cante's value is the
   frame's (`game.sing_values`). Before capote, a line says what it promises and risks. */
import { $, SUIT_NAMES, T, cardLabel, fmt, make } from "./dom.js";
import { legal, singValue } from "./model.js";

function label(S, a) {
  if ("sing" in a) return fmt(T.sing, { value: singValue(S, a.sing) ?? "", suit: SUIT_NAMES[a.sing] });
  if ("tute" in a) return a.tute === "12" ? T.tute_12 : T.tute_11;
  if ("exchange" in a) return fmt(T.exchange, { card: cardLabel(a.exchange) });
  if ("capote" in a) return a.capote ? T.capote_yes : T.capote_no;
  if ("bid" in a) return fmt(T.bid, { n: a.bid });
  return "";
}

export function watchActions(store, act) {
  const box = $("actions");
  store.watch(
    (S, { pending }) => ({
      buttons: legal(S)
        .filter((a) => !("play" in a))
        .map((a) => ({ action: a, kind: Object.keys(a).find((k) => k !== "seat"), label: label(S, a) })),
      busy: pending === "act",
    }),
    ({ buttons, busy }) => {
      const help = $("action-help");
      help.textContent = T.capote_help;
      help.hidden = !buttons.some((b) => b.kind === "capote");
      box.replaceChildren();
      if (buttons.some((b) => b.kind === "bid")) box.append(make("span", "bid-label", `${T.bids}:`));
      for (const { action, kind, label: text } of buttons) {
        // A bid is its number alone (its whole label for screen readers): a hand of ten
        // offers eleven, and they fit two rows on a phone.
        const button = make("button", `action-btn action-${kind}`, kind === "bid" ? String(action.bid) : text);
        if (kind === "bid") button.setAttribute("aria-label", text);
        button.type = "button";
        button.dataset.action = JSON.stringify(action);
        button.disabled = busy;
        button.addEventListener("click", () => act(action));
        box.append(button);
      }
      box.hidden = !buttons.length;
    },
  );
}
