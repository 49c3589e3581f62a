/* "Last trick": the cards of the trick taken last and who played them, on demand. */
import { $, T, face, make } from "./dom.js";
import { seatName, view } from "./model.js";

export function watchLastTrick(store) {
  const button = $("last-trick-button");
  const box = $("last-trick");
  let open = false;
  const again = store.watch(
    (S) => {
      const tricks = view(S) ? view(S).tricks : [];
      const last = tricks.length ? tricks[tricks.length - 1] : null;
      return {
        open,
        cards: last && last.map((p) => ({ card: p.card, name: seatName(S, p.seat) })),
      };
    },
    ({ open: shown, cards }) => {
      button.hidden = !cards;
      button.textContent = shown ? T.hide_last_trick : T.last_trick;
      button.setAttribute("aria-expanded", String(shown && !!cards));
      box.hidden = !(shown && cards);
      box.replaceChildren();
      if (box.hidden) return;
      for (const p of cards) {
        const item = make("figure", "last-card");
        item.append(face(p.card), make("figcaption", "", p.name));
        box.append(item);
      }
    },
  );
  button.addEventListener("click", () => {
    open = !open;
    again();
  });
}
