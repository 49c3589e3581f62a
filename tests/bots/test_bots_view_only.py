"""Robots see only their seat's view: no other hand, no stock order, no undealt card."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from games.bots import get_bot
from games.bots.base import bot_play
from games.engine import SeatView, new_game
from tests.support.bots import (
    CONFIGS,
    SpyBot,
    hidden_cards,
    reshuffle_hidden,
    seats_to_act,
)
from tests.support.engine import card_codes

BOTS_DIR = Path(__file__).resolve().parents[2] / "games" / "bots"


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(map(str, c.values())))
def test_robots_get_only_their_own_view(config: dict) -> None:
    rng = random.Random(f"view{config}")
    state = new_game(config, rng)
    spies = [SpyBot(get_bot("heuristic" if s % 2 else "random", rng=rng)) for s in range(state.n)]
    for seat in seats_to_act(state, rng, steps=60):
        hidden = hidden_cards(state, seat)
        bot_play(spies[seat], state, seat)
        view = spies[seat].views[-1]
        assert isinstance(view, SeatView)
        assert view.seat == seat
        assert not card_codes(view.to_dict()) & hidden


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(map(str, c.values())))
def test_heuristic_decides_the_same_whatever_the_hidden_cards(config: dict) -> None:
    rng = random.Random(f"hidden{config}")
    heuristic = get_bot("heuristic")
    random_bot = get_bot("random", rng=rng)
    state = new_game(config, rng)
    compared = changed = 0
    for seat in seats_to_act(state, rng, steps=60):
        other = reshuffle_hidden(state, seat, rng)
        if other is not None:
            view, other_view = state.view(seat), other.view(seat)
            assert other_view == view
            assert heuristic.choose(other_view) == heuristic.choose(view)
            compared += 1
            changed += any(other.hand(s) != state.hand(s) for s in range(state.n) if s != seat)
        bot_play(random_bot, state, seat)
    assert compared >= 10
    assert changed >= 1


@pytest.mark.parametrize("module", ["heuristic.py", "knowledge.py", "random_bot.py"])
def test_robot_code_never_touches_a_game_state(module: str) -> None:
    tree = ast.parse((BOTS_DIR / module).read_text())
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    names |= {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
    assert "GameState" not in names
    assert "new_game" not in names
