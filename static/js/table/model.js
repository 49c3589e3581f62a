/* Questions the parts of the page ask of a snapshot (the store's last frame): who sits
   where, whose turn, what to say. They read the frame and decide no rule: what may be played,
   what a cante is worth, whether a robot holds a seat, all come in it. */
import { T, fmt, place } from "./dom.js";

export const view = (S) => (S.game ? S.game.view : null);
export const mySeat = (S) => (S.you ? S.you.seat : null);
export const gameOn = (S) => !!(S.game && S.game.status === "playing");
export const cancelled = (S) => !!(S.game && S.game.status === "cancelled");
export const running = (S) => S.table.status === "playing";
export const closed = (S) => S.table.status === "closed";
export const playersCount = (S) => S.table.options.players;
export const legal = (S) => (view(S) && gameOn(S) ? view(S).legal_actions : []);
export const deadline = (S) => (gameOn(S) ? S.game.deadline : null);
export const position = (S, seat) => place(seat, playersCount(S), mySeat(S));

// Who plays each seat of the game now (robots, away players…): `game.seats`.
export const gameSeat = (S, seat) =>
  (S.game && S.game.seats ? S.game.seats.find((g) => g.seat === seat) : null) || null;

// A robot's level in the reader's words ("medium"), from the registry's name it comes as.
export const levelWord = (robot) => (T.levels && T.levels[robot]) || robot || "";
// "Robot Lola · medium": each robot seat has its own name (the frame's `name`).
export const robotLabel = (entry) =>
  fmt(T.robot_label, { name: entry.name || T.robot, level: levelWord(entry.robot) });
export const tableName = (entry) => (entry ? entry.user || robotLabel(entry) : T.free_seat);

// The game's player keeps their name on the game's seat even after leaving the table; a
// robot's seat is called by its robot's name.
export function seatName(S, seat) {
  const played = gameSeat(S, seat);
  if (played && played.user) return played.user;
  const entry = S.table.seats[seat];
  if (entry && entry.user) return entry.user;
  return (played && played.name) || (entry && entry.name) || T.free_seat;
}

// The seat's name as its reader says it: "you" for their own.
export const whoSays = (S, seat) => (seat === mySeat(S) ? T.you : seatName(S, seat));

// The game's explanations (frames' `game.explain`): the trick's leader and winner so far,
// the last trick taken and its points, why dimmed cards are dimmed.
export const explain = (S) => (S.game && S.game.explain) || null;

// Pairs: the player's partner, or null.
export function partnerOf(S, seat) {
  const v = view(S);
  if (!v || !v.pairs || seat === null) return null;
  const other = v.sides.findIndex((side, s) => s !== seat && side === v.sides[seat]);
  return other < 0 ? null : other;
}

// What everyone should know about a player's seat: away, abandoned, a robot in their place.
export function seatFlag(S, seat) {
  const played = gameSeat(S, seat);
  if (!played || !played.user) return null;
  if (played.abandoned) return ["abandoned", T.abandoned];
  if (!gameOn(S)) return null;
  if (played.away) return ["away", T.away];
  if (played.robot) return ["robot-plays", T.robot_plays];
  return null;
}

export function isRobotSeat(S, seat) {
  const entry = S.table.seats[seat];
  const played = gameSeat(S, seat);
  return played ? !played.user : !!(entry && !entry.user);
}

// A player's move timer only: a robot's short pause before its move is no countdown.
export function hasClock(S, seat) {
  const timer = deadline(S);
  return !!(timer && timer.kind === "move" && timer.seat === seat);
}

// Seats follow the table's options; a finished game played with other options (the master
// changed them since) is left out of the table's drawing but still summed up below it.
export const feltView = (S) => (view(S) && view(S).players === playersCount(S) ? view(S) : null);

export const sides = (S) => (view(S) ? view(S).sides : [...Array(playersCount(S)).keys()]);
export const sideNames = (S, side) =>
  sides(S)
    .map((s, seat) => (s === side ? seatName(S, seat) : null))
    .filter((name) => name !== null)
    .join(" & ");

// A side as its reader says it: "You and Robot Rosa" for the player's own team in pairs.
export function sideLabel(S, side) {
  const me = mySeat(S);
  const partner = partnerOf(S, me);
  if (me !== null && partner !== null && sides(S)[me] === side) {
    return fmt(T.your_team, { partner: seatName(S, partner) });
  }
  return sideNames(S, side);
}

export function closedText(S) {
  const reason = S.table.close_reason;
  return reason ? fmt(T.closed_by_moderator, { reason }) : T.closed;
}

// The line under the felt: whose turn it is, or what the table waits for.
export function statusText(S) {
  const v = view(S);
  const me = mySeat(S);
  const gameRunning = running(S) && v && !v.game_over;
  if (closed(S)) return closedText(S);
  if (!gameRunning) {
    if (cancelled(S)) return T.cancelled;
    // What comes next is the summary's: the rematch any player may offer.
    if (v && v.game_over) return T.ended;
    if (S.table.free_seats === 1) return T.waiting_player;
    if (S.table.free_seats > 0) return fmt(T.waiting_players, { free: S.table.free_seats });
    return S.may && S.may.start ? T.ready_master : T.ready;
  }
  if (v.needs_deal) return fmt(T.deal_over, { number: v.deal_number + 1 });
  const prefix = me === null ? `${T.watching} ` : "";
  const mine = me !== null ? gameSeat(S, me) : null;
  if (mine && mine.robot_holds) return T.robot_holds_seat;
  if (me !== null && v.turn === me) {
    return v.phase === "bid" || legal(S).some((a) => "bid" in a) ? T.your_turn_bid : T.your_turn;
  }
  if (me !== null && v.cante_open.includes(me) && legal(S).length) return T.may_sing;
  if (v.turn !== null) return prefix + fmt(T.waiting_for, { user: seatName(S, v.turn) });
  return prefix;
}

// What a cante in `suit` is worth now, as the frame says (`game.sing_values`).
export const singValue = (S, suit) =>
  S.game && S.game.sing_values ? S.game.sing_values[suit] : undefined;
