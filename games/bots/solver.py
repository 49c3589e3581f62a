"""An exact solver of the tricks left, when every card is known: alpha-beta on the search core.

Once the stock of 2-player tute or habanero is empty, a seat knows every card: its own
hand, the cards played, and so the other hand (:func:`~games.engine.inference.known_cards`).
What is left is a game of perfect information, and :class:`Solver` plays it out exactly:
a minimax search (alpha-beta) over every legal action. In 3 and 4 players the same search
runs on each world a searching robot samples (double-dummy, as bridge programs do), the
other sides together playing against the robot's side (the "paranoid" reduction, exact
for two sides).

The search runs on :class:`~.core.Core`, the deal as bit masks moved by make and unmake:
no state is copied and no :class:`~games.engine.Action` is built until the answer. The
core agrees with the engine on every rule it holds (``tests/bots/test_core_agrees.py``).
Positions it does not hold (a card left to draw or exchange, a pocha bid to make) are
searched by the engine-walking :class:`~.engine_solver.EngineSolver`, which hands each
position back to the core as soon as the core holds it.

What one search gains from the last, kept in the solver between calls, so across the
worlds a robot samples for one decision and across the moves of one endgame:

- a transposition table at the start of each trick, keyed by everything the rest of the
  deal depends on (the hands, points, cantes, the moment to sing, capote), one table per
  deal context (trump suit, carried points, bids: :meth:`Solver.table_for`), so that it
  stays sound for every world and move of the deal and starts afresh with the next;
- a history of the moves that cut the search off, per seat and for leads and replies
  apart, which orders the moves of the next world before any of its own cuts are known;
- cards that are equivalent are tried once: two cards of one suit worth no points (in
  pocha, any two), held by the same seat with no card of another hand or of the trick
  between them, give the same value whichever is played.

The value of a finished deal for the robot's side is :func:`deal_value`, on the robots' one
scale (:mod:`.base`, ``MARGIN_WEIGHT``): 1 for the deal won, 0 for the deal lost (0.5 when
nobody wins it), plus a quarter of the point margin over the deal's 130 points, the scale of
the robot's playouts too, so exact and sampled values compare.

>>> import random
>>> from games.engine import new_game
>>> g = new_game({"variant": "habanero"}, random.Random(4), first_dealer=0)
>>> while g.stock_left:
...     g.apply(g.legal_actions_for(g.to_move)[0])
>>> solver = Solver(side=0)
>>> value, best = solver.solve(g)
>>> best in g.legal_actions_for(g.to_move)
True
>>> from games.bots.engine_solver import EngineSolver
>>> EngineSolver(side=0).solve(g)[0] == value
True

Over 400 lines: the search, its move ordering, its transposition table and its bounds share one
hot loop and its locals for speed; read top to bottom, the search is one piece.
"""

from __future__ import annotations

from typing import Any

from games.engine import Action, GameState
from games.engine.cards import POINTS_OF

from .base import MARGIN_WEIGHT, seat_to_act
from .core import (
    ABOVE,
    ALL_CABALLOS,
    ALL_CARDS,
    ALL_REYES,
    BIT,
    CAPOTE,
    CAPOTE_NO,
    CAPOTE_YES,
    DONE,
    PLAY,
    SUIT_MASK,
    SUIT_OF_BIT,
    ZERO_POINTS,
    Core,
    beats,
    cards_of,
    covers,
    from_action,
    full_duties,
    to_action,
)
from .engine_solver import EngineSolver, deal_value

__all__ = ["MARGIN_WEIGHT", "Solver", "deal_value", "seat_to_act"]

TABLE_LIMIT = 400_000  # transposition entries kept before the table is cleared
EXACT, LOWER, UPPER = 0, 1, 2
INF = 1e9


class _CoreBridge(EngineSolver):
    """The engine-walking search for the positions the core does not hold, handing every
    position the core holds to the core's search."""

    def __init__(self, owner: Solver) -> None:
        super().__init__(owner.side, owner.seat, owner.carry)
        self.owner = owner

    def _search(self, state: GameState, alpha: float, beta: float) -> tuple[float, Any]:
        if covers(state):
            _, search = self.owner._load(state)
            value = search.position(alpha, beta)
            self.owner.nodes += search.nodes()
            return value, None
        return super()._search(state, alpha, beta)


