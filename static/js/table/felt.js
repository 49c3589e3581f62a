/* The felt: the seats around it, the scoreboard, and its centre (the trick, the trump card
   and the stock). Three parts, each redrawn only when what it shows changed; the countdowns
   are filled in by timers.js. */
import {
  $, SUIT_NAMES, T, appendFlagAndClock, back, cardLabel, face, fmt, make, robotIcon, smallTable,
} from "./dom.js";
import {
  feltView, gameOn, gameSeat, hasClock, isRobotSeat, mySeat, playersCount, position, seatFlag,
  seatName, sideNames, statusText, tableName,
} from "./model.js";

export function watchFelt(store) {
  const felt = $("felt");
  store.watch(seatBoxes, (slice) => drawSeatBoxes(felt, slice));
  store.watch(scoreboard, (slice) => drawScoreboard(felt, slice));
  store.watch(centre, drawCentre);
}

function seatBoxes(S) {
  const v = feltView(S);
  const boxes = [];
  for (let seat = 0; seat < playersCount(S); seat++) {
    const entry = S.table.seats[seat];
    const robot = isRobotSeat(S, seat);
    boxes.push({
      position: position(S, seat),
      turn: !!(v && v.turn === seat && !v.needs_deal && !v.game_over),
      me: seat === mySeat(S),
      master: !!(entry && entry.user && entry.user === S.table.master),
      robot: robot ? (entry && entry.robot) || (gameSeat(S, seat) || {}).robot || "" : null,
      name: robot ? null : gameOn(S) ? seatName(S, seat) : tableName(entry),
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
      // "Robot" and its level on a line of its own: the side seats are narrow on a phone.
      box.classList.add("robot");
      name.append(robotIcon(), T.robot, make("span", "robot-level", seat.robot));
    } else {
      name.append(seat.name);
    }
    if (seat.me) name.append(make("span", "you-tag", ` (${T.you})`));
    box.append(name);
    appendFlagAndClock(box, seat);
    if (seat.meta) {
      const meta = make("div", "seat-meta");
      if (seat.meta.dealer) meta.append(make("span", "dealer-chip", T.dealer));
      meta.append(make("span", "tricks-won", fmt(T.tricks_won, { n: seat.meta.tricks })));
      for (const cante of seat.meta.cantes) meta.append(make("span", "cante-chip", cante));
      if (seat.meta.bid !== null) meta.append(make("span", "bid", `${T.bids}: ${seat.meta.bid}`));
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

function scoreboard(S) {
  const v = feltView(S);
  if (!v) return null;
  const points = v.hand_scores || v.points;
  return [...v.score.keys()].map((side) => [
    v.pairs ? fmt(T.team, { n: side + 1 }) : sideNames(S, side),
    points ? points[side] : "–",
    v.score[side],
  ]);
}

function drawScoreboard(felt, rows) {
  felt.querySelector(".scoreboard")?.remove();
  if (rows) felt.append(smallTable("scoreboard", ["", T.points, T.score], rows));
}

function centre(S) {
  const v = feltView(S);
  if (!v) return { message: statusText(S) };
  let played = v.trick;
  let taken = false;
  if (!played.length && v.tricks.length) {
    // A trick just ended: its cards stay on show until the next card is played.
    played = v.tricks[v.tricks.length - 1];
    taken = true;
  }
  return {
    taken,
    trick: played.map((p) => ({
      position: position(S, p.seat),
      card: p.card,
      label: `${seatName(S, p.seat)}: ${cardLabel(p.card)}`,
    })),
    trumpCard: v.trump_card,
    stock: v.stock_size > 0 || v.trump_in_stock ? v.stock_size : null,
    trumpSuit: v.trump_suit,
  };
}

function drawCentre(slice) {
  const trick = $("trick");
  const trump = $("trump");
  trick.replaceChildren();
  trump.replaceChildren();
  if ("message" in slice) {
    trick.append(make("p", "felt-message", slice.message));
    return;
  }
  trick.classList.toggle("taken", slice.taken);
  for (const p of slice.trick) {
    const played = make("div", `played pos-${p.position}`);
    played.append(face(p.card));
    played.setAttribute("aria-label", p.label);
    trick.append(played);
  }
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
    trump.append(make("span", "trump-label", `${T.trump}: ${SUIT_NAMES[slice.trumpSuit]}`));
  }
}
