"""Robots that play Tute from their seat's view only (see :mod:`games.bots.base`).

``get_bot("random")``, ``get_bot("heuristic")`` and ``get_bot("strong")`` (search, 250 ms
a move) are registered here, and the levels a table can name: ``easy``, ``medium``,
``hard`` and ``expert`` (see :mod:`.levels`). ``python -m games.bots arena`` pits two
robots against each other.
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
from .levels import LEVELS, EasyBot, level_bot
from .random_bot import RandomBot
from .strong import StrongBot

register_bot("random", RandomBot)
register_bot("heuristic", HeuristicBot)
register_bot("strong", StrongBot)
for _level in LEVELS:
    register_bot(_level, lambda rng, level=_level: level_bot(level, rng))

__all__ = [
    "LEVELS",
    "Bot",
    "EasyBot",
    "HeuristicBot",
    "IllegalBotChoice",
    "RandomBot",
    "StrongBot",
    "bot_action",
    "bot_names",
    "bot_play",
    "get_bot",
    "level_bot",
    "register_bot",
    "seat_to_act",
]
