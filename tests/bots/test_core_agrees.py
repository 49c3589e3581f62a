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
    cards_of,
    covers,
    from_action,
    legal_plays,
    to_action,
)
from games.bots.engine_solver import EngineSolver, deal_value
from games.bots.solver import Solver
from games.engine import GameState, IllegalAction
from games.engine.cards import SUIT_OF
from tests.support.core import CONFIGS, check_trick_winner, walk
from tests.support.threshold_events import event_id, first_event

PHASES = {"play": 0, "capote": 1, "done": DONE}


def core_snapshot(core: Core) -> dict[str, Any]:
    """Every fact of the core as plain data."""
    return {
        "hands": list(core.hands),
        "trick": list(core.trick),
        "turn": core.turn if core.phase == PHASES["play"] else None,
        "to_move": core.to_move(),
        "points": list(core.points),
        "tricks_won": list(core.tricks_won),
        "sung": core.sung,
        "sang": core.sang,
        "moment": tuple(core.moment),
        "phase": core.phase,
        "capote_seat": core.capote_seat,
        "capote_made": core.capote_made,
        "winner": core.winner,
        "last_trick": core.last_trick,
        "hand_scores": None if core.hand_scores is None else list(core.hand_scores),
        "tute": core.tute,
    }


def engine_snapshot(state: GameState) -> dict[str, Any]:
    """The facts :func:`core_snapshot` gives, read from the engine."""
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


def check_replies(state: GameState, refusals: bool = True) -> None:
    """§5 in every position, stock or not: the core's legal replies are the engine's, and
    (with ``refusals``) the engine accepts exactly those cards."""
    if state.phase != "play":
        return
    seat = state.turn
    trick = state.trick
    led = SUIT_OF[trick[0]] if trick else -1
    win = state.win_card if trick else -1
    rules = state.rules
    mask = legal_plays(state.masks[seat], led, win, state.trump, rules.stock_play, state.stock_left)
    listed = {a.value.index for a in state.legal_actions_for(seat) if a.kind == "play"}
    assert set(cards_of(mask)) == listed
    if not refusals:
        return
    for card in range(40):
        assert accepted(state, seat, card) == bool(mask >> card & 1), card


def check_lists_and_refusals(state: GameState, core: Core, refusals: bool = True) -> None:
    assert core_snapshot(core) == engine_snapshot(state)
    for seat in range(state.n):
        assert [to_action(seat, c) for c in core.legal(seat)] == state.legal_actions_for(seat)
        if not refusals:
            continue
        for code in range(ACTIONS):
            assert core.accepts(seat, code) == accepted(state, seat, code), (seat, code)


def play_out_on_both(state: GameState, core: Core, rng: random.Random) -> None:
    """Random actions to the deal's end, on the engine and on the core, compared throughout;
    then the core takes them all back."""
    start = core_snapshot(core)
    engine = state.clone()
    made = 0
    while core.phase != DONE:
        seat = seat_to_act(engine)
        assert core.acting() == seat
        moves = [(s, a) for s, acts in engine.legal_actions().items() for a in acts]
        others = [m for m in moves if m[1].kind != "play"]
        s, action = rng.choice(others if others and rng.random() < 0.5 else moves)
        before = engine.clone()
        engine.apply(action)
        core.make(s, from_action(action))
        made += 1
        check_trick_winner(before, engine)
        assert core_snapshot(core) == engine_snapshot(engine)
    assert engine.deal_over
    rules = engine.rules
    for side in range(rules.sides):
        seat = side if rules.bids else None
        assert core.value(side, seat) == pytest.approx(deal_value(engine, side, seat))
    for _ in range(made):
        core.unmake()
    assert core_snapshot(core) == start
    assert core.stack == []


@settings(max_examples=150, deadline=None)
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 2**32 - 1),
    bias=st.sampled_from([0, 1, 2]),
    steps=st.integers(0, 150),
)
def test_the_core_lists_accepts_and_plays_what_the_engine_does(
    config: dict[str, Any], seed: int, bias: int, steps: int
) -> None:
    rng = random.Random(seed)
    positions = walk(config, seed, bias, steps)
    # Cheap checks everywhere; what copies the engine 48 times a seat, at a few positions.
    sampled = {id(s) for s in rng.sample(positions, min(4, len(positions)))}
    held = []
    for state in positions:
        check_replies(state, refusals=id(state) in sampled)
        if covers(state):
            check_lists_and_refusals(state, Core.from_state(state), id(state) in sampled)
            held.append(state)
    for state in rng.sample(held, min(3, len(held))):
        play_out_on_both(state, Core.from_state(state), rng)


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


