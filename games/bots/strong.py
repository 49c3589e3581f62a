"""The ``strong`` robot: it searches over worlds dealt from what its seat has seen.

Perfect Information Monte Carlo (PIMC) with a sound sampler and a greedy playout:

1. :class:`~.sampler.WorldSampler` deals the cards hidden from the seat at random, keeping
   everything the view shows (voids and ceilings revealed by the tricks, cards sung, the
   trump card exchanged or drawn last, the dealer's face-up card);
2. on each world, every candidate action is applied and the deal is played to its end by
   :func:`greedy_action` for every seat: a fast club-player rule (win a trick worth
   taking with the cheapest card that wins it, else throw the cheapest card; feed a
   partner who is winning; sing, exchange and announce tute whenever offered);
3. each playout is scored for the robot's side (:func:`playout_value`): 1 for the deal
   won, 0 for the deal lost, plus a small share of the point margin so that among equally
   winning cards the one that wins by more is kept; pocha scores the hand itself;
4. the action with the best mean over the worlds is played. Every action is tried on the
   same worlds, so their difference is not blurred by different deals.

Which playout, measured against the heuristic robot over the same 100 single-deal games
of 4-player pairs tute at 300 playouts a move: random playouts won 51; the plain
greedy rule 52; the rule with a memory of the cards gone (:func:`smart_card`, the
default) 58; the same with the point margin weighted four times more 55; keeping the
heuristic's card unless the search beats it by a standard error 50. So the search plays
its own choice, with the smart playout. A quarter of the playouts' choices made at random
(``epsilon`` 0.25), which lifts a robot that sees every card from 81% to 90% in habanero,
gave the hard level nothing: 79.2% against 79.6% over 500 games; its sampled worlds already
vary the play. Arena figures are in README.md.

Exact play (:mod:`.solver`): in 2-player tute and habanero, once the stock is empty, every
card is known from the view, and the robot plays the solver's exact best from there (the
capote decision and cantes included). Elsewhere, each playout stops once
:data:`EXACT_CARDS` cards are left in hand (the stock empty) and the tricks left are solved
exactly on that world, in place of the greedy rule; the solver searches on the bit-mask
core (:mod:`.core`) and keeps its table and move history across the worlds and decisions
of one deal. :meth:`StrongBot.evaluate` gives every
candidate's expected result, for the analysis of finished games (:mod:`.analysis`).

Announcements are not searched: tute, the exchange and cantes are always taken (each only
gains), and habanero's capote is declared only when it is sure (the heuristic's exact
check, the stock being empty). Pocha bids and every card are searched.

The budget is a number of playouts (``iterations``: the same seed then gives the same
game on any machine) and/or milliseconds of wall time (``budget_ms``), whichever ends
first. The robot sees only its :class:`~games.engine.SeatView` and its own ``rng``.

>>> import random
>>> from games.engine import new_game
>>> state = new_game({"variant": "tute", "players": 4}, random.Random(7))
>>> view = state.view(state.turn)
>>> bot = StrongBot(random.Random(1), iterations=200)
>>> bot.choose(view) in view.legal_actions
True

Over 400 lines: the strong robot's three steps (sample worlds, play them out, choose) and its
clock are read together; each step is a few functions.
"""

from __future__ import annotations

import math
import time
from typing import Any

from games.engine import Action, GameState, SeatView
from games.engine.cards import POINTS_OF, SUIT_OF, SUITS
from games.engine.inference import known_cards
from games.engine.rulebook import DEAL_POINTS, HABANERO_OVER

from .base import MARGIN_WEIGHT, POCHA_SCALE, default_rng
from .core import CAPOTE_NO, CAPOTE_YES, DONE, SING, TUTE_11, TUTE_12, covers
from .heuristic import HeuristicBot, capote_is_sure, exchange_action, sing_action, tute_action
from .knowledge import Knowledge, beats, trick_winner
from .sampler import NoWorld, WorldSampler
from .solver import Solver

STAKE_TO_WIN = 10  # a trick worth this many points is worth taking before the last card
SURE_AFTER = 8  # worlds between checks that the best action is already clear
SURE_LEAD = 4.0  # ... a lead of this many standard errors over every other action
# Cards left in all hands (the stock empty) at which a playout stops and the tricks left are
# solved exactly on its world (double-dummy), per table size. Chosen on the core by
# bench/benchmarks/exact_tail.py at 250 ms and at 1 s (README.md): 8 in habanero (4 tricks,
# against 6) and 12 at 4 players (3 tricks, against 8) choose closer to a long search at
# both clocks; 3 players keep 6 (not measured).
EXACT_CARDS = {2: 8, 3: 6, 4: 12}
FOLLOWED = ("sing", "exchange")  # actions after which the same seat plays its card


