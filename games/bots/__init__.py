"""Robots that play Tute from their seat's view only (see :mod:`games.bots.base`).

``get_bot("random")`` and ``get_bot("heuristic")`` are registered here; later robots call
:func:`register_bot`. ``python -m games.bots arena`` pits two robots against each other.
"""

from .base import (
    Bot,
    IllegalBotChoice,
    bot_action,
    bot_names,
    bot_play,
    get_bot,
    register_bot,
    seat_to_act,
)
from .heuristic import HeuristicBot
from .random_bot import RandomBot

register_bot("random", RandomBot)
register_bot("heuristic", HeuristicBot)

__all__ = [
    "Bot",
    "HeuristicBot",
    "IllegalBotChoice",
    "RandomBot",
    "bot_action",
    "bot_names",
    "bot_play",
    "get_bot",
    "register_bot",
    "seat_to_act",
]
