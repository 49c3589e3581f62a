"""The rules engine of Tute, Habanero and Pocha: pure Python, no Django, no I/O.

Randomness comes in only through an injected shuffle (``rng``), cryptographically secure
(:class:`secrets.SystemRandom`) unless the caller passes a seeded :class:`random.Random` (the
robots' arena replays its deals by seed).

>>> import random
>>> from games.engine import new_game, Action
>>> g = new_game({"variant": "tute", "players": 4}, random.Random(0))
>>> seat = g.turn
>>> g.apply(g.legal_actions_for(seat)[0])
>>> g.view(seat).hand_sizes[seat]
9

The API, in one place:

- :class:`Card` (``Card.parse("12O")``, interned in ``CARDS``), :class:`Action`
  (``Action.play(seat, card)``, ``.sing``, ``.tute``, ``.exchange``, ``.capote``, ``.bid``,
  ``to_dict``/``from_dict``), :class:`Options` (``Options.from_dict``) and its :class:`Rules`.
- :func:`new_game` (options, rng, first_dealer) deals the first deal; :func:`deal_cards`
  (options, dealer, rng, deal_index) deals any; :class:`GameState` holds a game:
  ``legal_actions()``, ``legal_actions_for(seat)``, ``apply(action)`` (raises
  :class:`IllegalAction`), ``needs_deal``, ``start_deal(deal)``, ``deal_next(rng)``,
  ``view(seat)`` (a :class:`SeatView`), ``score``, ``outcome()``, ``clone()``,
  ``determinize(seat, rng)``, ``to_record()``, ``deal_summaries()``.
- A refusal (:class:`IllegalAction`, or :class:`MalformedAction` for data that is no action)
  carries ``kind``, a :class:`Refusal` with its RULES.md ``section``, and ``values``.
- :func:`from_record` / :func:`to_record` for game records (NOTATION.md);
  ``python -m games.engine replay RECORD.json`` and ``python -m games.engine bench``.
"""

from .actions import Action, IllegalAction, MalformedAction
from .cards import CARDS, Card
from .deal import Deal, InvalidRecord, deal_cards
from .determinize import determinize
from .inference import KnownCards, known_cards
from .options import OptionError, Options, Rules
from .record import parse_record, to_record
from .refusals import Refusal
from .state import GameState, Outcome, from_record, new_game
from .view import SeatView

__all__ = [
    "CARDS",
    "Action",
    "Card",
    "Deal",
    "GameState",
    "IllegalAction",
    "InvalidRecord",
    "KnownCards",
    "MalformedAction",
    "OptionError",
    "Options",
    "Outcome",
    "Refusal",
    "Rules",
    "SeatView",
    "deal_cards",
    "determinize",
    "from_record",
    "known_cards",
    "new_game",
    "parse_record",
    "to_record",
]
