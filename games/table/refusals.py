"""Refusals at a table: `TableError`, and the engine's refusals in the player's language.

A service refuses a request by raising `TableError` with one of docs/protocol.md's error
codes; it changes nothing (its transaction rolls back). A move the engine refuses becomes
`TableError("illegal")` with the engine's reason, by kind.

The engine (games/engine) refuses an action with a kind (:class:`games.engine.Refusal`, which
names its RULES.md section) and the values that explain it. Players read it in French, Spanish
or English: each kind has one translatable message here, which may use its values as
``%(name)s``. A test checks that every kind has one, in every language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise, lazy
from django.utils.translation import gettext_lazy as _

from games.engine import IllegalAction, MalformedAction, Refusal

R = Refusal

# Kind -> the message players read. Kinds that say the same to a player share a message.
MESSAGES: dict[Refusal, Promise] = {
    # Turn and phase (§2, §8, §9).
    R.GAME_OVER: _("The game is over."),
    R.DEAL_OVER: _("The deal is over; the next deal has not been dealt yet."),
    R.NO_SUCH_SEAT: _("There is no such seat at this table."),
    R.BIDS_FIRST: _("Every player bids before the first card is played."),
    R.CAPOTE_FIRST: _("Capote must be declared or declined before the arrastre begins."),
    R.NOT_YOUR_TURN: _("It is not your turn to play."),
    R.NO_SUCH_ACTION: _("There is no such action."),
    # Playing a card (§5).
    R.PLAY_NEEDS_CARD: _("A play needs a card."),
    R.NOT_HELD: _("You do not hold that card."),
    R.ANSWER_TRUMP_LEAD: _(
        "While the stock has cards, you must answer a trump lead with a trump when you hold one."
    ),
    R.FOLLOW_SUIT: _("You must follow suit when you can."),
    R.BEAT_LED: _("You must follow suit with a higher card when you can."),
    R.OVERTRUMP: _(
        "You cannot follow suit, so you must play a trump higher than the one on the table "
        "when you can."
    ),
    R.TRUMP: _("You cannot follow suit, so you must play a trump when you have one."),
    # Cantes and tute (§7).
    R.NO_CANTES: _("There are no cantes in pocha."),
    R.CANTE_SUIT: _("A cante names a suit: oros, copas, espadas or bastos."),
    R.SUNG_ALREADY: _("Each suit can be sung only once per deal."),
    R.NO_PAIR: _("You need the rey and the caballo of a suit to sing it."),
    R.FORTY_FIRST: _("You must sing the 40 in trump before any 20."),
    R.NO_TUTE: _("There is no tute in pocha."),
    R.TUTE_RANK: _("Tute is announced with the four reyes or the four caballos."),
    R.TUTE_OFF: _("Tute is not allowed at this table."),
    R.TUTE_AFTER_CANTE: _(
        "Tute may be announced only by a player who has made no cante this deal."
    ),
    R.CAPOTE_DECIDES: _("Once capote is declared, nothing else decides the deal."),
    R.TUTE_NOT_HELD: _("You need all four reyes or all four caballos to announce tute."),
    R.ONE_CANTE_PER_TRICK: _("You may sing only once per trick won."),
    R.SING_WITH_STOCK: _("In two-player tute you may sing only while the stock still has cards."),
    R.NO_MOMENT: _(
        "You may sing or announce tute only right after your side wins a trick, before the "
        "next card is played."
    ),
    # Exchanging the trump card (§6).
    R.EXCHANGE_NEEDS_STOCK: _("The trump card is exchanged only in games with a stock."),
    R.EXCHANGE_NEEDS_CARD: _("An exchange needs a card."),
    R.EXCHANGE_MOMENT: _(
        "Only the winner of the last trick may exchange, after the draws and before leading."
    ),
    R.EXCHANGED_ALREADY: _("You may exchange the trump card only once per trick won."),
    R.EXCHANGE_STOCK_LOW: _(
        "The trump card can be exchanged only while the stock holds another card."
    ),
    R.NOTHING_FOR_A_TWO: _("There is nothing to exchange for a 2 face up."),
    R.WRONG_EXCHANGE: _(
        "Only the 7 of trump is exchanged for a 1, 3, 12, 11 or 10, and only the 2 of trump "
        "for a 7, 6, 5 or 4."
    ),
    # Capote (§8).
    R.NO_CAPOTE: _("Capote is played only in habanero."),
    R.CAPOTE_VALUE: _("Capote is declared with true or declined with false."),
    R.CAPOTE_MOMENT: _(
        "Capote is declared only right after the 12th trick's draws, before the arrastre."
    ),
    R.NOT_YOUR_CAPOTE: _("It is not your turn to declare capote; the leader decides first."),
    # Bids (§9).
    R.NO_BIDS: _("Bids are made only in pocha."),
    R.BIDDING_OVER: _("Bidding is over for this hand."),
    R.NOT_YOUR_BID: _("It is not your turn to bid; bids go from the leader round to the dealer."),
    R.BID_RANGE: _("A bid must be a number of tricks from 0 to %(most)s."),
    # Data that is not an action (NOTATION.md).
    R.NOT_AN_OBJECT: _("An action must be an object."),
    R.SEAT_NOT_INTEGER: _("An action needs an integer seat."),
    R.SEAT_OUT_OF_RANGE: _("There is no such seat at this table."),
    R.ONE_KEY: _("An action must have exactly one of bid, capote, exchange, play, sing or tute."),
    R.NEEDS_CARD: _("That action needs a card, such as 12O."),
    R.SING_NEEDS_SUIT: _("A cante needs a suit: O, C, E or B."),
    R.TUTE_NEEDS_RANK: _('Tute needs "12" or "11".'),
    R.CAPOTE_NEEDS_BOOL: _("Capote needs true or false."),
    R.BID_NEEDS_INT: _("A bid needs a whole number."),
}


LOG_IN = _("Log in to do that.")


class TableError(Exception):
    """A refused request: `code` is one of docs/protocol.md's error codes, `message` a
    translatable sentence, `rule` a RULES.md section or None, `field` an option name or None."""

    def __init__(
        self, code: str, message: Any, *, rule: str | None = None, field: str | None = None
    ) -> None:
        super().__init__(str(message))
        self.code = code
        self.message = message
        self.rule = rule
        self.field = field


@dataclass(frozen=True)
class Refused:
    """A refusal as a value: what `TableError` says, before anything raises it. The permits
    (games/table/permits.py) answer with these, so that a frame's `may` is computed without
    raising; the door raises the one that refuses a request (`error`)."""

    code: str
    message: Any
    rule: str | None = None
    field: str | None = None

    def error(self) -> TableError:
        return TableError(self.code, self.message, rule=self.rule, field=self.field)


def require_user(user: Any) -> Any:
    """`user`, when logged in: every request at a table, an arena or the lobby needs one."""
    if user is None or not user.is_authenticated:
        raise TableError("login_required", LOG_IN)
    return user


def illegal(refusal: IllegalAction) -> TableError:
    """The engine's refusal of a move, as the table's refusal."""
    error = translate_engine_error(refusal)
    return TableError("illegal", error.message, rule=error.rule)


def malformed(refusal: MalformedAction) -> TableError:
    """An action the engine cannot read, as the table's refusal."""
    return TableError("malformed", translate_engine_error(refusal).message)


def _fill(message: Promise, values: Mapping[str, Any]) -> str:
    return str(message) % values


# Filled in the language active when the message is read, like the message itself.
_filled = lazy(_fill, str)


@dataclass(frozen=True)
class PlayerError:
    """An engine refusal as a player reads it: a translatable message, its rule (a RULES.md
    section) if any, and the refusal's kind code (``Refusal.value``) and values."""

    message: str | Promise
    rule: str | None
    kind: str | None = None
    values: Mapping[str, Any] = field(default_factory=dict)


def translate_engine_error(refusal: IllegalAction | MalformedAction) -> PlayerError:
    """The player's message for one of the engine's refusals, by its kind.

    >>> from django.utils import translation
    >>> from games.engine import IllegalAction, Refusal
    >>> with translation.override("en"):
    ...     e = translate_engine_error(IllegalAction(Refusal.BID_RANGE, bid=9, most=3))
    ...     str(e.message), e.rule, e.kind
    ('A bid must be a number of tricks from 0 to 3.', '§9', 'bid_range')
    """
    kind = refusal.kind
    message = MESSAGES[kind]
    if refusal.values:
        message = _filled(message, refusal.values)
    return PlayerError(message, kind.section, kind.value, refusal.values)
