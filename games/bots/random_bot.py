"""The ``random`` robot: a legal action drawn uniformly, the baseline every robot must beat."""

from __future__ import annotations

from typing import Any

from games.engine import Action, SeatView

from .base import default_rng


class RandomBot:
    """Picks uniformly among the view's legal actions with an injected ``rng``.

    >>> import random
    >>> from games.engine import new_game
    >>> state = new_game({"variant": "habanero"}, random.Random(4))
    >>> view = state.view(state.turn)
    >>> RandomBot(random.Random(0)).choose(view) in view.legal_actions
    True
    """

    name = "random"

    def __init__(self, rng: Any = None) -> None:
        self.rng = rng if rng is not None else default_rng()

    def choose(self, view: SeatView) -> Action:
        return self.rng.choice(view.legal_actions)
