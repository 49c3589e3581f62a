"""Helpers for the tests that hold the search core to the engine: the tables walked, a rigged
shuffle, and random walks of positions."""

import random
from typing import Any

from games.bots.core import (
    beats,
)
from games.engine import GameState, new_game
from games.engine.cards import caballo, rey

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


class RiggedShuffle(random.Random):
    """A seeded shuffle that, with ``bias``, puts reyes and caballos in the first hand dealt:
    1, two rey and caballo pairs; 2, all four reyes or all four caballos (a tute) and two
    of the other rank, so that its holder may sing before the tute is offered."""

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
            pick, other = (rey, caballo) if self.random() < 0.5 else (caballo, rey)
            wanted = [pick(s) for s in range(4)] + [other(s) for s in self.sample(range(4), 2)]
        slots = self.sample(range(8), len(wanted))  # the first hand dealt has 8 cards or more
        for slot, card in zip(slots, wanted, strict=True):
            i = x.index(card)
            x[slot], x[i] = x[i], x[slot]


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