def _prior_tables(trump: int) -> tuple[list[float], ...]:
    """The history's first guesses, before any cut. Leads: sing and announce first, then
    aces and threes outside trump, trumps last. Replies that take the trick: outside trump
    the one worth most, then the weakest trump. Others: the cheapest."""
    lead = [(9 - c % 10) * 2 - (30 if c // 10 == trump else 0) for c in range(40)]
    lead += [100] * 4 + [200, 200, 0, 1]
    win = [POINTS_OF[c] if c // 10 != trump else -50 + c % 10 for c in range(40)] + [0] * 8
    lose = [-POINTS_OF[c] - (10 if c // 10 == trump else 0) + c % 10 / 10 for c in range(40)]
    lose += [0] * 8
    return lead, win, lose


_PRIORS = tuple(_prior_tables(trump) for trump in range(4))


def _priors(trump: int) -> tuple[list[list[float]], ...]:
    """A fresh history for one trump suit: the priors, one copy per seat."""
    return tuple([table[:] for _ in range(4)] for table in _PRIORS[trump])


class Solver:
    """Alpha-beta over the tricks left of one deal, for the robot's ``side``.

    ``carry`` is a mano de vuelta's carried points (the first side over 100 with them wins at
    once); ``seat`` is the robot's seat, for pocha's hand score. The transposition table and
    the move history are kept between calls (see the module's docstring).
    """

    def __init__(
        self, side: int, seat: int | None = None, carry: tuple[int, ...] | None = None
    ) -> None:
        self.side = side
        self.seat = seat
        self.carry = carry
        self.tables: dict[tuple[Any, ...], dict[tuple[Any, ...], tuple[float, int, int]]] = {}
        self.nodes = 0
        # Per trump suit: the history of leads, of replies that take the trick, of others.
        self.history: dict[int, tuple[list[list[float]], ...]] = {}
        self._bridge: _CoreBridge | None = None
        self._cached: tuple[Any, Core, _Search] | None = None  # the last core and search

    def solve(self, state: GameState) -> tuple[float, Action | None]:
        """The exact value of ``state`` for the side and the best action of the seat to act
        (None when the deal is over)."""
        if not covers(state):
            return self._engine().solve(state)
        core, search = self._load(state)
        if core.phase == DONE:
            self.nodes += 1
            return core.value(self.side, self.seat, MARGIN_WEIGHT), None
        seat: int = core.acting()  # type: ignore[assignment]
        value, code = search.root(seat)
        self.nodes += search.nodes()
        return value, to_action(seat, code)

    def _load(self, state: GameState) -> tuple[Core, _Search]:
        """A core holding ``state`` and its search: the last ones, reloaded, when the
        position is of the same context (a robot's worlds and moves of one deal are)."""
        context = Core.context(state, self.carry)
        cached = self._cached
        if cached is not None and cached[0] == context:
            _, core, search = cached
            core.reload(state)
            search.reset()
        else:
            core = Core.from_state(state, self.carry)
            search = _Search(self, core)
            self._cached = (context, core, search)
        return core, search

    def values(self, state: GameState, actions: list[Action]) -> list[float]:
        """The exact value of each of ``actions`` (all of the acting seat) from ``state``."""
        if not covers(state):
            return self._engine().values(state, actions)
        _, search = self._load(state)
        out = [search.child(a.seat, from_action(a), -INF, INF) for a in actions]
        self.nodes += search.nodes()
        return out

    def table_for(self, context: tuple[Any, ...]) -> dict[tuple[Any, ...], Any]:
        """The transposition table of one deal's context (trump suit, carry, bids). One
        context is kept at a time: a new deal's search starts a new table."""
        table = self.tables.get(context)
        if table is None:
            self.tables.clear()
            table = self.tables[context] = {}
        elif len(table) > TABLE_LIMIT:
            table.clear()
        return table

    def _engine(self) -> _CoreBridge:
        if self._bridge is None:
            self._bridge = _CoreBridge(self)
        bridge = self._bridge
        bridge.nodes = 0
        return bridge


class _Search:
    """One search on one core: its nodes are closures over the core's fields, which reach
    them faster than attributes would.

    Two kinds of node. ``lead`` is a trick's start: cantes, tute and capote are made there
    with the core's make and unmake, and the transposition table is read and written.
    ``reply`` is a card inside a trick: the trick so far travels in its arguments and only
    the hand's bit changes, until the last card, where the core's ``take`` scores it (the
    same code as the core's own make, so the property test covers it).
    """

    def __init__(self, solver: Solver, core: Core) -> None:
        hands = core.hands
        trump = core.trump
        n = core.n
        side_of = core.side_of
        side, me = solver.side, solver.seat
        # The trump suit and the carried points are the same for every position of one deal:
        # each pair of them has a table of its own, shared by every world of that deal.
        table = solver.table_for((trump, core.carry, core.bids))
        lookup = table.get
        if trump not in solver.history:
            solver.history[trump] = _priors(trump)
        hist_lead, hist_win, hist_lose = solver.history[trump]
        take, untake, make, unmake = core.take, core.untake, core.make, core.unmake
        value_of = core.value
        trumps_mask = SUIT_MASK[trump]
        pointless = ZERO_POINTS if core.count_points else ALL_CARDS
        after = tuple((s + 1) % n for s in range(n))
        extra_bids = core.bids is not None
        extra_order = core.sides > 2
        score, won, last_win = core.points, core.tricks_won, core.last_win
        carry = core.carry
        count_points = core.count_points
        moment_seats = core.moment_seats
        sing_after = core.sing_after
        plain = carry is None  # no carried points: a trick with cards left ends nothing
        nodes = 0

        # What only a cante, a tute or a capote decision changes, kept as one value: it is
        # read again after each of them (see announce).
        tag = (core.sung, core.sang, core.phase, core.capote_turn, core.capote_seat)
        plain_key = n == 2 and not extra_bids and not extra_order

        def key_of(seat: int) -> tuple[Any, ...]:
            if plain_key:
                return (hands[0], hands[1], core.turn, seat, score[0], score[1], core.moment, tag)
            key: tuple[Any, ...] = (tuple(hands), core.turn, seat, tuple(score), core.moment, tag)
            if extra_bids:
                key += (tuple(core.tricks_won), core.bids)
            if extra_order:
                last = core.last_win
                key += (tuple(sorted(range(len(last)), key=last.__getitem__)),)
            return key

        def announce(seat: int, code: int, alpha: float, beta: float) -> float:
            # A cante, a tute or a capote decision, made and taken back on the core.
            nonlocal tag
            old = tag
            make(seat, code)
            tag = (core.sung, core.sang, core.phase, core.capote_turn, core.capote_seat)
            value = lead(alpha, beta)
            unmake()
            tag = old
            return value

        def prune(mask: int, hand: int, tmask: int) -> int:
            # Equivalent cards: of each run of pointless cards of a suit with no card of
            # another hand or of the trick between them, keep the strongest.
            zero = mask & pointless
            if not zero & (zero - 1):
                return mask
            live = tmask
            for h in hands:
                live |= h
            others = live & ~hand
            prev = -1
            while zero:
                low = zero & -zero
                c = low.bit_length() - 1
                zero ^= low
                if (
                    prev >= 0
                    and SUIT_OF_BIT[prev] == SUIT_OF_BIT[c]
                    and not others & ((1 << c) - (1 << (prev + 1)))
                ):
                    mask ^= low
                else:
                    prev = c
            return mask

        def leads(seat: int, first: int) -> list[int]:
            if core.phase == PLAY and seat == core.turn:
                hand = hands[seat]
                moves = cards_of(prune(hand, hand, 0))
            else:
                moves = []
            if core.moment:
                moves += core.announcements(seat)
            if core.phase == CAPOTE and seat == core.capote_turn:
                moves += (CAPOTE_NO, CAPOTE_YES)
            if len(moves) > 1:
                moves.sort(key=hist_lead[seat].__getitem__, reverse=True)
                if first >= 0 and first in moves:
                    moves.remove(first)
                    moves.insert(0, first)
            return moves

        def replies(seat: int, led: int, win_card: int, tmask: int) -> tuple[list[int], int]:
            hand = hands[seat]
            # The duties of §5 (one home: core.full_duties); then the cards that take it.
            mask = full_duties(hand, led, win_card, trump)
            beat = ABOVE[win_card] | (trumps_mask if SUIT_OF_BIT[win_card] != trump else 0)
            if not mask & (mask - 1):
                return [mask.bit_length() - 1], beat
            mask = prune(mask, hand, tmask)
            moves = sorted(cards_of(mask & beat), key=hist_win[seat].__getitem__, reverse=True)
            if mask & ~beat:
                moves += sorted(
                    cards_of(mask & ~beat), key=hist_lose[seat].__getitem__, reverse=True
                )
            return moves, beat

        def last_trick(seat: int) -> float:
            # One card in each hand: every card is forced; the nodes are counted as the
            # search would visit them.
            nonlocal nodes
            nodes += n + 1
            if n == 2:
                other = after[seat]
                mine, theirs = hands[seat], hands[other]
                card, reply_card = mine.bit_length() - 1, theirs.bit_length() - 1
                points = POINTS_OF[card] + POINTS_OF[reply_card]
                w = other if beats(reply_card, card, trump) else seat
                hands[seat] = hands[other] = 0
                moment = core.moment
                take(w, points)
                value = value_of(side, me, MARGIN_WEIGHT)
                untake()
                core.moment = moment
                hands[seat], hands[other] = mine, theirs
                return value
            saved = hands[:]
            card = saved[seat].bit_length() - 1
            win_seat, win_card, points = seat, card, POINTS_OF[card]
            s = seat
            for _ in range(n - 1):
                s = after[s]
                card = saved[s].bit_length() - 1
                points += POINTS_OF[card]
                if beats(card, win_card, trump):
                    win_seat, win_card = s, card
            for s in range(n):
                hands[s] = 0
            moment = core.moment
            take(win_seat, points)
            value = value_of(side, me, MARGIN_WEIGHT)
            untake()
            core.moment = moment
            hands[:] = saved
            return value

        def lead(alpha: float, beta: float) -> float:
            nonlocal nodes
            phase = core.phase
            if phase == DONE:
                nodes += 1
                return value_of(side, me, MARGIN_WEIGHT)
            seat = core.turn
            moment = core.moment
            if phase != PLAY or (moment and (len(moment) > 1 or moment[0] != seat)):
                seat = core.acting()  # type: ignore[assignment]
            hand = hands[seat]
            if phase == PLAY and not hand & (hand - 1) and seat == core.turn:
                return last_trick(seat)
            nodes += 1
            key = key_of(seat)
            entry = lookup(key)
            first = -1
            if entry is not None:
                value, flag, first = entry
                if flag == EXACT:
                    return value
                if flag == LOWER and value >= beta:
                    return value
                if flag == UPPER and value <= alpha:
                    return value
            maximize = side_of[seat] == side
            if phase == PLAY and seat == core.turn:
                mask = hand
                zero = hand & pointless
                if zero & (zero - 1):
                    mask = prune(hand, hand, 0)
                moves = cards_of(mask)
                if (
                    moment
                    and seat in moment
                    and (
                        hand & (hand >> 1) & ALL_REYES & ~core.sung
                        or (hand & ALL_REYES == ALL_REYES or hand & ALL_CABALLOS == ALL_CABALLOS)
                    )
                ):
                    moves += core.announcements(seat)
            elif phase == CAPOTE and seat == core.capote_turn:
                moves = [CAPOTE_NO, CAPOTE_YES, *core.announcements(seat)]
            else:
                moves = core.announcements(seat)
            if len(moves) > 1:
                moves.sort(key=hist_lead[seat].__getitem__, reverse=True)
                if first >= 0 and first in moves:
                    moves.remove(first)
                    moves.insert(0, first)
            a0, b0 = alpha, beta
            best_value = -INF if maximize else INF
            best = -1
            nxt = after[seat]
            for code in moves:
                if code < 40:
                    hands[seat] = hand ^ BIT[code]
                    if moment:
                        core.moment = ()  # leading closes the moment to sing (§7)
                    value = reply(
                        nxt,
                        SUIT_OF_BIT[code],
                        seat,
                        code,
                        1,
                        POINTS_OF[code],
                        BIT[code],
                        alpha,
                        beta,
                    )
                    if moment:
                        core.moment = moment
                    hands[seat] = hand
                else:
                    value = announce(seat, code, alpha, beta)
                if maximize:
                    if value > best_value:
                        best_value, best = value, code
                        if value > alpha:
                            alpha = value
                elif value < best_value:
                    best_value, best = value, code
                    if value < beta:
                        beta = value
                if alpha >= beta:
                    hist_lead[seat][code] += 1 + len(moves)
                    break
            if best_value <= a0:
                flag = UPPER
            elif best_value >= b0:
                flag = LOWER
            else:
                flag = EXACT
            table[key] = (best_value, flag, best)
            return best_value

        def trick_won(w: int, points: int, alpha: float, beta: float) -> float:
            # The trick's last card is down and ``w`` takes it. When it cannot end the deal
            # (cards left, no capote declared, no carried points), the bookkeeping of
            # Core.take is done here on the core's own lists, faster than a call; else
            # Core.take itself decides how the deal ends.
            nonlocal nodes
            if hands[w] and core.capote_seat < 0 and carry is None:
                sd = side_of[w]
                old_points = score[sd]
                if count_points:
                    score[sd] = old_points + points
                won[w] += 1
                old_last = last_win[sd]
                ntricks = core.ntricks + 1
                core.ntricks = last_win[sd] = ntricks
                leader, turn, moment = core.leader, core.turn, core.moment
                core.leader = core.turn = w
                core.moment = moment_seats[w] if sing_after else ()
                value = lead(alpha, beta)
                core.leader, core.turn, core.moment = leader, turn, moment
                core.ntricks = ntricks - 1
                last_win[sd] = old_last
                won[w] -= 1
                score[sd] = old_points
                return value
            moment = core.moment
            take(w, points)
            if core.phase == DONE:
                nodes += 1
                value = value_of(side, me, MARGIN_WEIGHT)
            else:
                value = lead(alpha, beta)
            untake()
            core.moment = moment
            return value

        def reply(
            seat: int,
            led: int,
            win_seat: int,
            win_card: int,
            count: int,
            points: int,
            tmask: int,
            alpha: float,
            beta: float,
        ) -> float:
            nonlocal nodes
            nodes += 1
            hand = hands[seat]
            # The duties of §5 (one home: core.full_duties); then the cards that take it.
            mask = full_duties(hand, led, win_card, trump)
            beat = ABOVE[win_card] | (trumps_mask if SUIT_OF_BIT[win_card] != trump else 0)
            if mask & (mask - 1):
                zero = mask & pointless
                if zero & (zero - 1):
                    mask = prune(mask, hand, tmask)
                moves = sorted(cards_of(mask & beat), key=hist_win[seat].__getitem__, reverse=True)
                if mask & ~beat:
                    moves += sorted(
                        cards_of(mask & ~beat), key=hist_lose[seat].__getitem__, reverse=True
                    )
            else:
                moves = [mask.bit_length() - 1]
            maximize = side_of[seat] == side
            best_value = -INF if maximize else INF
            last = count + 1 == n
            nxt = after[seat]
            for code in moves:
                bit = BIT[code]
                hands[seat] = hand ^ bit
                if beat & bit:
                    ws, wc = seat, code
                else:
                    ws, wc = win_seat, win_card
                if not last:
                    value = reply(
                        nxt,
                        led,
                        ws,
                        wc,
                        count + 1,
                        points + POINTS_OF[code],
                        tmask | bit,
                        alpha,
                        beta,
                    )
                elif hands[ws] and plain and core.capote_seat < 0:
                    # trick_won's common case, inlined: the trick cannot end the deal.
                    sd = side_of[ws]
                    old_points = score[sd]
                    if count_points:
                        score[sd] = old_points + points + POINTS_OF[code]
                    won[ws] += 1
                    old_last = last_win[sd]
                    ntricks = core.ntricks + 1
                    core.ntricks = last_win[sd] = ntricks
                    leader, turn, moment = core.leader, core.turn, core.moment
                    core.leader = core.turn = ws
                    core.moment = moment_seats[ws] if sing_after else ()
                    value = lead(alpha, beta)
                    core.leader, core.turn, core.moment = leader, turn, moment
                    core.ntricks = ntricks - 1
                    last_win[sd] = old_last
                    won[ws] -= 1
                    score[sd] = old_points
                else:
                    value = trick_won(ws, points + POINTS_OF[code], alpha, beta)
                if maximize:
                    if value > best_value:
                        best_value = value
                        if value > alpha:
                            alpha = value
                elif value < best_value:
                    best_value = value
                    if value < beta:
                        beta = value
                if alpha >= beta:
                    (hist_win if beat & bit else hist_lose)[seat][code] += 1 + len(moves)
                    break
            hands[seat] = hand
            return best_value

        def trick_args() -> tuple[int, int, int, int, int, int]:
            trick = core.trick
            points = 0
            tmask = 0
            for c in trick:
                points += POINTS_OF[c]
                tmask |= BIT[c]
            return SUIT_OF_BIT[trick[0]], core.win_seat, core.win_card, len(trick), points, tmask

        def child(seat: int, code: int, alpha: float, beta: float) -> float:
            """The value after ``seat`` takes the action ``code``."""
            if code >= 40:
                return announce(seat, code, alpha, beta)
            hand = hands[seat]
            if not core.trick:
                hands[seat] = hand ^ BIT[code]
                moment = core.moment
                core.moment = ()
                value = reply(
                    after[seat],
                    SUIT_OF_BIT[code],
                    seat,
                    code,
                    1,
                    POINTS_OF[code],
                    BIT[code],
                    alpha,
                    beta,
                )
                core.moment = moment
                hands[seat] = hand
                return value
            led, win_seat, win_card, count, points, tmask = trick_args()
            hands[seat] = hand ^ BIT[code]
            if beats(code, win_card, trump):
                win_seat, win_card = seat, code
            points += POINTS_OF[code]
            if count + 1 == n:
                value = trick_won(win_seat, points, alpha, beta)
            else:
                value = reply(
                    after[seat],
                    led,
                    win_seat,
                    win_card,
                    count + 1,
                    points,
                    tmask | BIT[code],
                    alpha,
                    beta,
                )
            hands[seat] = hand
            return value

        def root(seat: int) -> tuple[float, int]:
            """The value and the best action of ``seat``."""
            nonlocal nodes
            nodes += 1
            maximize = side_of[seat] == side
            best_value = -INF if maximize else INF
            best = -1
            alpha, beta = -INF, INF
            if core.trick:
                led, _, win_card, _, _, tmask = trick_args()
                moves = replies(seat, led, win_card, tmask)[0]
            else:
                entry = lookup(key_of(seat))
                moves = leads(seat, -1 if entry is None else entry[2])
            for code in moves:
                value = child(seat, code, alpha, beta)
                if maximize and value > best_value:
                    best_value, best = value, code
                    alpha = value
                elif not maximize and value < best_value:
                    best_value, best = value, code
                    beta = value
            return best_value, best

        def position(alpha: float, beta: float) -> float:
            """The value of the core's position as it stands."""
            nonlocal nodes
            if core.phase == DONE:
                nodes += 1
                return value_of(side, me, MARGIN_WEIGHT)
            if core.trick:
                led, win_seat, win_card, count, points, tmask = trick_args()
                return reply(core.turn, led, win_seat, win_card, count, points, tmask, alpha, beta)
            return lead(alpha, beta)

        def reset() -> None:
            """The core holds a new position (Core.reload): count afresh, read its tag."""
            nonlocal nodes, tag
            nodes = 0
            tag = (core.sung, core.sang, core.phase, core.capote_turn, core.capote_seat)

        self.root, self.child, self.position, self.reset = root, child, position, reset
        self.nodes = lambda: nodes
