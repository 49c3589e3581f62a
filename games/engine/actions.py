"""Actions a seat can take, in the shape NOTATION.md writes them.

>>> a = Action.play(0, Card.parse("12O"))
>>> a.to_dict()
{'seat': 0, 'play': '12O'}
>>> Action.from_dict({"seat": 3, "sing": "E"})
Action(seat=3, kind='sing', value='E')
>>> Action.from_dict({"seat": 1, "bid": 2}) == Action.bid(1, 2)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import CARDS, SUITS, Card, parse_card_index
from .refusals import IllegalAction, MalformedAction, Refusal

# Alphabetical, as NOTATION.md sorts legal actions by key.
KINDS = ("bid", "capote", "exchange", "play", "sing", "tute")
KIND_ORDER = {k: i for i, k in enumerate(KINDS)}
TUTE_RANKS = ("11", "12")

__all__ = ["KINDS", "PLAYS", "Action", "IllegalAction", "MalformedAction"]


@dataclass(frozen=True, slots=True)
class Action:
    """One action of one seat.

    ``value`` is a :class:`Card` for ``play`` and ``exchange``, a suit letter for ``sing``,
    ``"12"`` or ``"11"`` for ``tute``, a bool for ``capote`` and an int for ``bid``.
    """

    seat: int
    kind: str
    value: Any

    @staticmethod
    def play(seat: int, card: Card | str) -> Action:
        return _PLAYS[seat][_card(card).index]

    @staticmethod
    def exchange(seat: int, card: Card | str) -> Action:
        return Action(seat, "exchange", _card(card))

    @staticmethod
    def sing(seat: int, suit: str) -> Action:
        return Action(seat, "sing", suit)

    @staticmethod
    def tute(seat: int, rank: str) -> Action:
        return Action(seat, "tute", rank)

    @staticmethod
    def capote(seat: int, declare: bool) -> Action:
        return Action(seat, "capote", declare)

    @staticmethod
    def bid(seat: int, tricks: int) -> Action:
        return Action(seat, "bid", tricks)

    @property
    def card(self) -> Card | None:
        """The card of a play or exchange, else None."""
        return self.value if isinstance(self.value, Card) else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form, as in a record: ``{"seat": 0, "play": "12O"}``."""
        value = self.value
        return {"seat": self.seat, self.kind: str(value) if isinstance(value, Card) else value}

    @staticmethod
    def from_dict(data: Any, players: int = 4) -> Action:
        """Parse a record's action; :class:`MalformedAction` when it is not one.

        Keys other than ``seat`` and the six action keys are ignored. A well-formed action
        may still be illegal (a bid of 99, a card not held): that is for the state to say.
        """
        if not isinstance(data, dict):
            raise MalformedAction(Refusal.NOT_AN_OBJECT, data=data)
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise MalformedAction(Refusal.SEAT_NOT_INTEGER, data=data)
        if not 0 <= seat < players:
            raise MalformedAction(Refusal.SEAT_OUT_OF_RANGE, seat=seat, players=players)
        kinds = [k for k in KINDS if k in data]
        if len(kinds) != 1:
            raise MalformedAction(Refusal.ONE_KEY, keys=KINDS)
        kind = kinds[0]
        value = data[kind]
        if kind in ("play", "exchange"):
            try:
                value = CARDS[parse_card_index(value)]
            except ValueError as exc:
                raise MalformedAction(
                    Refusal.NEEDS_CARD, action=kind, value=value, problem=str(exc)
                ) from None
            if kind == "play":
                return _PLAYS[seat][value.index]
        elif kind == "sing":
            if not isinstance(value, str) or len(value) != 1 or value not in SUITS:
                raise MalformedAction(Refusal.SING_NEEDS_SUIT, value=value)
        elif kind == "tute":
            if value not in TUTE_RANKS or not isinstance(value, str):
                raise MalformedAction(Refusal.TUTE_NEEDS_RANK, value=value)
        elif kind == "capote":
            if not isinstance(value, bool):
                raise MalformedAction(Refusal.CAPOTE_NEEDS_BOOL, value=value)
        elif not isinstance(value, int) or isinstance(value, bool):
            raise MalformedAction(Refusal.BID_NEEDS_INT, value=value)
        return Action(seat, kind, value)

    def sort_key(self) -> tuple[int, int]:
        """NOTATION.md order: by key, then cards O,C,E,B strongest first, suits O,C,E,B,
        false before true, integers ascending, "11" before "12"."""
        v = self.value
        if isinstance(v, Card):
            rank = v.index
        elif self.kind == "sing":
            rank = SUITS.index(v)
        elif self.kind == "tute":
            rank = int(v)
        else:
            rank = int(v)
        return (KIND_ORDER[self.kind], rank)


def _card(card: Card | str) -> Card:
    return card if isinstance(card, Card) else Card.parse(card)


# Interned play actions, one per seat and card, so the hot path allocates nothing.
_PLAYS: tuple[tuple[Action, ...], ...] = tuple(
    tuple(Action(seat, "play", CARDS[i]) for i in range(40)) for seat in range(4)
)
PLAYS = _PLAYS
