"""What a puzzle page shows: the position from the player's seat, as at the table.

Everything here comes from the seat's own view (:meth:`GameState.view`) and what that view
makes known (:func:`~games.engine.known_cards`): the hand, the other hand (known to a player
who counts, once the stock is empty: every card not in the hand nor played), the trick, the
cards played this deal, the trump, the cantes, the points and the score. Never the puzzle's
record: not the original deal, not another deal, not what was really played next.
The lines of play the page shows (the solver's reply, a refutation) are made of cards that
the position already makes known.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.engine import Action, known_cards
from games.engine.cards import CARDS
from games.templatetags.cards import card_label, card_suit

from .mining import action_key, position_at
from .models import Puzzle

# Suits in the engine's order (O, C, E, B), strongest first inside each: the hand as sorted
# at the table.
ORDER = {str(card): i for i, card in enumerate(CARDS)}


def _sorted(cards: list[str]) -> list[str]:
    return sorted(cards, key=ORDER.__getitem__)


def who(seat: int, me: int) -> str:
    return "you" if seat == me else "them"


def board(puzzle: Puzzle, upto: int) -> dict[str, Any]:
    """The position after the first ``upto`` actions of the puzzle's line, from its seat."""
    state = position_at(puzzle.record, puzzle.line, upto)
    me = puzzle.seat
    view = state.view(me)
    known = known_cards(view)
    if known.outside:
        raise ValueError("A puzzle's position must have no hidden card left.")
    other = 1 - me
    legal = list(view.legal_actions)
    plays = {str(a.card) for a in legal if a.kind == "play"}
    hand = _sorted([str(c) for c in view.hand or ()])
    played = [[{"who": who(s, me), "card": str(c)} for s, c in trick] for trick in view.tricks]
    carry = None if view.carry is None else {"you": view.carry[me], "them": view.carry[other]}
    return {
        "hand": [{"card": c, "legal": c in plays} for c in hand],
        "their_hand": _sorted([str(CARDS[c]) for c in known.unseen]),
        "trick": [{"who": who(s, me), "card": str(c)} for s, c in view.trick],
        "played": played,
        "played_count": sum(len(t) for t in played),
        "trump_suit": view.trump_suit,
        "trump_card": str(view.trump_card) if view.trump_card is not None else None,
        "points": {"you": view.points[me], "them": view.points[other]},
        "score": {"you": view.score[me], "them": view.score[other]},
        "carry": carry,
        "cantes": [
            {"who": who(s, me), "suit": suit, "value": value} for s, suit, value in view.cantes
        ],
        "turn": None if view.turn is None else who(view.turn, me),
        "other_actions": [
            {"key": action_key(a), "label": action_label(a.to_dict(), me)}
            for a in legal
            if a.kind != "play"
        ],
        "variant": view.variant,
        "tricks_left": len(hand),
    }


def action_label(action: dict[str, Any], me: int) -> str:
    """An action of a line as the page says it, "you" or "they" (no names)."""
    mine = action["seat"] == me
    if "play" in action:
        card = card_label(action["play"])
        return (
            _("You play %(card)s") % {"card": card}
            if mine
            else _("They play %(card)s") % {"card": card}
        )
    if "sing" in action:
        suit = card_suit(action["sing"])
        return (
            _("You sing in %(suit)s") % {"suit": suit}
            if mine
            else _("They sing in %(suit)s") % {"suit": suit}
        )
    if "tute" in action:
        return _("You announce tute") if mine else _("They announce tute")
    if "capote" in action:
        if action["capote"]:
            return _("You declare capote") if mine else _("They declare capote")
        return _("You decline capote") if mine else _("They decline capote")
    if "exchange" in action:
        card = card_label(action["exchange"])
        return (
            _("You exchange %(card)s") % {"card": card}
            if mine
            else _("They exchange %(card)s") % {"card": card}
        )
    return ""


def line_items(actions: list[dict[str, Any]], me: int) -> list[dict[str, Any]]:
    """A line of play for the page: who, the card (if any) and the sentence."""
    return [
        {
            "who": who(a["seat"], me),
            "card": a.get("play"),
            "label": action_label(a, me),
        }
        for a in actions
    ]


def outcome_text(outcome: dict[str, Any], me: int) -> str:
    """How the deal ends on a line: the points and who wins it."""
    points = outcome["points"]
    mine, theirs = points[me], points[1 - me]
    capote = outcome.get("capote")
    if capote is not None and capote[1] is not None:
        if capote[0] == me:
            return (
                _("Your capote is made: you win the deal.")
                if capote[1]
                else _("Your capote fails: they win the deal.")
            )
        return (
            _("Their capote is made: they win the deal.")
            if capote[1]
            else _("Their capote fails: you win the deal.")
        )
    winner = outcome.get("winner")
    values = {"mine": mine, "theirs": theirs}
    if winner == me:
        return _("The deal ends %(mine)s to %(theirs)s: you win it.") % values
    if winner is None:
        return (
            _("The deal ends %(mine)s to %(theirs)s: nobody passes 100, a mano de vuelta follows.")
            % values
        )
    return _("The deal ends %(mine)s to %(theirs)s: they win it.") % values


def hint_text(puzzle: Puzzle, step: int, themes: list[str]) -> str:
    """A hint for the player's move ``step``: the theme, and the suit of the right card (or
    that the right action is not a card)."""
    from .labels import THEME_HINTS

    best = Action.from_dict(puzzle.steps[step]["best"], 2)
    parts = [str(THEME_HINTS[themes[0]])] if themes else []
    if best.kind == "play":
        parts.append(_("The right card is of %(suit)s.") % {"suit": card_suit(best.card.suit)})
    elif best.kind == "sing":
        parts.append(_("The right move is not a card."))
    elif best.kind == "capote":
        parts.append(_("The right move is your decision on the capote."))
    else:
        parts.append(_("The right move is not a card."))
    return " ".join(parts)
