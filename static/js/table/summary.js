/* The scores once a deal or the game is over (or cancelled), over the felt: each side's
   points, cantes and deals won (pocha: each player's bid, tricks and points), what decided
   the deal (a tie taken by the last trick, capote, tute, habanero's deal under 100 and its
   carried points), the winners, each player's chips and XP after a competitive game, why a
   game counts for no leaderboard, the rating changes and new trophies, and the buttons for
   what comes next (next deal, new game, the replay). The values come in the frames and the
   game's awards: the page decides no rule. */
import { $, SUIT_NAMES, T, fmt, make, smallTable } from "./dom.js";
import {
  cancelled, closed, gameSeat, mySeat, seatName, sideLabel, view, whoSays,
} from "./model.js";
import { awardLines } from "./awards.js";

export function watchSummary(store, request) {
  // A finished game's chips, XP, rating changes and trophies: its award runs just after it
  // ends, so they are asked for (again each second, a few times) rather than pushed.
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
    next: !!(S.may && S.may.next_deal),
    // The one way to play again: a rematch, which the others accept (at once with robots).
    again: over && !!(S.may && S.may.rematch) && !S.table.rematch ? againLabel(S) : null,
    replay: over && S.game ? `/games/${S.game.id}/` : null,
    busy: pending === "next_deal" || pending === "rematch",
  };
  if (cancelled(S)) {
    return { cancelled: true, gameOver: true, text: cancelledText(S), buttons };
  }
  const pocha = v.bids !== null;
  // The game's winner as the server settled it: a player who abandoned loses, whatever the
  // cards say (the view's `winner` is the cards').
  const result = v.game_over && S.game ? S.game.result : null;
  const gameWinner = result ? result.winner : v.winner;
  const winners = Array.isArray(gameWinner) ? gameWinner : [gameWinner];
  return {
    gameOver: v.game_over,
    heading: v.game_over ? T.game_over : fmt(T.deal_over, { number: v.deal_number + 1 }),
    ...(pocha ? pochaTable(S, v) : sidesTable(S, v)),
    explain: explanations(S, v, pocha, result),
    winner: v.game_over && gameWinner === null ? T.nobody_won
      : v.game_over
      // A team, or several players, won: "Winners: …" (a pair is no single "who").
      ? fmt(winners.length > 1 || v.pairs ? T.winners : T.winner, { who: winners.map((w) => sideLabel(S, w)).join(", ") })
      : pocha || v.deal_winner === null ? null : fmt(T.winner, { who: sideLabel(S, v.deal_winner) }),
    awards: v.game_over && S.game.status === "finished"
      ? awardLines(awardsOf(S.game.id), $("summary").dataset.provisional) : [],
    buttons,
  };
}

// A cancelled game takes nothing: the stakes played for went back (not an abandoner's).
function cancelledText(S) {
  if (closed(S)) return T.closed_refunded;
  const { competitive, stake } = S.table.options;
  if (!competitive || !stake) return T.cancelled_text;
  const seats = (S.game && S.game.seats) || [];
  return seats.some((seat) => seat.abandoned) ? T.cancelled_refunded_but : T.cancelled_refunded;
}

// Tute and habanero: each side's points this deal (with the points carried in, against the
// 100 to pass), its cantes and the deals it has won.
function sidesTable(S, v) {
  const cantesOf = (side) => v.cantes.filter((c) => v.sides[c.seat] === side)
    .map((c) => `${c.value} ${SUIT_NAMES[c.suit]}`).join(", ");
  const pointsOf = (side) => (v.carry ? `${v.carry[side]} + ${v.points[side]}` : v.points[side]);
  return {
    headings: ["", T.points, T.cantes, T.score],
    rows: [...v.score.keys()].map((side) => [
      sideLabel(S, side), pointsOf(side), cantesOf(side) || T.none, v.score[side],
    ]),
    highlight: v.deal_winner,
  };
}

// Pocha: each player's bid, the tricks they took, the hand's points and the game's score.
function pochaTable(S, v) {
  return {
    headings: ["", T.pocha_bid, T.pocha_tricks, T.points, T.score],
    rows: v.score.map((score, seat) => [
      seatName(S, seat), v.bids[seat] ?? "–", v.tricks_won[seat],
      v.hand_scores ? v.hand_scores[seat] : "–", score,
    ]),
    highlight: null,
  };
}

