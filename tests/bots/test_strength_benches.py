"""The two strength benches measure what they say: the tail bench's positions are decisions
the robot searches, and its regret is read off the long search; the ceiling's robot sees
the true deal, stock included, and nothing else changes in its search."""

from __future__ import annotations

import random

import pytest

from bench.benchmarks import exact_tail, strength_ceiling
from games.engine import Options, new_game


def test_the_tail_bench_keeps_only_searched_decisions_and_scores_choices_by_the_reference():
    views = exact_tail.positions("habanero", 6, every=2, seed=3)
    assert len(views) == 6
    for view in views:
        assert view.stock_size > 0  # the empty stock is solved exactly, not searched
        assert len(view.legal_actions) >= 2
        assert {a.kind for a in view.legal_actions} == {"play"}
    ref = exact_tail.reference(views, tail=8, playouts=60, seed=3)
    assert [len(r) for r in ref] == [len(v.legal_actions) for v in views]
    row = exact_tail.judge(views, ref, tail=8, clock=30.0, seed=3)
    # Each regret is the reference's best less the reference's value of a card of that
    # position's own.
    for regret, values in zip(row["regrets"], ref, strict=True):
        assert any(abs(regret - (max(values) - v)) < 0.01 for v in values)
    assert row["best_share"] == pytest.approx(sum(r == 0 for r in row["regrets"]) / 6, abs=1e-3)


def test_the_seeing_robot_searches_the_true_deal_with_the_stock_in_its_order():
    options = Options.from_dict(strength_ceiling.VARIANTS["habanero"])
    state = new_game(options, random.Random(4))
    bot = strength_ceiling.SeeingBot(random.Random(1), state)
    world = bot.sampler(state.view(state.turn)).sample(random.Random(2))
    assert world.hands == state.hands and world is not state
    assert world.stock == state.stock
    # A whole game: every card the seeing robot chose was legal (bot_play refuses others),
    # and each of its choices was timed.
    outcome, think = strength_ceiling.play(options, 0, seed=1)
    assert outcome in {"a", "b", "draw"} and len(think) > 5
