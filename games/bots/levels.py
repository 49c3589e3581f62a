"""Robot levels a table can name: ``easy``, ``medium``, ``hard`` and ``expert``.

- ``easy``: the heuristic robot, which now and then (:data:`EASY_MISTAKES` of its card
  choices) plays a legal card at random instead;
- ``medium``: the heuristic robot;
- ``hard``: the strong robot (:mod:`.strong`) searching about 250 ms a move;
- ``expert``: the strong robot searching about 1 second a move.

>>> import random
>>> from games.engine import new_game
>>> state = new_game({"variant": "habanero"}, random.Random(2))
>>> view = state.view(state.turn)
>>> EasyBot(random.Random(1)).choose(view) in view.legal_actions
True
>>> level_bot("expert").budget_ms
1000.0
"""

from __future__ import annotations

from typing import Any

from games.engine import Action, SeatView

from .base import Bot, default_rng
from .heuristic import HeuristicBot
from .strong import StrongBot

EASY_MISTAKES = 0.25  # share of card choices the easy robot plays at random
LEVEL_BUDGET_MS = {"hard": 250.0, "expert": 1000.0}
LEVELS = ("easy", "medium", "hard", "expert")


class EasyBot:
    """The heuristic robot with random mistakes; cantes and announcements stay sound."""

    name = "easy"

    def __init__(self, rng: Any = None) -> None:
        self.rng = rng if rng is not None else default_rng()
        self.inner = HeuristicBot(self.rng)

    def choose(self, view: SeatView) -> Action:
        plays = [a for a in view.legal_actions if a.kind == "play"]
        if len(plays) == len(view.legal_actions) > 1 and self.rng.random() < EASY_MISTAKES:
            return self.rng.choice(plays)
        return self.inner.choose(view)


def level_bot(level: str, rng: Any = None) -> Bot:
    """The robot of a level (KeyError for an unknown one)."""
    if level == "easy":
        return EasyBot(rng)
    if level == "medium":
        bot = HeuristicBot(rng)
        return bot
    return StrongBot(rng, budget_ms=LEVEL_BUDGET_MS[level])
