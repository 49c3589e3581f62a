/* The felt: the seats around it, the scoreboard, and its centre (the trick, the trump card
   and the stock). Three parts, each redrawn only when what it shows changed; the countdowns
   are filled in by timers.js. */
import {
  $, SUIT_NAMES, T, appendFlagAndClock, back, cardLabel, face, fmt, labelled, make, robotIcon,
  smallTable,
} from "./dom.js";
import {
  explain, feltView, gameOn, gameSeat, hasClock, isRobotSeat, levelWord, mySeat, partnerOf,
  playersCount, position, seatFlag, seatName, sideLabel, sides, statusText, tableName, whoSays,
} from "./model.js";

export function watchFelt(store) {
  const felt = $("felt");
  store.watch(seatBoxes, (slice) => drawSeatBoxes(felt, slice));
  store.watch(scoreboard, (slice) => drawScoreboard(felt, slice));
  store.watch(centre, drawCentre);
}

function seatBoxes(S) {
  const v = feltView(S);
  const partner = partnerOf(S, mySeat(S));
  const boxes = [];
  for (let seat = 0; seat < playersCount(S); seat++) {
    const entry = S.table.seats[seat];
    const robot = isRobotSeat(S, seat);
    boxes.push({
      position: position(S, seat),
      turn: !!(v && v.turn === seat && !v.needs_deal && !v.game_over),
      me: seat === mySeat(S),
      partner: seat === partner,
      master: !!(entry && entry.user && entry.user === S.table.master),
      robot: robot ? levelWord((entry && entry.robot) || (gameSeat(S, seat) || {}).robot) : null,
      name: robot || gameOn(S) ? seatName(S, seat) : tableName(entry),
      flag: seatFlag(S, seat),
      clock: hasClock(S, seat),
      meta: v && {
        dealer: v.dealer === seat,
        tricks: v.tricks_won[seat],
        cantes: v.cantes.filter((c) => c.seat === seat).map((c) => `${c.value} ${SUIT_NAMES[c.suit]}`),
        bid: v.bids && v.bids[seat] !== null ? v.bids[seat] : null,
        // Only the other players' cards, face down.
        backs: seat !== mySeat(S) ? v.hand_sizes[seat] : 0,
      },
    });
  }
  return { players: playersCount(S), boxes };
}

function drawSeatBoxes(felt, { players, boxes }) {
  felt.className = `felt players-${players}`;
  felt.querySelectorAll(".seat-box").forEach((node) => node.remove());
  const before = felt.querySelector(".scoreboard");
  for (const seat of boxes) {
    const box = make("div", `seat-box pos-${seat.position}`);
    box.dataset.name = seat.name;
    if (seat.turn) box.classList.add("turn");
    if (seat.me) box.classList.add("me");
    const name = make("div", "seat-name");
    if (seat.master) {
      const star = make("span", "star", "★");
      star.title = T.master;
      star.setAttribute("aria-label", T.master);
      name.append(star, " ");
    }
    if (seat.robot !== null) {
      // The robot's name, and its level on a line of its own: side seats are narrow.
      box.classList.add("robot");
      name.append(robotIcon(), seat.name, make("span", "robot-level", seat.robot));
    } else {
      name.append(seat.name);
    }
    if (seat.me) name.append(make("span", "you-tag", ` (${T.you})`));
    box.append(name);
    if (seat.partner) {
      box.classList.add("partner");
      box.append(make("span", "team-tag", T.partner));
    }
    appendFlagAndClock(box, seat);
    if (seat.meta) {
      const meta = make("div", "seat-meta");
      if (seat.meta.dealer) meta.append(make("span", "dealer-chip", T.dealer));
      meta.append(make("span", "tricks-won", fmt(T.tricks_won, { n: seat.meta.tricks })));
      for (const cante of seat.meta.cantes) meta.append(make("span", "cante-chip", cante));
      if (seat.meta.bid !== null) meta.append(make("span", "bid", labelled(T.bids, seat.meta.bid)));
      box.append(meta);
      if (seat.meta.backs > 0) {
        const fan = make("div", "seat-cards");
        fan.title = fmt(T.hand_sizes, { n: seat.meta.backs });
        for (let i = 0; i < seat.meta.backs; i++) fan.append(back());
        box.append(fan);
      }
    }
    felt.insertBefore(box, before);
  }
}

