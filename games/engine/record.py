"""Game records (NOTATION.md): the stored truth of a game, like a chess PGN.

>>> import random
>>> from games.engine import from_record, new_game
>>> g = new_game({"players": 3}, random.Random(2))
>>> g.apply(g.legal_actions_for(g.turn)[0])
>>> rec = to_record(g)
>>> rec["variant"], len(rec["deals"][0]["actions"])
('tute', 1)
>>> from_record(rec).to_record() == rec
True

Choices where NOTATION.md leaves room:

- Every deal is checked for form, cards, hand sizes and dealer before any action is
  replayed, so an invalid later deal is reported (exit 2) even after an illegal action.
- A deal whose dealer is not (first dealer + k) % n is invalid.
- Keys other than the known ones are ignored in deals and actions, as in options; an action
  must still carry exactly one of the six action keys. ``tute`` takes the strings "12" and
  "11" only, ``bid`` an integer (not a bool), ``capote`` a bool.
- A record without deals is valid: a game waiting for its first deal.
- ``to_record`` writes all six rule options, the hands in the order they were dealt.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from .actions import Action, MalformedAction
from .deal import Deal, InvalidRecord, check_deal
from .options import OptionError, Options


class Recorded(Protocol):
    """What a record is written from and replayed into (a GameState): the state writes and
    reads records, and this module never imports the state back."""

    options: Options
    over: bool
    needs_deal: bool

    def record_deals(self) -> Iterable[tuple[Deal, list[Action]]]: ...

    def start_deal(self, deal: Deal) -> None: ...


def to_record(state: Recorded) -> dict[str, Any]:
    """The record of ``state``: variant, rule options, and every deal with its actions."""
    return {
        "variant": state.options.variant,
        "options": state.options.to_dict(),
        "deals": [
            {**deal.to_dict(), "actions": [a.to_dict() for a in actions]}
            for deal, actions in state.record_deals()
        ],
    }


def parse_record(data: Any) -> tuple[Options, list[tuple[Deal, list[Action]]]]:
    """Check a record's form and cards; :class:`InvalidRecord` names the first problem.

    Whether each action is legal is left to replaying it.
    """
    if not isinstance(data, dict):
        raise InvalidRecord("A record must be a JSON object.")
    raw_options = data.get("options", {})
    if not isinstance(raw_options, dict):
        raise InvalidRecord("A record's options must be an object.")
    try:
        options = Options.from_dict({**raw_options, "variant": data.get("variant", "tute")})
    except OptionError as exc:
        raise InvalidRecord(str(exc)) from None
    rules = options.rules
    raw_deals = data.get("deals", [])
    if not isinstance(raw_deals, list):
        raise InvalidRecord("A record's deals must be a list.")
    deals: list[tuple[Deal, list[Action]]] = []
    for k, raw in enumerate(raw_deals):
        deal = Deal.from_dict(raw)
        check_deal(rules, k, deal)
        if deals and deal.dealer != (deals[0][0].dealer + k) % rules.players:
            raise InvalidRecord(
                f"Deal {k} must be dealt by seat {(deals[0][0].dealer + k) % rules.players}, "
                f"the seat after the previous dealer, not by seat {deal.dealer}."
            )
        raw_actions = raw.get("actions", [])
        if not isinstance(raw_actions, list):
            raise InvalidRecord(f"Deal {k}: actions must be a list.")
        try:
            actions = [Action.from_dict(a, rules.players) for a in raw_actions]
        except MalformedAction as exc:
            raise InvalidRecord(f"Deal {k}: {exc}") from None
        deals.append((deal, actions))
    return options, deals


def start_listed_deal(state: Recorded, k: int, deal: Deal) -> None:
    """Start the record's deal ``k``; InvalidRecord when no deal may come now."""
    if state.over:
        raise InvalidRecord(f"Deal {k} is listed after the game ended.")
    if not state.needs_deal:
        raise InvalidRecord(f"Deal {k} is listed after an unfinished deal.")
    try:
        state.start_deal(deal)
    except ValueError as exc:
        raise InvalidRecord(str(exc)) from None
