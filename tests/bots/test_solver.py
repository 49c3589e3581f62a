"""The exact endgame solver: the value brute force finds, reached when both sides follow it,
and only legal actions (the duties of §5), and the strong robot playing it from the empty
stock."""

from __future__ import annotations

import doctest
import importlib
import random

import pytest

from games.bots import StrongBot
from games.bots.base import seat_to_act
from games.bots.solver import Solver, deal_value
from games.engine import GameState, new_game
from games.engine.cards import SUIT_OF


def _brute(state: GameState, side: int, carry: tuple[int, ...] | None = None) -> float:
    """Plain minimax over every legal action, no table and no cut: the test's oracle. The
    mano de vuelta's first over 100 is checked here on its own."""
    if state.deal_over:
        return deal_value(state, side)
    if carry is not None and state.capote_seat is None:
        points = state.points
        over = [s for s in range(2) if carry[s] + points[s] > 100]
        if over:
            return deal_value(state, side, carry_winner=over[0])
    seat = seat_to_act(state)
    values = []
    for action in state.legal_actions_for(seat):
        child = state.clone()
        child.apply(action)
        values.append(_brute(child, side, carry))
    return max(values) if state.side_of[seat] == side else min(values)


def _position(options: dict, seed: int, cards_left: int) -> GameState:
    """A deal played at random until the stock is empty and ``cards_left`` cards are in
    hand, at the start of a trick."""
    rng = random.Random(seed)
    while True:
        state = new_game(options, rng, first_dealer=0)
        while not state.deal_over and (
            state.stock_left or sum(map(len, state.hands)) > cards_left or state.trick
        ):
            seat = seat_to_act(state)
            state.apply(rng.choice(state.legal_actions_for(seat)))
        if not state.deal_over:
            return state


TABLES = [
    ({"variant": "habanero"}, 6),
    ({"variant": "tute", "players": 2}, 6),
    ({"variant": "tute", "players": 4, "pairs": True}, 8),
    ({"variant": "tute", "players": 3}, 6),
]


@pytest.mark.parametrize(("options", "cards"), TABLES, ids=lambda v: str(v))
def test_solver_finds_the_brute_force_value(options: dict, cards: int) -> None:
    for seed in range(6):
        state = _position(options, seed, cards)
        for side in range(state.rules.sides):
            value, best = Solver(side).solve(state)
            assert value == pytest.approx(_brute(state, side))
            assert best in state.legal_actions_for(seat_to_act(state))


def test_a_perfect_information_habanero_endgame_is_solved_to_the_brute_force_value() -> None:
    """From the moment the stock empties, capote decision included: the whole endgame."""
    rng = random.Random(11)
    checked = 0
    for seed in range(40):
        state = new_game({"variant": "habanero"}, random.Random(seed), first_dealer=0)
        while not state.deal_over and state.stock_left:
            state.apply(rng.choice(state.legal_actions_for(seat_to_act(state))))
        if state.deal_over or state.phase != "capote":
            continue
        # Play two tricks of it at random so the brute force stays quick, then solve the
        # capote decision's position from scratch as well as the rest.
        _, capote_best = Solver(0).solve(state)
        assert capote_best.kind == "capote"
        assert capote_best in state.legal_actions_for(state.to_move)
        state.apply(capote_best)
        while not state.deal_over and (sum(map(len, state.hands)) > 10 or state.trick):
            state.apply(rng.choice(state.legal_actions_for(seat_to_act(state))))
        if state.deal_over:
            continue
        for side in (0, 1):
            assert Solver(side).solve(state)[0] == pytest.approx(_brute(state, side))
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_the_mano_de_vuelta_first_over_100_is_counted() -> None:
    state = _position({"variant": "habanero"}, 3, 6)
    for carry in ((95, 20), (20, 95), (60, 60)):
        for side in (0, 1):
            solved = Solver(side, carry=carry).solve(state)[0]
            assert solved == pytest.approx(_brute(state, side, carry))
    # Someone 99 points up before a trick: the first trick with points decides the deal.
    leader = state.to_move
    carry = (100, 0) if leader == 0 else (0, 100)
    assert Solver(leader, carry=carry).solve(state)[0] >= 0.5


@pytest.mark.parametrize(("options", "cards"), TABLES, ids=lambda v: str(v))
def test_both_sides_following_the_solver_reach_its_value(options: dict, cards: int) -> None:
    for seed in range(4):
        state = _position(options, 100 + seed, cards + 4)
        value, _ = Solver(0).solve(state)
        solvers = {side: Solver(side) for side in range(state.rules.sides)}
        while not state.deal_over:
            seat = seat_to_act(state)
            legal = state.legal_actions_for(seat)
            _, best = solvers[state.side_of[seat]].solve(state)
            # Every choice is one of the engine's legal actions: the duties of §5 hold.
            assert best in legal
            state.apply(best)
        if state.rules.sides == 2:
            assert deal_value(state, 0) == pytest.approx(value)
        else:
            # Paranoid for side 0: the others playing their own best can only do it less harm.
            assert deal_value(state, 0) >= value - 1e-9


def _follows_section_5(card: int, hand: list[int], led: int, trump: int) -> bool:
    """RULES.md §5 for the second card of a trick, written out on its own for the test:
    follow and beat, else follow, else trump, else anything (no duty to under-trump)."""
    suit = SUIT_OF[card]
    same = [c for c in hand if SUIT_OF[c] == SUIT_OF[led]]
    higher = [c for c in same if c < led]  # a lower place is a stronger card
    if higher:
        return card in higher
    if same:
        return suit == SUIT_OF[led]
    if any(SUIT_OF[c] == trump for c in hand):
        return suit == trump
    return True


def test_the_solver_never_breaks_a_duty_of_section_5() -> None:
    """In the arrastre the second player owes the full duties: every card the solver picks
    for them, and every card it searches, keeps them."""
    checked = 0
    for seed in range(30):
        state = _position({"variant": "tute", "players": 2}, 200 + seed, 10)
        solver = Solver(0)
        while not state.deal_over:
            seat = seat_to_act(state)
            legal = state.legal_actions_for(seat)
            _, best = solver.solve(state)
            assert best in legal
            if state.trick and best.kind == "play":
                hand = state.hands[seat]
                led = state.trick[0]
                assert _follows_section_5(best.value.index, hand, led, state.trump)
                for action in legal:
                    assert _follows_section_5(action.value.index, hand, led, state.trump)
                checked += 1
            state.apply(best)
    assert checked > 50


def test_the_strong_robot_plays_the_endgame_perfectly_from_the_empty_stock() -> None:
    for seed in range(4):
        state = new_game({"variant": "habanero"}, random.Random(seed), first_dealer=0)
        rng = random.Random(seed)
        while state.stock_left and not state.deal_over:
            state.apply(rng.choice(state.legal_actions_for(seat_to_act(state))))
        if state.deal_over:
            continue
        bot = StrongBot(random.Random(1), budget_ms=None, iterations=10)
        seat = seat_to_act(state)
        view = state.view(seat)
        choice = bot.choose(view)
        assert bot.last_exact
        oracle = Solver(state.side_of[seat])
        values = oracle.values(state, list(view.legal_actions))
        chosen = values[list(view.legal_actions).index(choice)]
        assert chosen == pytest.approx(max(values))


@pytest.mark.parametrize("name", ["games.bots.solver", "games.bots.analysis"])
def test_docstring_examples_run(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
