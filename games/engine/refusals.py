"""Why the engine refuses an action, as data: a kind and the values that explain it.

Each :class:`Refusal` names the RULES.md section it enforces (None when the refusal states a
fact of the data or of the moment rather than a rule: no such seat, a card not held) and the
names of the values it carries. The engine raises :class:`IllegalAction` (an action that
breaks a rule) or :class:`MalformedAction` (data that is not an action) with one of them; the
site translates by the kind, and ``str()`` gives an English sentence for logs and the command
line. python-chess's ``IllegalMoveError`` is the model.

>>> error = IllegalAction(Refusal.FOLLOW_SUIT, card="5E", led="O")
>>> error.kind.section, error.values["led"], str(error)
('§5', 'O', 'You must follow suit when you can (§5).')
>>> Refusal("follow_suit") is Refusal.FOLLOW_SUIT
True
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Any

# Refusal texts that depend on a value in more than a slot: the figures of a tute, the verb.
_FIGURES = {"12": "reyes", "11": "caballos"}


def _tute_not_held(values: dict[str, Any]) -> str:
    return f"You need all four {_FIGURES.get(values['rank'], values['rank'])} to announce tute"


def _no_moment(values: dict[str, Any]) -> str:
    verb = "sing" if values["action"] == "sing" else "announce tute"
    return f"You may {verb} only right after your side wins a trick, before the next card is played"


def _one_key(values: dict[str, Any]) -> str:
    return "An action must have exactly one of " + ", ".join(values["keys"])


class Refusal(Enum):
    """The kinds of refusal. Each member is (code, RULES.md section or None, the names of its
    values, the English text: a ``str.format`` template over the values, or a function of
    them); the code is the member's value, stable for records, logs and the wire."""

    section: str | None
    fields: tuple[str, ...]

    def __new__(
        cls,
        code: str,
        section: str | None,
        fields: tuple[str, ...],
        text: str | Callable[[dict[str, Any]], str],
    ) -> Refusal:
        member = object.__new__(cls)
        member._value_ = code
        member.section = section
        member.fields = fields
        member._text = text  # type: ignore[attr-defined]
        return member

    def english(self, values: dict[str, Any]) -> str:
        """The English sentence for this refusal with these values, its rule at the end."""
        text = self._text  # type: ignore[attr-defined]
        sentence = text(values) if callable(text) else text.format(**values)
        return f"{sentence} ({self.section})." if self.section else f"{sentence}."

    # --- Whose turn, which moment (§2, §8, §9)
    GAME_OVER = "game_over", None, (), "The game is over"
    DEAL_OVER = "deal_over", None, (), "The deal is over; the next deal has not been dealt yet"
    NO_SUCH_SEAT = "no_such_seat", None, ("seat",), "There is no seat {seat!r} at this table"
    NO_SUCH_ACTION = "no_such_action", None, ("action",), "There is no action {action!r}"
    BIDS_FIRST = (
        "bids_first",
        "§9",
        ("turn",),
        "Every player bids before the first card is played",
    )
    CAPOTE_FIRST = (
        "capote_first",
        "§8",
        ("turn",),
        "Capote must be declared or declined before the arrastre begins",
    )
    NOT_YOUR_TURN = "not_your_turn", "§2", ("turn",), "It is not your turn to play"

    # --- Playing a card (§5). ``to_beat`` is the card on the table that a follower must beat.
    PLAY_NEEDS_CARD = "play_needs_card", None, (), "A play needs a card"
    NOT_HELD = "not_held", None, ("card",), "You do not hold that card"
    ANSWER_TRUMP_LEAD = (
        "answer_trump_lead",
        "§5",
        ("card", "trump"),
        "While the stock has cards, you must answer a trump lead with a trump when you hold one",
    )
    FOLLOW_SUIT = "follow_suit", "§5", ("card", "led"), "You must follow suit when you can"
    BEAT_LED = (
        "beat_led",
        "§5",
        ("card", "led", "to_beat"),
        "You must follow suit with a higher card when you can",
    )
    OVERTRUMP = (
        "overtrump",
        "§5",
        ("card", "trump", "to_beat"),
        "You cannot follow suit, so you must play a trump higher than the one on the table "
        "when you can",
    )
    TRUMP = (
        "trump",
        "§5",
        ("card", "trump"),
        "You cannot follow suit, so you must play a trump when you have one",
    )

    # --- Exchanging the trump card (§6)
    EXCHANGE_NEEDS_STOCK = (
        "exchange_needs_stock",
        "§6",
        (),
        "The trump card is exchanged only in games with a stock",
    )
    EXCHANGE_NEEDS_CARD = "exchange_needs_card", None, (), "An exchange needs a card"
    EXCHANGE_MOMENT = (
        "exchange_moment",
        "§6",
        (),
        "Only the winner of the last trick may exchange, after the draws and before leading",
    )
    EXCHANGED_ALREADY = (
        "exchanged_already",
        "§6",
        (),
        "You may exchange the trump card only once per trick won",
    )
    EXCHANGE_STOCK_LOW = (
        "exchange_stock_low",
        "§6",
        (),
        "The trump card can be exchanged only while the stock holds another card",
    )
    NOTHING_FOR_A_TWO = (
        "nothing_for_a_two",
        "§6",
        ("trump_card",),
        "There is nothing to exchange for a 2 face up",
    )
    WRONG_EXCHANGE = (
        "wrong_exchange",
        "§6",
        ("card", "give", "trump_card"),
        "Only the 7 of trump is exchanged for a 1, 3, 12, 11 or 10, and only the 2 of trump for "
        "a 7, 6, 5 or 4",
    )

    # --- Cantes and tute (§7)
    NO_CANTES = "no_cantes", "§9", (), "There are no cantes in pocha"
    CANTE_SUIT = "cante_suit", None, ("suit",), "A cante names a suit: O, C, E or B"
    SUNG_ALREADY = "sung_already", "§7", ("suit",), "Each suit can be sung only once per deal"
    NO_PAIR = "no_pair", "§7", ("suit",), "You need the rey and caballo of a suit to sing it"
    FORTY_FIRST = (
        "forty_first",
        "§7",
        ("suit", "trump"),
        "You must sing the 40 in trump before any 20",
    )
    ONE_CANTE_PER_TRICK = (
        "one_cante_per_trick",
        "§7",
        (),
        "You may sing only once per trick won",
    )
    SING_WITH_STOCK = (
        "sing_with_stock",
        "§7",
        (),
        "In two-player tute you may sing only while the stock still has cards",
    )
    NO_MOMENT = "no_moment", "§7", ("action",), _no_moment
    NO_TUTE = "no_tute", "§9", (), "There is no tute in pocha"
    TUTE_RANK = (
        "tute_rank",
        None,
        ("rank",),
        'Tute is announced with "12" (reyes) or "11" (caballos)',
    )
    TUTE_OFF = "tute_off", "§7", (), "Tute is not allowed at this table"
    TUTE_AFTER_CANTE = (
        "tute_after_cante",
        "§7",
        (),
        "Tute may be announced only by a player who has made no cante this deal",
    )
    CAPOTE_DECIDES = (
        "capote_decides",
        "§8",
        (),
        "Once capote is declared, nothing else decides the deal",
    )
    TUTE_NOT_HELD = "tute_not_held", "§7", ("rank",), _tute_not_held

    # --- Capote (§8)
    NO_CAPOTE = "no_capote", "§8", (), "Capote is played only in habanero"
    CAPOTE_VALUE = (
        "capote_value",
        None,
        ("value",),
        "Capote is declared with true or declined with false",
    )
    CAPOTE_MOMENT = (
        "capote_moment",
        "§8",
        (),
        "Capote is declared only right after the 12th trick's draws, before the arrastre",
    )
    NOT_YOUR_CAPOTE = (
        "not_your_capote",
        "§8",
        ("turn",),
        "It is not your turn to declare capote; the leader decides first",
    )

    # --- Bids (§9)
    NO_BIDS = "no_bids", "§9", (), "Bids are made only in pocha"
    BIDDING_OVER = "bidding_over", "§9", (), "Bidding is over for this hand"
    NOT_YOUR_BID = (
        "not_your_bid",
        "§9",
        ("turn",),
        "It is not your turn to bid; bids go from the leader round to the dealer",
    )
    BID_RANGE = (
        "bid_range",
        "§9",
        ("bid", "most"),
        "A bid must be a number of tricks from 0 to {most}",
    )

    # --- Data that is not an action (NOTATION.md): MalformedAction
    NOT_AN_OBJECT = "not_an_object", None, ("data",), "An action must be an object, not {data!r}"
    SEAT_NOT_INTEGER = (
        "seat_not_integer",
        None,
        ("data",),
        "An action needs an integer seat: {data!r}",
    )
    SEAT_OUT_OF_RANGE = (
        "seat_out_of_range",
        None,
        ("seat", "players"),
        "Seat {seat} is out of range for {players} players",
    )
    ONE_KEY = "one_key", None, ("keys",), _one_key
    NEEDS_CARD = (
        "needs_card",
        None,
        ("action", "value", "problem"),
        "Action {action} needs a card: {problem}",
    )
    SING_NEEDS_SUIT = (
        "sing_needs_suit",
        None,
        ("value",),
        "Action sing needs a suit O, C, E or B, not {value!r}",
    )
    TUTE_NEEDS_RANK = (
        "tute_needs_rank",
        None,
        ("value",),
        'Action tute needs "12" or "11", not {value!r}',
    )
    CAPOTE_NEEDS_BOOL = (
        "capote_needs_bool",
        None,
        ("value",),
        "Action capote needs true or false, not {value!r}",
    )
    BID_NEEDS_INT = "bid_needs_int", None, ("value",), "Action bid needs an integer, not {value!r}"


