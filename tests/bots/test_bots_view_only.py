"""Robots see only their seat's view: no other hand, no stock order, no undealt card."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

import pytest

from games.bots import get_bot
from games.bots.base import bot_play
from games.engine import GameState, IllegalAction, InvalidRecord, SeatView, from_record, new_game
from games.engine.cards import CARD_TEXT

from .helpers import seats_to_act
from .test_bots_legal import CONFIGS

BOTS_DIR = Path(__file__).resolve().parents[2] / "games" / "bots"


class SpyBot:
    """Wraps a robot and keeps every view it was given."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.views: list[SeatView] = []

    def choose(self, view: SeatView):
        self.views.append(view)
        return self.inner.choose(view)


def card_texts(data: Any) -> set[str]:
    """Every card written anywhere in a view's JSON data."""
    if isinstance(data, dict):
        return set().union(*(card_texts(v) for v in data.values())) if data else set()
    if isinstance(data, list):
        return set().union(*(card_texts(v) for v in data)) if data else set()
    return {data} if isinstance(data, str) and data in CARD_TEXT else set()


def hidden_cards(state: GameState, seat: int) -> set[str]:
    """Cards the seat must not see: other hands (bar public ones), stock, undealt cards."""
    view = state.view(seat)
    public = {str(view.trump_card)} | {str(took) for _, _, took in view.exchanges}
    deal = state.record_deals()[-1][0]
    others = {str(c) for s in range(state.n) if s != seat for c in state.hand(s)}
    if state.rules.has_stock:
        undrawn = {CARD_TEXT[c] for c in state.stock}  # not yet drawn, face down
    else:
        undrawn = {str(c) for c in deal.stock}  # pocha's undealt cards
    return (others | undrawn) - public - {str(c) for c in view.hand}


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
        assert not card_texts(view.to_dict()) & hidden


def reshuffle_hidden(state: GameState, seat: int, rng: random.Random) -> GameState | None:
    """The same game with the cards ``seat`` cannot see dealt differently among the
    other hands, the stock and the undealt cards; None if no such deal replays legally."""
    record = state.to_record()
    deal = record["deals"][-1]
    shown = {v for a in deal["actions"] for k, v in a.items() if isinstance(v, str)}
    shown |= {deal["trump_card"], str(state.view(seat).trump_card)}
    hidden = sorted(hidden_cards(state, seat) - shown)
    for _ in range(30):
        moved = hidden[:]
        rng.shuffle(moved)
        swap = dict(zip(hidden, moved, strict=True))
        deal["hands"] = [[swap.get(c, c) for c in h] for h in deal["hands"]]
        deal["stock"] = [swap.get(c, c) for c in deal["stock"]]
        try:
            return from_record(record)
        except (IllegalAction, InvalidRecord):
            inverse = {v: k for k, v in swap.items()}
            deal["hands"] = [[inverse.get(c, c) for c in h] for h in deal["hands"]]
            deal["stock"] = [inverse.get(c, c) for c in deal["stock"]]
    return None


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