// Against robots alone the rematch starts at once: it is a new game; people are asked. The
// server says which (the table's `rematch_at_once`).
function againLabel(S) {
  return S.table.rematch_at_once ? T.new_game : T.offer_rematch;
}

// A sentence may begin with "you".
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// What decided the deal, and what happened to the game, in words.
function explanations(S, v, pocha, result) {
  const lines = [];
  if (v.tute) lines.push(fmt(whoSays(S, v.tute.seat) === T.you ? T.sang_tute_you : T.sang_tute, { user: seatName(S, v.tute.seat) }));
  if (v.capote && v.capote.made !== null) {
    lines.push(capital(fmt(v.capote.made ? T.capote_made : T.capote_lost, { who: whoSays(S, v.capote.seat) })));
  }
  // The engine says what settled a tie on points, and what a deal won by nobody carries.
  if (v.tie_break === "last_trick") lines.push(fmt(T.tie_last_trick, { who: sideLabel(S, v.deal_winner) }));
  if (v.tie_break === "latest_trick") lines.push(fmt(T.tie_latest_trick, { who: sideLabel(S, v.deal_winner) }));
  if (v.carries && !v.game_over) lines.push(fmt(T.no_winner_carry, { over: T.habanero_over }));
  if (v.carry) lines.push(fmt(T.carried, { points: v.carry.join(" – ") }));
  if (v.game_over) {
    for (let seat = 0; seat < v.players; seat++) {
      const played = gameSeat(S, seat);
      if (played && played.abandoned) lines.push(fmt(T.abandoned_by, { who: seatName(S, seat) }));
    }
    if (result && "on_cards" in result && result.on_cards !== null) {
      const ahead = Array.isArray(result.on_cards) ? result.on_cards : [result.on_cards];
      lines.push(fmt(T.ahead_on_cards, { who: ahead.map((side) => sideLabel(S, side)).join(", ") }));
    }
    // How much of each player's game a robot played: their time ran out, or they were away.
    for (let seat = 0; seat < v.players; seat++) {
      const played = gameSeat(S, seat);
      if (!played || !played.user || !played.robot_decisions) continue;
      lines.push(seat === mySeat(S)
        ? fmt(T.robot_decisions_you, { count: played.robot_decisions })
        : fmt(T.robot_decisions, { who: seatName(S, seat), count: played.robot_decisions }));
    }
  }
  return lines;
}

function draw(slice, request) {
  const box = $("summary");
  const appears = box.hidden && !!slice;
  box.replaceChildren();
  box.hidden = !slice;
  delete box.dataset.over;
  if (!slice) return;
  box.dataset.over = slice.gameOver ? "game" : "deal";
  if (slice.cancelled) {
    box.append(make("h2", "", T.game_cancelled), make("p", "", slice.text), buttons(slice.buttons, request));
    if (appears) bringIntoView(box);
    return;
  }
  // What decided it and what comes next first: the summary scrolls inside the felt.
  box.append(make("h2", "", slice.heading));
  if (slice.winner) box.append(make("p", "winner-line", slice.winner));
  for (const text of slice.explain) box.append(make("p", "explain", text));
  box.append(buttons(slice.buttons, request));
  const table = smallTable("summary-table", slice.headings, slice.rows);
  if (slice.highlight !== null) table.rows[slice.highlight + 1]?.classList.add("winner");
  box.append(table);
  if (slice.awards.length) {
    const list = make("ul", "award-list");
    list.id = "summary-awards";
    list.append(...slice.awards.map(([kind, text]) => make("li", kind, text)));
    box.append(list);
  }
  if (appears) bringIntoView(box);
}

// A summary that just appeared opens at its heading: the page had been scrolled down to the
// hand, which the summary now replaces.
function bringIntoView(box) {
  const top = box.getBoundingClientRect().top;
  if (top < 0 || top > window.innerHeight / 2) box.scrollIntoView({ block: "start" });
}

function buttons({ next, again, replay, busy }, request) {
  const row = make("div", "summary-buttons");
  if (next) row.append(button("next-deal", T.next_deal, busy, () => request({ type: "next_deal" })));
  if (again) row.append(button("new-game", again, busy, () => request({ type: "rematch" })));
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
