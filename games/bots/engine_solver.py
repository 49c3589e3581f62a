"""The exact solver as it was first written: alpha-beta that walks the engine's own states.

:mod:`.solver` now searches on the bit-mask core (:mod:`.core`); this module stays as the
reference it is measured against (``python -m bench.benchmarks.solver_bench``, old code
against new in one run) and for the positions the core does not hold (a card left to draw or
exchange, a pocha bid to make), where the new solver hands the search to it.

No rule is written here: each node asks the engine for the legal actions
(:meth:`GameState.legal_actions_for`, so every duty of §5 holds) and applies them on a
clone (:meth:`GameState.apply`). The cantes, the tute, the capote decision and its
tricks, the last trick's 10 and habanero's first over 100 are the engine's; only the carried
points of a mano de vuelta, which a sampled world does not hold, are checked here, as the
playout does.

What is solved and the value of a finished deal (:func:`deal_value`): :mod:`.solver`.

>>> import random
>>> from games.engine import new_game
>>> g = new_game({"variant": "habanero"}, random.Random(4), first_dealer=0)
>>> while g.stock_left:
...     g.apply(g.legal_actions_for(g.to_move)[0])
>>> value, best = EngineSolver(side=0).solve(g)
>>> best in g.legal_actions_for(g.to_move)
True
"""

from __future__ import annotations

from typing import Any

from games.engine import Action, GameState
from games.engine.cards import POINTS_OF, SUIT_OF
from games.engine.rulebook import DEAL_POINTS, HABANERO_OVER, beats

from .base import MARGIN_WEIGHT, POCHA_SCALE, seat_to_act

TABLE_LIMIT = 400_000  # transposition entries kept before the table is cleared
EXACT, LOWER, UPPER = 0, 1, 2


def deal_value(state: GameState, side: int, seat: int | None = None, carry_winner: Any = None):
    """What the finished deal of ``state`` is worth to ``side`` (pocha: to ``seat``)."""
    rules = state.rules
    if rules.bids:
        scores = state.hand_scores or [0] * state.n
        mine = scores[seat]  # type: ignore[index]
        others = [s for i, s in enumerate(scores) if i != seat]
        return 0.5 + (mine - sum(others) / len(others)) / POCHA_SCALE
    winner = state.deal_winner if carry_winner is None else carry_winner
    won = 0.5 if winner is None else 1.0 if winner == side else 0.0
    points = state.points
    others = [p for s, p in enumerate(points) if s != side]
    return won + MARGIN_WEIGHT * (points[side] - max(others)) / DEAL_POINTS


class EngineSolver:
    """Alpha-beta over the tricks left of one deal, for the robot's ``side``.

    ``carry`` is a mano de vuelta's carried points (the first side over 100 with them wins at
    once); ``seat`` is the robot's seat, for pocha's hand score. The transposition table is
    kept between calls, so a robot solving move after move in one deal reuses it.
    """

    def __init__(
        self, side: int, seat: int | None = None, carry: tuple[int, ...] | None = None
    ) -> None:
        self.side = side
        self.seat = seat
        self.carry = carry
        self.table: dict[tuple[Any, ...], tuple[float, int, Action | None]] = {}
        self.nodes = 0

    def solve(self, state: GameState) -> tuple[float, Action | None]:
        """The exact value of ``state`` for the side and the best action of the seat to act
        (None when the deal is over)."""
        if len(self.table) > TABLE_LIMIT:
            self.table.clear()
        return self._search(state, -1e9, 1e9)

    def values(self, state: GameState, actions: list[Action]) -> list[float]:
        """The exact value of each of ``actions`` (all of the acting seat) from ``state``."""
        out = []
        for action in actions:
            child = state.clone()
            child.apply(action)
            out.append(self._search(child, -1e9, 1e9)[0])
        return out

    # ------------------------------------------------------------------ the search

    def _terminal(self, state: GameState) -> float | None:
        if state.deal_over:
            return deal_value(state, self.side, self.seat)
        carry = self.carry
        if carry is not None and state.capote_seat is None:
            points = state.points
            for side, carried in enumerate(carry):
                if carried + points[side] > HABANERO_OVER:
                    return deal_value(state, self.side, self.seat, carry_winner=side)
        return None

    def _key(self, state: GameState, seat: int) -> tuple[Any, ...]:
        rules = state.rules
        key: tuple[Any, ...] = (
            seat,
            tuple(state.masks),
            tuple(state.trick),
            tuple(state.points),
            state.sung,
            state.moment,
            state.phase,
            state.capote_seat,
            state.capote_turn,
            state.trump,
        )
        if rules.bids:
            # The bids too: in the bidding, positions that differ only by a bid made are
            # not the same position.
            key += (tuple(state.tricks_won), tuple(state.bids))
        if rules.sides > 2:
            last = state.last_win
            key += (tuple(sorted(range(len(last)), key=last.__getitem__)),)
        return key

    def _search(self, state: GameState, alpha: float, beta: float) -> tuple[float, Action | None]:
        self.nodes += 1
        done = self._terminal(state)
        if done is not None:
            return done, None
        seat = seat_to_act(state)
        if seat is None:
            return deal_value(state, self.side, self.seat), None
        actions = state.legal_actions_for(seat)
        key = self._key(state, seat)
        entry = self.table.get(key)
        first = None
        if entry is not None:
            value, flag, first = entry
            if flag == EXACT:
                return value, first
            if flag == LOWER and value >= beta:
                return value, first
            if flag == UPPER and value <= alpha:
                return value, first
        maximize = state.side_of[seat] == self.side
        ordered = _ordered(actions, state, first)
        a0, b0 = alpha, beta
        best_value = -1e9 if maximize else 1e9
        best: Action | None = None
        for action in ordered:
            child = state.clone()
            child.apply(action)
            value = self._search(child, alpha, beta)[0]
            if maximize:
                if value > best_value:
                    best_value, best = value, action
                    alpha = max(alpha, value)
            elif value < best_value:
                best_value, best = value, action
                beta = min(beta, value)
            if alpha >= beta:
                break
        if best_value <= a0:
            flag = UPPER
        elif best_value >= b0:
            flag = LOWER
        else:
            flag = EXACT
        self.table[key] = (best_value, flag, best)
        return best_value, best


def _ordered(actions: list[Action], state: GameState, first: Action | None) -> list[Action]:
    """Good actions first, so alpha-beta cuts early: the table's best, tute and cantes, then
    cards that win the trick (the cheapest winner first) or, when none can, the cheapest."""
    trump = state.trump
    trick = state.trick
    win = state.win_card if trick else -1

    def rank(action: Action) -> tuple[int, int]:
        if action == first:
            return (-10, 0)
        kind = action.kind
        if kind != "play":
            return (-5, 0) if kind in ("tute", "sing") else (-1, 0)
        card = action.value.index
        if not trick:
            # Lead the strong cards first: aces and threes, trumps last.
            return (SUIT_OF[card] == trump, card % 10)
        if beats(card, win, trump):
            return (0, -POINTS_OF[card] if SUIT_OF[card] != trump else 20 - card % 10)
        return (1, POINTS_OF[card])

    if len(actions) < 2:
        return actions
    return sorted(actions, key=rank)
