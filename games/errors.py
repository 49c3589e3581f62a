"""The engine's refusals, in the player's language.

The engine (games/engine) explains a refused action with an English sentence naming the rule
(`IllegalAction`, `MalformedAction`). Players read them in French, Spanish or English, so each
engine text is mapped here, keyed by the engine's exact text (a `{}` stands for a value the
engine puts in), to a translatable message. A text missing here still gets a translated
"That move is not allowed." and its rule reference; a test checks that none is missing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

# Engine text (with `{}` for an inserted value) -> the message players read. A message may use
# %(value)s for the first inserted value.
ENGINE_MESSAGES = {
    # Turn and phase (§2, §8, §9).
    "The game is over.": _("The game is over."),
    "The deal is over; the next deal has not been dealt yet.": _(
        "The deal is over; the next deal has not been dealt yet."
    ),
    "There is no seat {} at this table.": _("There is no such seat at this table."),
    "Every player bids before the first card is played (§9).": _(
        "Every player bids before the first card is played."
    ),
    "Capote must be declared or declined before the arrastre begins (§8).": _(
        "Capote must be declared or declined before the arrastre begins."
    ),
    "It is not your turn to play (§2).": _("It is not your turn to play."),
    "There is no action {}.": _("There is no such action."),
    # Playing a card (§5).
    "A play needs a card.": _("A play needs a card."),
    "You do not hold that card.": _("You do not hold that card."),
    "While the stock has cards, you must answer a trump lead with a trump when you hold one "
    "(§5).": _(
        "While the stock has cards, you must answer a trump lead with a trump when you hold one."
    ),
    "You must follow suit when you can (§5).": _("You must follow suit when you can."),
    "You must follow suit with a higher card when you can (§5).": _(
        "You must follow suit with a higher card when you can."
    ),
    "You cannot follow suit, so you must play a trump higher than the one on the table when "
    "you can (§5).": _(
        "You cannot follow suit, so you must play a trump higher than the one on the table "
        "when you can."
    ),
    "You cannot follow suit, so you must play a trump when you have one (§5).": _(
        "You cannot follow suit, so you must play a trump when you have one."
    ),
    # Cantes and tute (§7).
    "There are no cantes in pocha (§9).": _("There are no cantes in pocha."),
    "A cante names a suit: O, C, E or B.": _(
        "A cante names a suit: oros, copas, espadas or bastos."
    ),
    "Each suit can be sung only once per deal (§7).": _(
        "Each suit can be sung only once per deal."
    ),
    "You need the rey and caballo of a suit to sing it (§7).": _(
        "You need the rey and the caballo of a suit to sing it."
    ),
    "You must sing the 40 in trump before any 20 (§7).": _(
        "You must sing the 40 in trump before any 20."
    ),
    "There is no tute in pocha (§9).": _("There is no tute in pocha."),
    'Tute is announced with "12" (reyes) or "11" (caballos).': _(
        "Tute is announced with the four reyes or the four caballos."
    ),
    "Tute is not allowed at this table (§7).": _("Tute is not allowed at this table."),
    "Tute may be announced only by a player who has made no cante this deal (§7).": _(
        "Tute may be announced only by a player who has made no cante this deal."
    ),
    "Once capote is declared, nothing else decides the deal (§8).": _(
        "Once capote is declared, nothing else decides the deal."
    ),
    "You need all four {} to announce tute (§7).": _(
        "You need all four reyes or all four caballos to announce tute."
    ),
    "You may sing only once per trick won (§7).": _("You may sing only once per trick won."),
    "In two-player tute you may sing only while the stock still has cards (§7).": _(
        "In two-player tute you may sing only while the stock still has cards."
    ),
    "You may {} only right after your side wins a trick, before the next card is played (§7).": _(
        "You may sing or announce tute only right after your side wins a trick, before the "
        "next card is played."
    ),
    # Exchanging the trump card (§6).
    "The trump card is exchanged only in games with a stock (§6).": _(
        "The trump card is exchanged only in games with a stock."
    ),
    "An exchange needs a card.": _("An exchange needs a card."),
    "Only the winner of the last trick may exchange, after the draws and before leading (§6).": _(
        "Only the winner of the last trick may exchange, after the draws and before leading."
    ),
    "You may exchange the trump card only once per trick won (§6).": _(
        "You may exchange the trump card only once per trick won."
    ),
    "The trump card can be exchanged only while the stock holds another card (§6).": _(
        "The trump card can be exchanged only while the stock holds another card."
    ),
    "There is nothing to exchange for a 2 face up (§6).": _(
        "There is nothing to exchange for a 2 face up."
    ),
    "Only the 7 of trump is exchanged for a 1, 3, 12, 11 or 10, and only the 2 of trump for a "
    "7, 6, 5 or 4 (§6).": _(
        "Only the 7 of trump is exchanged for a 1, 3, 12, 11 or 10, and only the 2 of trump "
        "for a 7, 6, 5 or 4."
    ),
    # Capote (§8).
    "Capote is played only in habanero (§8).": _("Capote is played only in habanero."),
    "Capote is declared with true or declined with false.": _(
        "Capote is declared with true or declined with false."
    ),
    "Capote is declared only right after the 12th trick's draws, before the arrastre (§8).": _(
        "Capote is declared only right after the 12th trick's draws, before the arrastre."
    ),
    "It is not your turn to declare capote; the leader decides first (§8).": _(
        "It is not your turn to declare capote; the leader decides first."
    ),
    # Bids (§9).
    "Bids are made only in pocha (§9).": _("Bids are made only in pocha."),
    "Bidding is over for this hand (§9).": _("Bidding is over for this hand."),
    "It is not your turn to bid; bids go from the leader round to the dealer (§9).": _(
        "It is not your turn to bid; bids go from the leader round to the dealer."
    ),
    "A bid must be a number of tricks from 0 to {} (§9).": _(
        "A bid must be a number of tricks from 0 to %(value)s."
    ),
    # Malformed actions (NOTATION.md).
    "An action must be an object, not {}.": _("An action must be an object."),
    "An action needs an integer seat: {}.": _("An action needs an integer seat."),
    "Seat {} is out of range for {} players.": _("There is no such seat at this table."),
    "An action must have exactly one of {}.": _(
        "An action must have exactly one of bid, capote, exchange, play, sing or tute."
    ),
    "Action {} needs a card: {}.": _("That action needs a card, such as 12O."),
    "Action sing needs a suit O, C, E or B, not {}.": _("A cante needs a suit: O, C, E or B."),
    'Action tute needs "12" or "11", not {}.': _('Tute needs "12" or "11".'),
    "Action capote needs true or false, not {}.": _("Capote needs true or false."),
    "Action bid needs an integer, not {}.": _("A bid needs a whole number."),
}

NOT_ALLOWED = _("That move is not allowed.")
_RULE = re.compile(r"\((§\d+)\)\.?$")


def _pattern(template: str) -> re.Pattern[str]:
    parts = [re.escape(part) for part in template.split("{}")]
    return re.compile("^" + "(.*?)".join(parts) + "$", re.DOTALL)


_PATTERNS = [(_pattern(template), message) for template, message in ENGINE_MESSAGES.items()]


@dataclass(frozen=True)
class PlayerError:
    """An engine refusal as a player reads it: a translatable message and its rule, if any."""

    message: str
    rule: str | None


def translate_engine_error(text: str) -> PlayerError:
    """The player's message for one of the engine's refusal texts.

    >>> from django.utils import translation
    >>> with translation.override("en"):
    ...     e = translate_engine_error("You must follow suit when you can (§5).")
    ...     str(e.message), e.rule
    ('You must follow suit when you can.', '§5')
    """
    found = _RULE.search(text)
    rule = found.group(1) if found else None
    for pattern, message in _PATTERNS:
        match = pattern.match(text)
        if match:
            if "%(value)s" in str(message) and match.groups():
                return PlayerError(message % {"value": match.group(1)}, rule)
            return PlayerError(message, rule)
    return PlayerError(NOT_ALLOWED, rule)