# The kinds only Action.from_dict raises, as MalformedAction; every other is an IllegalAction.
MALFORMED = frozenset(
    {
        Refusal.NOT_AN_OBJECT,
        Refusal.SEAT_NOT_INTEGER,
        Refusal.SEAT_OUT_OF_RANGE,
        Refusal.ONE_KEY,
        Refusal.NEEDS_CARD,
        Refusal.SING_NEEDS_SUIT,
        Refusal.TUTE_NEEDS_RANK,
        Refusal.CAPOTE_NEEDS_BOOL,
        Refusal.BID_NEEDS_INT,
    }
)


class _Refused(ValueError):
    """A refusal: ``kind`` (a :class:`Refusal`) and ``values`` (its named values); ``str()``
    is the English sentence."""

    def __init__(self, kind: Refusal, **values: Any) -> None:
        super().__init__(kind.english(values))
        self.kind = kind
        self.values = values

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from the kind and values, not from the sentence (pickling, Celery).
        return (_rebuild, (type(self), self.kind, self.values), self.__dict__)


def _rebuild(cls: type[_Refused], kind: Refusal, values: dict[str, Any]) -> _Refused:
    return cls(kind, **values)


class IllegalAction(_Refused):
    """An action that breaks a rule; ``kind`` says which, ``str()`` names it in English."""


class MalformedAction(_Refused):
    """Data that is not an action at all (bad key, value type or seat)."""
