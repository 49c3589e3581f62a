"""The rules engine of Tute, Habanero and Pocha: pure Python, no Django, no I/O.

Randomness comes in only through an injected shuffle (``rng``), cryptographically secure
(:class:`secrets.SystemRandom`) unless a test passes a seeded :class:`random.Random`.

>>> import random
>>> from games.engine import new_game, Action
>>> g = new_game({"variant": "tute", "players": 4}, random.Random(0))
>>> seat = g.turn
>>> g.apply(g.legal_actions_for(seat)[0])
>>> g.view(seat).hand_sizes[seat]
9
"""

from .actions import Action, IllegalAction, MalformedAction
from .cards import CARDS, Card
from .deal import Deal, InvalidRecord, deal_cards
from .determinize import determinize
from .options import OptionError, Options, Rules
from .record import from_record, parse_record, to_record
from .state import GameState, Outcome, new_game
from .view import SeatView

__all__ = [
    "CARDS",
    "Action",
    "Card",
    "Deal",
    "GameState",
    "IllegalAction",
    "InvalidRecord",
    "MalformedAction",
    "OptionError",
    "Options",
    "Outcome",
    "Rules",
    "SeatView",
    "deal_cards",
    "determinize",
    "from_record",
    "new_game",
    "parse_record",
    "to_record",
]