class StrongBot:
    """PIMC search with a greedy playout; see the module's docstring."""

    name = "strong"
    core_playouts = True  # play what follows the stock on the search core (False: engine)

    def __init__(
        self,
        rng: Any = None,
        budget_ms: float | None = 250.0,
        iterations: int | None = None,
        epsilon: float = 0.0,
        playout: str = "smart",
        trust: float = 0.0,
        exact_cards: int | None = None,
        endgame: bool = True,
        sure_lead: float = SURE_LEAD,
    ) -> None:
        if budget_ms is None and iterations is None:
            raise ValueError("A search needs a budget: milliseconds, iterations or both.")
        self.rng = rng if rng is not None else default_rng()
        self.budget_ms = budget_ms
        self.iterations = iterations
        self.epsilon = epsilon
        self.playout = playout
        self.trust = trust
        self.fallback = HeuristicBot(self.rng)
        self.last_playouts = 0  # playouts of the last decision, for measurements
        self.exact_cards = exact_cards  # None: EXACT_CARDS for the table; 0: never
        self.endgame = endgame  # solve the 2-player endgame exactly once the stock is empty
        self.sure_lead = sure_lead  # stop early at this lead in standard errors (inf: never)
        self._solver: Solver | None = None  # kept through one endgame: its table is reused
        self._playout_solver: Solver | None = None  # the playouts' tails, kept likewise
        self.last_exact = False  # whether the last decision was solved exactly

    def exact_world(self, view: SeatView) -> GameState | None:
        """The one world of a 2-player deal whose stock is empty: every card is known from
        the view (:func:`~games.engine.inference.known_cards`), so the deal is of perfect
        information. None before that, or at a table with more players."""
        if view.players != 2 or not view.options.rules.has_stock or view.stock_size:
            return None
        known = known_cards(view)
        if known.outside:
            return None
        try:
            world = WorldSampler(view).sample(self.rng)
        except NoWorld:
            return None
        other = 1 - view.seat  # type: ignore[operator]
        if set(world.hands[other]) != set(known.unseen):
            return None
        return world

    def endgame_solver(self, view: SeatView) -> Solver:
        """The exact solver for this seat's side (reused while the side and carry match)."""
        side = view.sides[view.seat]  # type: ignore[index]
        carry = tuple(view.carry) if view.carry is not None else None
        solver = self._solver
        if solver is None or solver.side != side or solver.carry != carry:
            solver = self._solver = Solver(side, view.seat, carry)
        return solver

    def playout_solver(self, view: SeatView, carry: Any) -> Solver:
        """The solver of the playouts' tails, kept from one decision to the next while the
        seat and the carried points are the same: its table (one deal's, see
        :meth:`.solver.Solver.table_for`) and its move history serve every world sampled."""
        side = view.sides[view.seat]  # type: ignore[index]
        carry = tuple(carry) if carry is not None else None
        solver = self._playout_solver
        if solver is None or (solver.side, solver.seat, solver.carry) != (side, view.seat, carry):
            solver = self._playout_solver = Solver(side, view.seat, carry)
        return solver

    def choose(self, view: SeatView) -> Action:
        legal = view.legal_actions
        self.last_exact = False
        if len(legal) == 1:
            return legal[0]
        action = tute_action(legal)
        if action is not None:
            return action
        if self.endgame:
            world = self.exact_world(view)
            if world is not None:
                self.last_exact = True
                _value, best = self.endgame_solver(view).solve(world)
                if best in legal:
                    return best  # type: ignore[return-value]
                self.last_exact = False
        for pick in (tute_action, exchange_action, sing_action):
            action = pick(legal)
            if action is not None:
                return action
        if legal[0].kind == "capote":
            return Action.capote(view.seat, capote_is_sure(Knowledge(view)))  # type: ignore[arg-type]
        try:
            return self.search(view, list(legal))
        except NoWorld:
            return self.fallback.choose(view)

    def search(self, view: SeatView, candidates: list[Action]) -> Action:
        """The candidate with the best mean playout value over sampled worlds.

        With a ``trust`` above zero the heuristic robot's choice stands unless another
        candidate beats it on the same worlds by more than ``trust`` standard errors of
        the mean difference: the search corrects the club player where it is sure.
        """
        values = self.playout_values(view, candidates)
        k = len(candidates)
        means = [sum(v) / len(v) for v in values]
        best = max(range(k), key=lambda i: (means[i], -i))
        if self.trust <= 0:
            return candidates[best]
        prior = candidates.index(self.fallback.choose(view))
        if best == prior or _lead(values[best], values[prior]) > self.trust:
            return candidates[best]
        return candidates[prior]

    def evaluate(self, view: SeatView, candidates: list[Action]) -> tuple[list[float], bool]:
        """The expected deal result of each candidate for the seat's side (the scale of
        :func:`playout_value`), and whether it is exact: in a 2-player endgame with the
        stock empty every candidate is solved exactly, else it is the mean over sampled
        worlds. Raises :class:`NoWorld` when no world fits the view."""
        values, exact, _ = self.evaluate_samples(view, candidates)
        return values, exact

    def evaluate_samples(
        self, view: SeatView, candidates: list[Action]
    ) -> tuple[list[float], bool, list[list[float]] | None]:
        """:meth:`evaluate`, with each candidate's playout values on the same worlds (None
        when solved exactly), for a caller that weighs the sampling noise."""
        if self.endgame:
            world = self.exact_world(view)
            if world is not None:
                return self.endgame_solver(view).values(world, candidates), True, None
        lines, owners = self.lines(view, candidates)
        samples = self.playout_values(view, lines)
        means = [sum(v) / len(v) for v in samples]
        best: list[list[float] | None] = [None] * len(candidates)
        top = [-math.inf] * len(candidates)
        for line, owner in enumerate(owners):
            if means[line] > top[owner]:
                top[owner], best[owner] = means[line], samples[line]
        return top, False, best  # type: ignore[return-value]

    def lines(
        self, view: SeatView, candidates: list[Action]
    ) -> tuple[list[tuple[Action, ...]], list[int]]:
        """What each candidate is judged by: a card alone, but a cante or an exchange leaves
        the same seat to act again, so it is judged by its best follow-up (the best mean on
        the same worlds). Judged with the playouts' own card after it, a cante taken now
        could look worse than a card that keeps it for later, which it never is: the pair
        would be played by a different rule. The lines, and which candidate each belongs to.
        """
        alone = ([(action,) for action in candidates], list(range(len(candidates))))
        if not any(action.kind in FOLLOWED for action in candidates):
            return alone  # cards or bids: no world needs dealing to list them
        try:
            world = self.sampler(view).sample(self.rng)
        except NoWorld:
            return alone
        lines: list[tuple[Action, ...]] = []
        owners: list[int] = []
        for i, action in enumerate(candidates):
            for line in _follow_ups(world, (action,)):
                lines.append(line)
                owners.append(i)
        return lines, owners

    def sampler(self, view: SeatView) -> WorldSampler:
        """What deals the worlds of a decision: every card hidden from the seat, at random."""
        return WorldSampler(view)

    def playout_values(
        self, view: SeatView, candidates: list[Action] | list[tuple[Action, ...]]
    ) -> list[list[float]]:
        """Each candidate's playout values, on the same sampled worlds, within the budget.
        A candidate is an action, or a line of the seat's actions taken one after the other
        (:meth:`lines`)."""
        lines = [c if isinstance(c, tuple) else (c,) for c in candidates]
        start = time.perf_counter()
        sampler = self.sampler(view)
        deadline = None if self.budget_ms is None else start + self.budget_ms / 1000.0
        limit = self.iterations
        k = len(candidates)
        values: list[list[float]] = [[] for _ in range(k)]
        playouts = 0  # playouts counted in ``values``
        rng = self.rng
        setup = _Setup(view, smart=self.playout == "smart")
        exact = EXACT_CARDS.get(view.players, 0) if self.exact_cards is None else self.exact_cards
        if exact:
            setup.solver = self.playout_solver(view, setup.carry)
            setup.exact = exact
        clock = time.perf_counter
        while True:
            world = sampler.sample(rng)
            for i, line in enumerate(lines):
                if deadline is not None and values[-1] and clock() >= deadline:
                    # Out of time halfway through a world: drop its playouts, so that
                    # every candidate is judged on the same worlds.
                    for done in values[:i]:
                        done.pop()
                    playouts -= i
                    break
                game = world.clone()
                for action in line:
                    game.apply(action)
                values[i].append(self._playout(game, setup, line))
                playouts += 1
            else:
                if limit is not None and playouts >= limit:
                    break
                if deadline is None or clock() < deadline:
                    worlds = len(values[0])
                    if worlds % SURE_AFTER == 0 and _decided(values, self.sure_lead):
                        break
                    continue
            break
        self.last_playouts = playouts
        return values

    def _playout(self, game: GameState, setup: _Setup, line: tuple[Action, ...]) -> float:
        state = _Playout(setup, line)
        rng = self.rng
        greedy = self.playout != "random"
        eps = self.epsilon
        solver = setup.solver
        exact = setup.exact
        while True:
            if solver is not None and self.core_playouts and covers(game):
                # Nothing left to draw: the rest is played on the search core (the same
                # choices, the same random draws, the engine's rules: test_strong.py).
                return self._core_playout(game, setup, state)
            if (
                solver is not None
                and not state.trick
                and not game.stock_left
                and sum(map(len, game.hands)) <= exact
            ):
                return solver.solve(game)[0]  # the tricks left, double-dummy
            if state.trick:
                # Mid-trick nobody but the seat on turn may act (the first card closed
                # any cante moment), so skip building every seat's actions.
                seat = game.to_move
                actions = game.legal_actions_for(seat)  # type: ignore[arg-type]
            else:
                legal = game.legal_actions()
                if not legal:
                    break
                turn = game.to_move
                seat = turn
                for s in legal:
                    if s != turn:
                        seat = s  # a partner's cante moment comes before the next card
                        break
                actions = legal[seat]
            if len(actions) == 1:
                action = actions[0]
            elif not greedy or (eps and rng.random() < eps):
                action = actions[rng.randrange(len(actions))]
            else:
                action = greedy_action(actions, seat, state)
            game.apply(action)
            done = state.after(action, game)
            if done is not None:
                return done
        return playout_value(game, setup)

    def _core_playout(self, game: GameState, setup: _Setup, state: _Playout) -> float:
        """:meth:`_playout` from a position the core holds, on the solver's own core: the
        tail of :data:`EXACT_CARDS` cards is then solved on it without a copy."""
        core, search = setup.solver._load(game)  # type: ignore[union-attr]
        rng = self.rng
        greedy = self.playout != "random"
        eps = self.epsilon
        exact = setup.exact
        hands = core.hands
        while core.phase != DONE:
            if not core.trick and sum(h.bit_count() for h in hands) <= exact:
                search.reset()
                return search.position(-1e9, 1e9)  # the tricks left, double-dummy
            seat: int = core.turn if core.trick else core.acting()  # type: ignore[assignment]
            codes = core.legal(seat)
            if len(codes) == 1:
                code = codes[0]
            elif not greedy or (eps and rng.random() < eps):
                code = codes[rng.randrange(len(codes))]
            else:
                code = greedy_code(codes, seat, state)
            core.make(seat, code)
            done = state.after_code(seat, code, core.points)
            if done is not None:
                return done
        return core.value(setup.side, setup.seat, MARGIN_WEIGHT)


