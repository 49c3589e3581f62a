"""The search core (games/bots/core.py) agrees with the engine on every position it holds.

The core writes again, as bit masks, the rules the robots' search needs; the engine stays
the one source of rules for live play. These property tests are what keeps the two equal.
Hypothesis draws games of every variant (tute for 2 players in each ``stock_play`` mode, 3
players, 4 alone and in pairs, with and without tute; habanero, carried points included;
pocha for 2, 3 and 4 players), dealt by a shuffle that often hands one player reyes and
caballos so that cantes and tutes come up, and played at random. Along each game:

- the legal replies of §5 and the trick's winner are compared in every position, the
  stock's three modes included (the core's :func:`legal_plays` and :func:`beats`);
- where the core holds the position (no card left to draw or exchange, no bid to make:
  all of 3- and 4-player tute, the arrastre and capote decision of 2-player tute and
  habanero, pocha's tricks), for every seat: the list of legal actions, and, for every one
  of the 48 action codes, whether the engine accepts it and the core does;
- from there the deal is played to its end on both, every fact compared after every
  action (hands, trick, turn, points, tricks taken, cantes, the moment to sing, capote,
  the deal's winner, the last trick's 10, pocha's hand scores, tute), the seat the robots'
  driver asks next, and the deal's value; then the core takes every action back and must
  be where it started.

The solver on the core must find the value of the engine-walking solver, too.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots.base import seat_to_act
from games.bots.core import (
    ACTIONS,
    DONE,
    Core,
    beats,
    cards_of,
    covers,
    from_action,
    legal_plays,
    to_action,
)
from games.bots.engine_solver import EngineSolver, deal_value
from games.bots.solver import Solver
from games.engine import GameState, IllegalAction, new_game
from games.engine.cards import SUIT_OF, caballo, rey

CONFIGS = [
    {"variant": "tute", "players": 2, "stock_play": "free"},
    {"variant": "tute", "players": 2, "stock_play": "follow_trump"},
    {"variant": "tute", "players": 2, "stock_play": "strict"},
    {"variant": "tute", "players": 3},
    {"variant": "tute", "players": 4, "pairs": True},
    {"variant": "tute", "players": 4, "pairs": False},
    {"variant": "tute", "players": 4, "pairs": True, "allow_tute": False},
    {"variant": "habanero", "points_to_win": 5},
    {"variant": "habanero", "allow_tute": False, "points_to_win": 5},
    {"variant": "pocha", "players": 2},
    {"variant": "pocha", "players": 3},
    {"variant": "pocha", "players": 4},
]
PHASES = {"play": 0, "capote": 1, "done": DONE}


class RiggedShuffle(random.Random):
    """A seeded shuffle that, with ``bias``, puts reyes and caballos in the first hand dealt:
    1, two rey and caballo pairs; 2, all four reyes or all four caballos (a tute)."""

    def __init__(self, seed: int, bias: int) -> None:
        super().__init__(seed)
        self.bias = bias

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        super().shuffle(x)
        if not self.bias or len(x) < 36:
            return
        if self.bias == 1:
            suits = self.sample(range(4), 2)
            wanted = [c for s in suits for c in (rey(s), caballo(s))]
        else:
            pick = rey if self.random() < 0.5 else caballo
            wanted = [pick(s) for s in range(4)]
        slots = self.sample(range(8), len(wanted))  # the first hand dealt has 8 cards or more
        for slot, card in zip(slots, wanted, strict=True):
            i = x.index(card)
            x[slot], x[i] = x[i], x[slot]


def engine_snapshot(state: GameState) -> dict[str, Any]:
    """The facts :meth:`Core.snapshot` gives, read from the engine."""
    phase = PHASES[state.phase]
    return {
        "hands": state.masks,
        "trick": state.trick,
        "turn": state.turn if phase == 0 else None,
        "to_move": state.to_move,
        "points": state.points,
        "tricks_won": state.tricks_won,
        "sung": state.sung,
        "sang": sum(1 << s for s, sang in enumerate(state.sang) if sang),
        "moment": tuple(state.moment),
        "phase": phase,
        "capote_seat": -1 if state.capote_seat is None else state.capote_seat,
        "capote_made": state.capote_made,
        "winner": state.deal_winner,
        "last_trick": state.last_trick,
        "hand_scores": state.hand_scores,
        "tute": state.tute,
    }


def accepted(state: GameState, seat: int, code: int) -> bool:
    """Whether the engine applies the action (on a copy)."""
    copy = state.clone()
    try:
        copy.apply(to_action(seat, code))
    except IllegalAction:
        return False
    return True


def check_replies(state: GameState) -> None:
    """§5 in every position, stock or not: the core's legal replies are the engine's, and
    the engine accepts exactly those cards."""
    if state.phase != "play":
        return
    seat = state.turn
    trick = state.trick
    led = SUIT_OF[trick[0]] if trick else -1
    win = state.win_card if trick else -1
    rules = state.rules
    mask = legal_plays(
        state.masks[seat], led, win, state.trump, rules.stock_play, state.stock_left
    )
    listed = {a.value.index for a in state.legal_actions_for(seat) if a.kind == "play"}
    assert set(cards_of(mask)) == listed
    for card in range(40):
        assert accepted(state, seat, card) == bool(mask >> card & 1), card


def check_trick_winner(before: GameState, after: GameState) -> None:
    """When a card completed a trick, the core's ``beats`` names the engine's winner."""
    if len(after.tricks) == len(before.tricks):
        return
    leader, cards = after.tricks[-1]
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], after.trump):
            best = i
    winner = (leader + best) % after.n
    assert after.tricks_won[winner] == before.tricks_won[winner] + 1


def check_lists_and_refusals(state: GameState, core: Core) -> None:
    for seat in range(state.n):
        assert [to_action(seat, c) for c in core.legal(seat)] == state.legal_actions_for(seat)
        for code in range(ACTIONS):
            assert core.accepts(seat, code) == accepted(state, seat, code), (seat, code)


def play_out_on_both(state: GameState, core: Core, rng: random.Random) -> None:
    """Random actions to the deal's end, on the engine and on the core, compared throughout;
    then the core takes them all back."""
    start = core.snapshot()
    engine = state.clone()
    made = 0
    while core.phase != DONE:
        seat = seat_to_act(engine)
        assert core.acting() == seat
        moves = [(s, a) for s, acts in engine.legal_actions().items() for a in acts]
        s, action = rng.choice(moves)
        before = engine.clone()
        engine.apply(action)
        core.make(s, from_action(action))
        made += 1
        check_trick_winner(before, engine)
        assert core.snapshot() == engine_snapshot(engine)
    assert engine.deal_over
    rules = engine.rules
    for side in range(rules.sides):
        seat = side if rules.bids else None
        assert core.value(side, seat) == pytest.approx(deal_value(engine, side, seat))
    for _ in range(made):
        core.unmake()
    assert core.snapshot() == start
    assert core.stack == []


def walk(config: dict[str, Any], seed: int, bias: int, steps: int) -> list[GameState]:
    """A game played at random for ``steps`` actions (across deals), and its positions."""
    rng = RiggedShuffle(seed, bias)
    state = new_game(config, rng)
    positions = [state.clone()]
    for _ in range(steps):
        if state.over:
            break
        if state.needs_deal:
            state.deal_next(rng)
        else:
            moves = [(s, a) for s, acts in state.legal_actions().items() for a in acts]
            others = [m for m in moves if m[1].kind not in ("play", "bid")]
            # Announcements now and then on purpose: a random walk would rarely pick one.
            _, action = rng.choice(others if others and rng.random() < 0.3 else moves)
            before = state.clone()
            state.apply(action)
            check_trick_winner(before, state)
        positions.append(state.clone())
    return positions


@settings(max_examples=60, deadline=None)
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 2**32 - 1),
    bias=st.sampled_from([0, 1, 2]),
    steps=st.integers(0, 120),
)
def test_the_core_lists_accepts_and_plays_what_the_engine_does(
    config: dict[str, Any], seed: int, bias: int, steps: int
) -> None:
    rng = random.Random(seed)
    positions = walk(config, seed, bias, steps)
    for state in rng.sample(positions, min(6, len(positions))):
        check_replies(state)
        if not covers(state):
            continue
        core = Core.from_state(state)
        assert core.snapshot() == engine_snapshot(state)
        check_lists_and_refusals(state, core)
        play_out_on_both(state, core, rng)


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(map(str, c.values())))
def test_every_variant_reaches_positions_the_core_holds(config: dict[str, Any]) -> None:
    """The property above is not vacuous: each variant's walk reaches covered positions,
    and the rare rules (tute, capote, a mano de vuelta's carry) come up somewhere."""
    covered = 0
    for seed in range(8):
        for state in walk(config, seed, seed % 3, 90):
            covered += covers(state)
    assert covered > 10


def test_the_rare_rules_come_up_in_the_walks() -> None:
    seen = {"tute": 0, "capote": 0, "carry": 0, "cante": 0}
    for seed in range(60):
        config = CONFIGS[7] if seed % 2 else CONFIGS[4]
        for state in walk(config, seed, 1 + seed % 2, 150)[-1:]:
            for summary in state.deal_summaries():
                seen["tute"] += summary["tute"] is not None
                seen["capote"] += summary["capote"] is not None
                seen["carry"] += summary["carry"] is not None
                seen["cante"] += any(summary["cantes"])
    assert all(seen.values()), seen


@settings(max_examples=40, deadline=None)
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 2**32 - 1),
    bias=st.sampled_from([0, 1, 2]),
)
def test_the_solver_on_the_core_finds_the_engine_walking_solvers_value(
    config: dict[str, Any], seed: int, bias: int
) -> None:
    """The solver's own trick loop (the core's take for the deal's end, its bookkeeping
    inlined otherwise) against the solver that walks the engine's states."""
    rng = random.Random(seed)
    positions = [
        s
        for s in walk(config, seed, bias, 160)
        if covers(s) and sum(map(len, s.hands)) <= (10 if s.n == 2 else 12)
    ]
    if not positions:
        return
    state = rng.choice(positions)
    rules = state.rules
    for side in range(rules.sides):
        seat = side if rules.bids else None
        new = Solver(side, seat)
        value, best = new.solve(state)
        assert value == pytest.approx(EngineSolver(side, seat).solve(state)[0])
        acting = seat_to_act(state)
        assert best in state.legal_actions_for(acting)
        # Every action's value, and the best one's is the position's.
        actions = state.legal_actions_for(acting)
        values = new.values(state, actions)
        assert values == pytest.approx(EngineSolver(side, seat).values(state, actions))
        assert values[actions.index(best)] == pytest.approx(value)