// The points each side has this deal (with habanero's carried points, against the 100 to
// pass), and the deals won so far. The player's own side first is marked.
function scoreboard(S) {
  const v = feltView(S);
  if (!v) return null;
  const me = mySeat(S);
  const points = v.hand_scores || v.points;
  return {
    mine: me === null ? null : sides(S)[me],
    rows: [...v.score.keys()].map((side) => [
      sideLabel(S, side),
      !points ? "–" : v.carry
        ? fmt(T.of_over, { total: v.carry[side] + points[side], over: T.habanero_over })
        : points[side],
      v.score[side],
    ]),
  };
}

function drawScoreboard(felt, board) {
  felt.querySelector(".scoreboard")?.remove();
  if (!board) return;
  const table = smallTable("scoreboard", ["", T.points, T.score], board.rows);
  if (board.mine !== null) table.rows[board.mine + 1]?.classList.add("mine");
  for (const row of table.rows) row.cells[0].title = row.cells[0].textContent;
  felt.append(table);
}

function centre(S) {
  const v = feltView(S);
  if (!v) return { message: statusText(S) };
  const why = explain(S) || {};
  let played = v.trick;
  let taken = null;
  let winning = why.winning ?? null;
  if (!played.length && v.tricks.length && why.taken) {
    // A trick just ended: its cards stay on show, marked as its winner's, until the next
    // card is played.
    played = v.tricks[v.tricks.length - 1];
    const t = why.taken;
    winning = t.seat;
    const mine = t.seat === mySeat(S);
    const text = t.points === null
      ? fmt(mine ? T.you_take_trick_plain : T.takes_trick_plain, { user: seatName(S, t.seat) })
      : fmt(mine ? T.you_take_trick : T.takes_trick, { user: seatName(S, t.seat), points: t.points });
    taken = { text, to: position(S, t.seat), number: t.number };
  }
  return {
    taken,
    trick: played.map((p, i) => ({
      position: position(S, p.seat),
      card: p.card,
      winning: p.seat === winning,
      leader: i === 0,
      label: labelled(whoSays(S, p.seat), cardLabel(p.card)),
    })),
    trumpCard: v.trump_card,
    stock: v.stock_size > 0 || v.trump_in_stock ? v.stock_size : null,
    trumpSuit: v.trump_suit,
  };
}

// The cards already on the felt: only a newly played one comes in with a motion.
let onFelt = new Set();
// The number of the trick whose taking the top row says.
let lastTaken = null;

function drawCentre(slice) {
  const trick = $("trick");
  const trump = $("trump");
  const takenLine = $("trick-taken");
  trick.replaceChildren();
  trump.replaceChildren();
  takenLine.hidden = true;
  if ("message" in slice) {
    trick.append(make("p", "felt-message", slice.message));
    onFelt = new Set();
    return;
  }
  trick.className = "trick-area";
  if (slice.taken) {
    trick.classList.add("taken");
    // Drawn first in place, then moved towards its winner: the next move is never waited for.
    requestAnimationFrame(() => requestAnimationFrame(() => trick.classList.add(`to-${slice.taken.to}`)));
    takenLine.textContent = slice.taken.text;
    takenLine.hidden = false;
    // The felt's top row says the newest news: a trick just taken, over an older notice.
    if (slice.taken.number !== lastTaken) $("notice").hidden = true;
  }
  lastTaken = slice.taken ? slice.taken.number : null;
  const now = new Set();
  for (const p of slice.trick) {
    const played = make("div", `played pos-${p.position}`);
    if (p.winning) played.classList.add("winning");
    if (p.leader) {
      played.classList.add("leader");
      played.dataset.lead = T.led;
    }
    if (!slice.taken && !onFelt.has(p.card)) played.classList.add("fresh");
    now.add(p.card);
    played.append(face(p.card));
    played.setAttribute("aria-label", p.leader ? `${p.label} (${T.led})` : p.label);
    trick.append(played);
  }
  onFelt = now;
  if (slice.trumpCard) {
    const card = make("div", "trump-card");
    card.append(face(slice.trumpCard));
    if (slice.stock !== null) {
      const pile = make("div", "stock-pile");
      pile.append(back(), make("span", "stock-count", fmt(T.stock, { n: slice.stock })));
      trump.append(pile);
    }
    trump.append(card);
  }
  if (slice.trumpSuit) {
    trump.append(make("span", "trump-suit trump-label", fmt(T.trump_is, { suit: SUIT_NAMES[slice.trumpSuit] })));
  }
}
