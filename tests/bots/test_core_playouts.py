"""The strong robot's playouts on the search core are the playouts on the engine: from the
moment nothing is left to draw, the same choices, the same random draws and the same values,
so moving them to the core changed the robot's speed, not its play."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.bots.base import seat_to_act
from games.bots.engine_solver import deal_value
from games.bots.strong import StrongBot, _Setup, playout_value
from tests.support.core import CONFIGS, walk


def _values(view: Any, core: bool, epsilon: float) -> list[list[float]]:
    bot = StrongBot(random.Random(9), budget_ms=None, iterations=40, epsilon=epsilon)
    bot.core_playouts = core
    return bot.playout_values(view, list(view.legal_actions))


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(map(str, c.values())))
def test_playouts_on_the_core_give_the_engines_values(config: dict[str, Any]) -> None:
    checked = 0
    for seed in range(4):
        state = walk(config, seed, seed % 3, 8 + seed * 22)[-1]
        if state.over or state.needs_deal:
            continue
        view = state.view(seat_to_act(state))
        if len(view.legal_actions) < 2:
            continue
        # With random moves mixed in, the random draws must match one for one too.
        for epsilon in (0.0, 0.3):
            on_engine = _values(view, False, epsilon)
            on_core = _values(view, True, epsilon)
            assert [len(v) for v in on_core] == [len(v) for v in on_engine]
            for core_values, engine_values in zip(on_core, on_engine, strict=True):
                assert core_values == pytest.approx(engine_values)
        checked += 1
    assert checked


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(map(str, c.values())))
def test_the_playouts_and_the_solvers_value_a_finished_deal_on_one_scale(
    config: dict[str, Any],
) -> None:
    """The value a playout gives a finished deal is the solvers' (games/bots/base.py's one
    scale), for every seat: sampled and exact values compare."""
    checked = 0
    for seed in range(4):
        positions = walk(config, seed, seed % 3, 200)
        end = next((i for i, state in enumerate(positions) if state.deal_over), 0)
        if not end:
            continue
        before, after = positions[end - 1], positions[end]
        for seat in range(after.n):
            setup = _Setup(before.view(seat))
            exact = deal_value(after, setup.side, seat)
            assert playout_value(after, setup) == pytest.approx(exact), seat
        checked += 1
    assert checked