# ---------------------------------------------------------------------- habanero's 100

# The moments of tests/support/threshold_events.py that come in positions the core holds.
HELD_EVENTS = [("carry-trick", 100, 750), ("no-carry-last-trick", 100, 33)]
HELD_EVENTS += [("no-carry-last-trick", 101, 263)]


@pytest.mark.parametrize("event", HELD_EVENTS, ids=event_id)
def test_the_core_decides_as_the_engine_at_100_and_101(event: tuple[str, int, int]) -> None:
    kind, total, seed = event
    found = first_event(seed, kind, total, covers)
    core = Core.from_state(found.before)
    core.make(found.action.seat, from_action(found.action))
    assert core_snapshot(core) == engine_snapshot(found.after)


def with_carry(state: GameState, carry: list[int]) -> GameState:
    """A copy of a habanero deal as if it were a mano de vuelta carrying ``carry``. The
    engine sets its carried points only when a deal starts after one nobody won, so the test
    writes the private field: what follows is the engine's own rules with that carry."""
    copy = state.clone()
    copy._carry = list(carry)
    return copy


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(26, 60),
    below=st.tuples(*[st.sampled_from([0, 1, 2, 5, 10, 19, 20, 21, 39, 40, 41])] * 2),
)
def test_the_core_ends_a_mano_de_vuelta_as_the_engine_on_each_side_of_100(
    seed: int, steps: int, below: tuple[int, int]
) -> None:
    """Arrastre positions of habanero given carried points that leave each player ``below``
    points short of 100 (0: exactly 100, so that the next point wins)."""
    positions = [s for s in walk(CONFIGS[7], seed, seed % 3, steps) if covers(s)]
    if not positions:
        return
    state = positions[-1]
    if state.carry is not None:
        return
    carry = [max(0, 100 - below[s] - state.points[s]) for s in range(2)]
    if any(carry[s] + state.points[s] > 100 for s in range(2)):
        return
    state = with_carry(state, carry)
    core = Core.from_state(state)
    assert core.carry == tuple(carry)
    check_lists_and_refusals(state, core)
    play_out_on_both(state, core, random.Random(seed))
    if sum(map(len, state.hands)) <= 10:
        for side in (0, 1):
            assert Solver(side).solve(state)[0] == pytest.approx(EngineSolver(side).solve(state)[0])


@pytest.mark.parametrize(("config", "seed"), [(CONFIGS[4], 11), (CONFIGS[7], 32)])
def test_no_tute_after_a_cante_of_ones_own_in_the_core_either(
    config: dict[str, Any], seed: int
) -> None:
    """A player who sang and holds a tute, in a later moment to sing: a rare position the
    random walks above seldom reach, found in these seeds."""
    from games.engine.rulebook import tute_ranks

    for state in walk(config, seed, 2, 150):
        if not covers(state):
            continue
        for seat in state.moment:
            if state.sang[seat] and tute_ranks(state.masks[seat]):
                core = Core.from_state(state)
                assert not [a for a in state.legal_actions_for(seat) if a.kind == "tute"]
                check_lists_and_refusals(state, core)
                return
    raise AssertionError("no such position in this seed")


@pytest.mark.parametrize("total", [100, 101])
def test_a_cante_reaching_100_or_101_with_carried_points_in_the_core(total: int) -> None:
    """A cante in the arrastre of a mano de vuelta that brings its singer to exactly 100
    (the deal goes on) or 101 (the singer wins it at once), on the engine and the core."""
    checked = 0
    for seed in range(200):
        for state in walk(CONFIGS[7], seed, 1, 80):
            if not covers(state) or state.carry is not None or state.capote_seat is not None:
                continue
            sings = [
                (seat, a)
                for seat, acts in state.legal_actions().items()
                for a in acts
                if a.kind == "sing"
            ]
            if not sings:
                continue
            seat, sing = sings[0]
            value = 40 if sing.value == "OCEB"[state.trump] else 20
            carry = [0, 0]
            carry[seat] = total - value - state.points[seat]
            if carry[seat] < 0 or state.points[1 - seat] > 100:
                continue
            engine = with_carry(state, carry)
            core = Core.from_state(engine)
            engine.apply(sing)
            core.make(seat, from_action(sing))
            assert core_snapshot(core) == engine_snapshot(engine)
            assert (engine.phase == "done") == (total == 101)
            checked += 1
            break
        if checked == 3:
            return
    raise AssertionError(f"only {checked} such cantes in the seeds tried")


@pytest.mark.parametrize("name", ["games.bots.core", "games.bots.engine_solver"])
def test_docstring_examples_run(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
