/* The score sheet: every finished deal of the game (`game.sheet`), opened at any time from
   the button under the hand: each side's points and the deal's winner (pocha: each
   player's bid, tricks taken and points), with the points a habanero deal carried in. */
import { $, T, fmt, labelled, make, smallTable } from "./dom.js";
import { seatName, sideLabel, view } from "./model.js";

export function watchScoreSheet(store) {
  const button = $("score-sheet-button");
  const box = $("score-sheet");
  let open = false;
  const again = store.watch(
    (S) => {
      const v = view(S);
      const sheet = (S.game && S.game.sheet) || [];
      if (!v || !sheet.length) return { open, rows: null };
      const pocha = v.bids !== null;
      const headings = [T.deal];
      if (pocha) {
        for (let seat = 0; seat < v.players; seat++) headings.push(seatName(S, seat));
      } else {
        for (let side = 0; side < v.score.length; side++) headings.push(sideLabel(S, side));
        headings.push(T.winner_col);
      }
      const rows = sheet.map((deal, i) => {
        const first = fmt(T.deal_n, { n: i + 1 });
        if (pocha) {
          return [first, ...deal.points.map((p, seat) => labelled(`${deal.bids[seat]}/${deal.taken[seat]}`, p))];
        }
        const points = deal.points.map((p, side) => (deal.carry ? `${deal.carry[side]} + ${p}` : `${p}`));
        return [first, ...points, deal.winner === null ? "–" : sideLabel(S, deal.winner)];
      });
      return { open, headings, rows, pocha };
    },
    ({ open: shown, headings, rows, pocha }) => {
      button.hidden = !rows;
      button.textContent = shown ? T.hide_score_sheet : T.score_sheet;
      button.setAttribute("aria-expanded", String(shown && !!rows));
      box.hidden = !(shown && rows);
      box.replaceChildren();
      if (box.hidden) return;
      const title = make("h2", "visually-hidden", T.score_sheet);
      title.id = "score-sheet-title";
      box.append(title, smallTable(pocha ? "sheet-table pocha" : "sheet-table", headings, rows));
      if (pocha) box.append(make("p", "muted", labelled(`${T.pocha_bid}/${T.pocha_tricks}`, T.points)));
    },
  );
  button.addEventListener("click", () => {
    open = !open;
    again();
  });
}