def _follow_ups(world: GameState, line: tuple[Action, ...]) -> list[tuple[Action, ...]]:
    """``line`` and the same seat's next actions after it, while it alone may act next (a
    cante or an exchange, then its card); the seat's actions are read off one world, since
    they depend on its own hand and the table only."""
    seat = line[-1].seat
    if line[-1].kind not in FOLLOWED:
        return [line]
    game = world.clone()
    for action in line:
        game.apply(action)
    legal = game.legal_actions()
    if set(legal) != {seat}:
        return [line]
    return [more for nxt in legal[seat] for more in _follow_ups(world, (*line, nxt))]


def _lead(ahead: list[float], behind: list[float]) -> float:
    """How many standard errors the mean of ``ahead`` exceeds ``behind`` by, on the same
    worlds (paired differences); infinite when every world agrees."""
    diffs = [a - b for a, b in zip(ahead, behind, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    if var == 0:
        return math.inf if mean > 0 else 0.0
    return mean / math.sqrt(var / n)


def _decided(values: list[list[float]], sure_lead: float = SURE_LEAD) -> bool:
    """Whether the best candidate leads every other by ``sure_lead`` standard errors
    (:data:`SURE_LEAD`; or the playouts cannot tell them apart at all): more worlds would
    not change it. An infinite ``sure_lead`` never stops early."""
    if math.isinf(sure_lead):
        return False
    means = [sum(v) / len(v) for v in values]
    best = max(range(len(values)), key=lambda i: (means[i], -i))
    for i, other in enumerate(values):
        if i != best and other != values[best] and _lead(values[best], other) < sure_lead:
            return False
    return True


class _Setup:
    """What every playout of one decision shares, read from the view."""

    __slots__ = (
        "bids",
        "capote",
        "carry",
        "exact",
        "gone",
        "n",
        "pocha",
        "seat",
        "side",
        "sides",
        "smart",
        "solver",
        "sung",
        "trick",
        "tricks_won",
        "trump",
    )

    def __init__(self, view: SeatView, smart: bool = True) -> None:
        self.solver: Solver | None = None
        self.exact = 0
        self.seat = view.seat
        self.n = view.players
        self.sides = view.sides
        self.side = view.sides[view.seat]  # type: ignore[index]
        self.trump = SUITS.index(view.trump_suit)  # type: ignore[arg-type]
        self.trick = [(s, c.index) for s, c in view.trick]
        self.pocha = view.options.rules.bids
        self.bids = list(view.bids) if view.bids is not None else None
        self.tricks_won = list(view.tricks_won)
        self.carry = view.carry
        self.capote = view.capote is not None
        self.gone = sum(1 << c.index for t in (*view.tricks, view.trick) for _, c in t)
        self.sung = {SUITS.index(u) for _, u, _ in view.cantes}
        self.smart = smart


class _Playout:
    """One playout's running facts the greedy rule needs: the trick on the table, tricks
    taken and bids (pocha), and habanero's mano de vuelta, whose "first over 100 wins"
    this module checks itself (the world starts a fresh game without carried points)."""

    __slots__ = ("bids", "capote", "gone", "setup", "sung", "trick", "tricks_won")

    def __init__(self, setup: _Setup, line: tuple[Action, ...]) -> None:
        self.setup = setup
        self.trick = setup.trick[:]
        self.tricks_won = setup.tricks_won[:]
        self.bids = setup.bids[:] if setup.bids is not None else None
        self.capote = setup.capote
        self.gone = setup.gone
        self.sung = set(setup.sung)
        for action in line:
            self.after_first(action)

    def after_first(self, action: Action) -> None:
        if action.kind == "play":
            self._played(action.seat, action.value.index)
        elif action.kind == "bid" and self.bids is not None:
            self.bids[action.seat] = action.value
        elif action.kind == "capote" and action.value:
            self.capote = True
        elif action.kind == "sing":
            self.sung.add(SUITS.index(action.value))

    def _played(self, seat: int, card: int) -> None:
        self.gone |= 1 << card
        trick = self.trick
        trick.append((seat, card))
        if len(trick) == self.setup.n:
            winner = trick_winner(trick, self.setup.trump)[0]
            self.tricks_won[winner] += 1
            self.trick = []

    def after(self, action: Action, game: GameState) -> float | None:
        """Track ``action`` (already applied); a value when it ended a mano de vuelta."""
        kind = action.kind
        if kind == "play":
            self._played(action.seat, action.value.index)
        elif kind == "bid":
            self.bids[action.seat] = action.value  # type: ignore[index]
        elif kind == "capote":
            if action.value:
                self.capote = True
            return None
        elif kind == "sing":
            self.sung.add(SUITS.index(action.value))
        else:
            return None
        carry = self.setup.carry
        if carry is None or self.capote:
            return None
        points = game.points
        for side in range(len(carry)):
            if carry[side] + points[side] > HABANERO_OVER:
                # The first over 100 with the carried points wins the deal at once (§8).
                won = 1.0 if side == self.setup.side else 0.0
                return won + MARGIN_WEIGHT * _margin(points, self.setup.side)
        return None

    def after_code(self, seat: int, code: int, points: list[int]) -> float | None:
        """:meth:`after` for a core's action code, ``points`` being the core's."""
        if code < 40:
            self._played(seat, code)
        elif code < TUTE_11:
            self.sung.add(code - SING)
        elif code >= CAPOTE_NO:
            if code == CAPOTE_YES:
                self.capote = True
            return None
        else:
            return None
        carry = self.setup.carry
        if carry is None or self.capote:
            return None
        for side in range(len(carry)):
            if carry[side] + points[side] > HABANERO_OVER:
                won = 1.0 if side == self.setup.side else 0.0
                return won + MARGIN_WEIGHT * _margin(points, self.setup.side)
        return None


def _margin(points: Any, side: int) -> float:
    others = [p for s, p in enumerate(points) if s != side]
    return (points[side] - max(others)) / DEAL_POINTS


def playout_value(game: GameState, setup: _Setup) -> float:
    """What the finished deal is worth to the robot's side, about 0 to 1."""
    if setup.pocha:
        scores = game.hand_scores or [0] * setup.n
        mine = scores[setup.seat]
        others = [s for i, s in enumerate(scores) if i != setup.seat]
        return 0.5 + (mine - sum(others) / len(others)) / POCHA_SCALE
    winner = game.deal_winner
    # No winner: habanero's nobody over 100, a mano de vuelta follows.
    won = 0.5 if winner is None else 1.0 if winner == setup.side else 0.0
    return won + MARGIN_WEIGHT * _margin(game.points, setup.side)


# ---------------------------------------------------------------------- the greedy playout


def greedy_action(actions: list[Action], seat: int, state: _Playout) -> Action:
    """A fast club-player rule for any seat of a playout (it sees the whole world, but
    reads only its own legal actions and the trick on the table)."""
    first = actions[0]
    kind = first.kind
    if kind != "play":
        if kind == "bid":
            return actions[min(len(actions) - 1, _bid_estimate(actions, state))]
        if kind == "capote":
            return actions[0]  # decline: a playout never gambles on capote
        for pick in (tute_action, exchange_action, sing_action):
            action = pick(actions)  # type: ignore[arg-type]
            if action is not None:
                return action
    plays = [a for a in actions if a.kind == "play"]
    if len(plays) == 1:
        return plays[0]
    pick = smart_card if state.setup.smart else greedy_card
    card = pick([a.value.index for a in plays], seat, state)
    return next(a for a in plays if a.value.index == card)


def greedy_code(codes: list[int], seat: int, state: _Playout) -> int:
    """:func:`greedy_action` on the core's action codes (the same order as the engine's)."""
    first = codes[0]
    if first >= 40:
        if first >= CAPOTE_NO:
            return first  # decline: a playout never gambles on capote
        for low, high in ((TUTE_11, TUTE_12), (SING, SING + 3)):
            pick = next((c for c in codes if low <= c <= high), None)
            if pick is not None:
                return pick
    plays = [c for c in codes if c < 40]
    if len(plays) == 1:
        return plays[0]
    pick_card = smart_card if state.setup.smart else greedy_card
    return pick_card(plays, seat, state)


def _bid_estimate(actions: list[Action], state: _Playout) -> int:
    """Rough pocha bid for a playout seat: high trumps and aces."""
    return 0 if not actions else min(len(actions) - 1, max(0, (len(actions) - 1) // 3))


def greedy_card(cards: list[int], seat: int, state: _Playout) -> int:
    setup = state.setup
    trump = setup.trump
    trick = state.trick
    if setup.pocha:
        return _pocha_card(cards, seat, state)
    if not trick:
        # Lead the cheapest card outside trump: keep trumps and points for later.
        return min(cards, key=lambda c: (SUIT_OF[c] == trump, POINTS_OF[c], -c))
    win_seat, win_card = trick_winner(trick, trump)
    last = len(trick) == setup.n - 1
    sides = setup.sides
    if sides[win_seat] == sides[seat] and (last or _strong(win_card, trump)):
        # Partner winning: feed it points, keeping trumps.
        return max(cards, key=lambda c: (SUIT_OF[c] != trump, POINTS_OF[c], c))
    winners = [c for c in cards if beats(c, win_card, trump)]
    if winners and sides[win_seat] != sides[seat]:
        stake = sum(POINTS_OF[c] for _, c in trick)
        cheapest = min(winners, key=lambda c: (SUIT_OF[c] == trump, -c))
        if last or stake + POINTS_OF[cheapest] >= STAKE_TO_WIN or SUIT_OF[cheapest] != trump:
            return cheapest
    return min(cards, key=lambda c: (POINTS_OF[c], SUIT_OF[c] == trump, -c))


def _strong(card: int, trump: int) -> bool:
    """An as or three, or any trump: a partner's card likely to hold the trick."""
    return SUIT_OF[card] == trump or card % 10 <= 1


def _pocha_card(cards: list[int], seat: int, state: _Playout) -> int:
    setup = state.setup
    trump = setup.trump
    bids = state.bids or [0] * setup.n
    need = (bids[seat] or 0) - state.tricks_won[seat]
    trick = state.trick
    if not trick:
        if need > 0:
            return min(cards, key=lambda c: (SUIT_OF[c] != trump, c % 10))  # strongest
        return min(cards, key=lambda c: (SUIT_OF[c] == trump, -(c % 10)))  # weakest
    _, win_card = trick_winner(trick, trump)
    winners = [c for c in cards if beats(c, win_card, trump)]
    losers = [c for c in cards if c not in winners]
    if need > 0 and winners:
        return min(winners, key=lambda c: (SUIT_OF[c] == trump, -c))
    if need <= 0 and losers:
        return min(losers, key=lambda c: (SUIT_OF[c] != trump, c % 10))  # shed the highest
    return min(cards, key=lambda c: (SUIT_OF[c] == trump, -(c % 10)))


def _is_master(card: int, hand_mask: int, gone: int) -> bool:
    """No stronger card of its suit is still out (played, or in the same hand)."""
    stronger = (1 << card) - (1 << (card - card % 10))
    return not stronger & ~(gone | hand_mask)


def _pair_card(card: int, hand_mask: int, sung: set[int]) -> bool:
    """A rey or caballo whose partner card is in the same hand, its suit unsung."""
    suit, place = divmod(card, 10)
    if place not in (2, 3) or suit in sung:
        return False
    return bool(hand_mask >> (card ^ 1) & 1)  # rey 2 <-> caballo 3


def smart_card(cards: list[int], seat: int, state: _Playout) -> int:
    """The greedy rule with a memory of the cards gone: lead masters worth points, draw
    trumps with the top trump when long in them, keep rey and caballo pairs for a cante."""
    setup = state.setup
    if setup.pocha:
        return _pocha_card(cards, seat, state)
    trump = setup.trump
    trick = state.trick
    gone = state.gone
    sung = state.sung
    mask = 0
    for c in cards:
        mask |= 1 << c

    def spare(c: int) -> tuple[bool, int, bool, int]:
        # Cheapest to give away: no pair card, fewest points, no trump, weakest.
        return (_pair_card(c, mask, sung), POINTS_OF[c], SUIT_OF[c] == trump, -c)

    if not trick:
        masters = [
            c
            for c in cards
            if SUIT_OF[c] != trump and POINTS_OF[c] >= 10 and _is_master(c, mask, gone)
        ]
        if masters:
            return min(masters)
        trumps = [c for c in cards if SUIT_OF[c] == trump]
        if len(trumps) >= 3 and _is_master(trumps[0], mask, gone):
            out = sum(1 for c in range(trump * 10, trump * 10 + 10) if not (gone | mask) >> c & 1)
            if out:
                return trumps[0]
        return min(cards, key=spare)
    win_seat, win_card = trick_winner(trick, trump)
    last = len(trick) == setup.n - 1
    sides = setup.sides
    if sides[win_seat] == sides[seat]:
        if last or _is_master(win_card, 0, gone) or SUIT_OF[win_card] == trump:
            # Partner holds the trick: feed it points, keeping trumps and pairs.
            return max(
                cards,
                key=lambda c: (SUIT_OF[c] != trump, not _pair_card(c, mask, sung), POINTS_OF[c], c),
            )
        return min(cards, key=spare)
    winners = [c for c in cards if beats(c, win_card, trump)]
    if winners:
        stake = sum(POINTS_OF[c] for _, c in trick)
        cheapest = min(winners, key=lambda c: (SUIT_OF[c] == trump, _pair_card(c, mask, sung), -c))
        safe = last or _is_master(cheapest, mask, gone)
        if SUIT_OF[cheapest] != trump:
            if safe or stake + POINTS_OF[cheapest] >= STAKE_TO_WIN:
                return cheapest
        elif last or stake >= STAKE_TO_WIN:
            return cheapest
    return min(cards, key=spare)
