/* The scores once a deal or the game is over (or cancelled): points, cantes and score of each
   side, every deal of a finished game, the winners, the rating changes and new trophies, and
   the buttons for what comes next (next deal, new game, the replay). */
import { $, SUIT_NAMES, T, fmt, make, smallTable } from "./dom.js";
import { cancelled, closed, gameOn, mySeat, seatName, sideNames, view } from "./model.js";

export function watchSummary(store, request) {
  // A finished game's rating changes and new trophies: its award runs just after it ends,
  // so they are asked for (again each second, a few times) rather than pushed.
  const awards = {};
  const fetchAwards = (id, tries) => {
    fetch(`/games/${id}/awards.json`).then((r) => r.json()).then((data) => {
      if (!data.awarded && tries > 0) {
        setTimeout(() => fetchAwards(id, tries - 1), 1000);
        return;
      }
      awards[id] = data;
      again();
    }).catch(() => {});
  };
  const awardsOf = (id) => {
    if (!(id in awards)) {
      awards[id] = null;
      fetchAwards(id, 15);
    }
    return awards[id];
  };

  const again = store.watch(
    (S, { pending }) => summary(S, pending, awardsOf),
    (slice) => draw(slice, request),
  );
}

function summary(S, pending, awardsOf) {
  const v = view(S);
  if (!v || !(v.needs_deal || v.game_over || cancelled(S))) return null;
  const over = v.game_over || cancelled(S);
  const buttons = {
    next: v.needs_deal && !v.game_over && gameOn(S) && mySeat(S) !== null,
    again: over && S.you.master && S.table.free_seats === 0 && S.table.status === "open",
    replay: over && S.game ? `/games/${S.game.id}/` : null,
    busy: pending === "next_deal" || pending === "start",
  };
  if (cancelled(S)) {
    return { cancelled: true, gameOver: true, text: closed(S) ? T.closed_refunded : T.cancelled_text, buttons };
  }
  const points = v.hand_scores || v.points;
  const cantesOf = (side) => v.cantes.filter((c) => v.sides[c.seat] === side)
    .map((c) => `${c.value} ${SUIT_NAMES[c.suit]}`).join(", ");
  const winners = Array.isArray(v.winner) ? v.winner : [v.winner];
  return {
    gameOver: v.game_over,
    heading: v.game_over ? T.game_over : fmt(T.deal_over, { number: v.deal_number + 1 }),
    rows: [...v.score.keys()].map((side) => [
      sideNames(S, side), points ? points[side] : "–", cantesOf(side) || T.none, v.score[side],
    ]),
    dealWinner: v.deal_winner,
    tute: v.tute ? fmt(T.sang_tute, { user: seatName(S, v.tute.seat) }) : null,
    // Every deal of the game, once it is over (the hands are public then).
    deals: v.game_over && (S.game.deal_summaries || []).length > 1
      ? S.game.deal_summaries.map((deal, i) => {
        const dealPoints = deal.points ? deal.points.join(" – ") : "–";
        const who = deal.winner === null ? "" : ` · ${fmt(T.winner, { who: sideNames(S, deal.winner) })}`;
        return `${fmt(T.deal_n, { n: i + 1 })}: ${dealPoints}${who}`;
      })
      : null,
    winner: v.game_over
      ? fmt(winners.length > 1 ? T.winners : T.winner, { who: winners.map((w) => sideNames(S, w)).join(", ") })
      : v.deal_winner === null ? T.no_winner : fmt(T.winner, { who: sideNames(S, v.deal_winner) }),
    awards: v.game_over && S.game.status === "finished" ? awardLines(awardsOf(S.game.id)) : [],
    buttons,
  };
}

function awardLines(awards) {
  if (!awards) return [];
  return awards.seats.flatMap((s) => [
    ...(s.rating ? [["rating-change", fmt(T.rating_change, { user: s.user, rating: s.rating.shown, change: s.rating.change })]] : []),
    ...s.trophies.map((name) => ["new-trophy", fmt(T.new_trophy, { user: s.user, trophy: name })]),
  ]);
}

function draw(slice, request) {
  const box = $("summary");
  box.replaceChildren();
  box.hidden = !slice;
  delete box.dataset.over;
  if (!slice) return;
  box.dataset.over = slice.gameOver ? "game" : "deal";
  if (slice.cancelled) {
    box.append(make("h2", "", T.game_cancelled), make("p", "", slice.text), buttons(slice.buttons, request));
    return;
  }
  box.append(make("h2", "", slice.heading));
  const table = smallTable("summary-table", ["", T.points, T.cantes, T.score], slice.rows);
  if (slice.dealWinner !== null) table.rows[slice.dealWinner + 1].classList.add("winner");
  box.append(table);
  if (slice.tute) box.append(make("p", "", slice.tute));
  if (slice.deals) {
    const list = make("ul", "deal-list");
    list.append(...slice.deals.map((text) => make("li", "", text)));
    box.append(list);
  }
  box.append(make("p", "winner-line", slice.winner));
  if (slice.awards.length) {
    const list = make("ul", "award-list");
    list.id = "summary-awards";
    list.append(...slice.awards.map(([kind, text]) => make("li", kind, text)));
    box.append(list);
  }
  box.append(buttons(slice.buttons, request));
}

function buttons({ next, again, replay, busy }, request) {
  const row = make("div", "summary-buttons");
  if (next) row.append(button("next-deal", T.next_deal, busy, () => request({ type: "next_deal" })));
  if (again) row.append(button("new-game", T.new_game, busy, () => request({ type: "start" })));
  if (replay) {
    const link = make("a", "button ghost", T.see_replay);
    link.href = replay;
    row.append(link);
  }
  return row;
}

function button(id, text, busy, onClick) {
  const node = make("button", "primary", text);
  node.type = "button";
  node.id = id;
  node.disabled = busy;
  node.addEventListener("click", onClick);
  return node;
}
