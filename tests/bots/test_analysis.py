"""The analysis of a finished game: a planted blunder is marked, the robot's own moves are
best, and every decision is scored from its player's own view."""

from __future__ import annotations

import random

from bench.benchmarks.analysis_spread import accuracies
from games.bots import HeuristicBot, StrongBot, seat_to_act
from games.bots.analysis import accuracy_of, analyse_record, mark_for, seat_marks
from games.bots.solver import Solver
from games.engine import new_game

PLAYOUTS = 120


def play_with_planted_blunder(seed: int) -> tuple[dict, int | None]:
    """A single-deal habanero game, the strong robot at seat 0 and the heuristic robot at
    seat 1 (a mano de vuelta may follow), where seat 1 once throws away, in the arrastre,
    the card that costs it most, when that is 30 expected points or more (the solver says
    so): the tricks it would have won go to the other side. The record, and the index of
    the planted action in the first deal (None when no such moment came)."""
    state = new_game({"variant": "habanero", "points_to_win": 1}, random.Random(seed), 0)
    bots = [
        StrongBot(random.Random(f"{seed}:0"), budget_ms=None, iterations=PLAYOUTS),
        HeuristicBot(random.Random(f"{seed}:1")),
    ]
    planted = None
    index = 0
    while not state.over:
        if state.needs_deal:
            state.deal_next(random.Random(f"{seed}:deal{state.deal_index}"))
            continue
        seat = seat_to_act(state)
        legal = state.legal_actions_for(seat)
        action = bots[seat].choose(state.view(seat))
        first_deal = state.deal_index == 0
        if planted is None and first_deal and seat == 1 and not state.stock_left:
            values = dict(zip(legal, Solver(1).values(state, legal), strict=True))
            worst = min(legal, key=values.__getitem__)
            if worst.kind == "play" and max(values.values()) - values[worst] >= 0.30:
                action, planted = worst, index
        state.apply(action)
        index += first_deal
    return state.to_record(), planted


def test_a_planted_blunder_is_marked_and_the_robots_own_moves_are_best() -> None:
    for seed in range(30):
        record, planted = play_with_planted_blunder(seed)
        if planted is not None:
            break
    assert planted is not None
    result = analyse_record(record, seconds=None, playouts=PLAYOUTS, seed=7)
    decisions = result["deals"][0]["decisions"]
    by_index = {d["index"]: d for d in decisions}
    blunder = by_index[planted]
    assert blunder["mark"] == "blunder"
    assert blunder["exact"] and blunder["seat"] == 1
    assert blunder["best"] != blunder["action"]
    assert blunder["loss"] >= 30
    robot = [d for d in decisions if d["seat"] == 0]
    assert robot
    assert {d["mark"] for d in robot} == {"best"}, [d for d in robot if d["mark"] != "best"]
    assert accuracy_of(seat_marks(result, 0)) > accuracy_of(seat_marks(result, 1))
    assert result["exact"] and result["complete"]


def test_marks_and_accuracy_follow_the_points_lost() -> None:
    assert [mark_for(x) for x in (0, 5, 15, 30)] == ["best", "inaccuracy", "mistake", "blunder"]
    assert accuracy_of(["best"] * 3 + ["inaccuracy"]) == 75.0


def test_a_decision_that_is_no_choice_is_not_counted_in_the_accuracy() -> None:
    # A single-deal habanero game of the heuristic robot against itself: many of its early
    # cards change nothing, and those are no choice.
    state = new_game({"variant": "habanero", "points_to_win": 1}, random.Random(3), 0)
    bots = [HeuristicBot(random.Random(s)) for s in range(2)]
    while not state.over:
        if state.needs_deal:
            state.deal_next(random.Random(4))
            continue
        seat = seat_to_act(state)
        state.apply(bots[seat].choose(state.view(seat)))
    result = analyse_record(state.to_record(), seconds=None, playouts=PLAYOUTS, seed=2)
    decisions = [d for deal in result["deals"] for d in deal["decisions"]]
    no_choice = [d for d in decisions if not d["choice"]]
    assert no_choice and len(no_choice) < len(decisions)
    # No choice is ever a mistake: every action was worth the chosen one, within 5 points.
    assert {d["mark"] for d in no_choice} == {"best"}
    for seat in (0, 1):
        counted = [d["mark"] for d in decisions if d["seat"] == seat and d["choice"]]
        assert seat_marks(result, seat) == counted


def test_the_accuracy_of_a_random_player_is_far_below_the_hard_robots() -> None:
    # The docs' figures come from 100 games of each table (bench/benchmarks/analysis_spread.py:
    # README.md); eight short ones hold them apart here.
    found = accuracies(
        {"variant": "habanero", "players": 2, "points_to_win": 1}, games=8, playouts=80, think=40
    )
    random_mean = sum(found["random"]) / len(found["random"])
    hard_mean = sum(found["hard"]) / len(found["hard"])
    assert random_mean + 25 < hard_mean, found
