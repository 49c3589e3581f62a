/* Coming back: a player who was away is told what the robot did in their name meanwhile
   (their seat's `while_away` in `game.seats`: the cards played, the cantes sung, the bids),
   and how many of their decisions that was, once, until they close the line. Each move in the words of its own button on the page
   ("Sing 20 in espadas"), a cante's value the one its deal recorded. */
import { $, SUIT_NAMES, T, cardLabel, fmt, make } from "./dom.js";
import { gameSeat, mySeat, singValue, view } from "./model.js";

function said(S, a) {
  if ("play" in a) return cardLabel(a.play);
  if ("sing" in a) return fmt(T.sing, { value: sungValue(S, a), suit: SUIT_NAMES[a.sing] });
  if ("tute" in a) return a.tute === "12" ? T.tute_12 : T.tute_11;
  if ("exchange" in a) return fmt(T.exchange, { card: cardLabel(a.exchange) });
  if ("capote" in a) return a.capote ? T.capote_yes : T.capote_no;
  if ("bid" in a) return fmt(T.bid, { n: a.bid });
  return "";
}

function sungValue(S, a) {
  const v = view(S);
  const cante = v && v.cantes.find((c) => c.seat === a.seat && c.suit === a.sing);
  return cante ? cante.value : singValue(S, a.sing) ?? "";
}

export function watchAway(store) {
  const box = $("while-away");
  store.watch(
    (S) => {
      const me = mySeat(S);
      const mine = me === null || !S.game ? null : gameSeat(S, me);
      const done = mine ? mine.while_away || [] : [];
      return {
        key: done.length ? `tute-away-${S.game.id}-${JSON.stringify(done)}` : null,
        moves: done.map((a) => said(S, a)),
      };
    },
    ({ key, moves }) => {
      box.replaceChildren();
      box.hidden = !key || sessionStorage.getItem(key) === "read";
      if (box.hidden) return;
      const close = make("button", "ghost small", "×");
      close.type = "button";
      close.setAttribute("aria-label", T.close);
      close.addEventListener("click", () => {
        sessionStorage.setItem(key, "read");
        box.hidden = true;
      });
      const text = fmt(T.while_away, { count: moves.length, moves: moves.join(", ") });
      box.append(make("span", "", text), " ", close);
    },
  );
}
