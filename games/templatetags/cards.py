"""The site's own Spanish-deck cards, drawn as inline SVG.

``{% card "12O" %}`` draws the rey de oros; ``size`` is ``sm``, ``md`` (default) or ``lg``.
Each card is an image named in the current language ("Rey de oros", "King of oros"): suit
names stay in Spanish in every language, as players say them. ``{% card_name "12O" %}`` gives
the name alone. The live table reuses the tag, so the drawing depends only on the card.

The face follows a Spanish deck: the rank number in two corners, the *pinta* (the frame broken
once for copas, twice for espadas, three times for bastos, whole for oros), the suit in the
middle, and the initial of the figure (S, C, R) on the sota, caballo and rey.
"""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from games.engine.cards import Card

register = template.Library()

RANK_NAMES = {
    1: _("Ace"),
    2: _("Two"),
    3: _("Three"),
    4: _("Four"),
    5: _("Five"),
    6: _("Six"),
    7: _("Seven"),
    10: _("Jack"),  # sota
    11: _("Knight"),  # caballo
    12: _("King"),  # rey
}
# One sentence per suit, not "%(rank)s of %(suit)s": French elides before a vowel (d’oros).
CARD_NAMES = {
    "O": _("%(rank)s of oros"),
    "C": _("%(rank)s of copas"),
    "E": _("%(rank)s of espadas"),
    "B": _("%(rank)s of bastos"),
}
SUIT_LABELS = {"O": "oros", "C": "copas", "E": "espadas", "B": "bastos"}
# "of oros" as a phrase of its own, for sentences about a suit ("the king and knight of oros").
OF_SUIT = {
    "O": _("of oros"),
    "C": _("of copas"),
    "E": _("of espadas"),
    "B": _("of bastos"),
}
SIZES = ("sm", "md", "lg")

# Ink of each suit, as on a Spanish deck: gold coins, red cups, blue swords, green clubs.
INK = {"O": "#9c6f00", "C": "#b3262d", "E": "#24549e", "B": "#2e7033"}
FIGURE_LETTERS = {10: "S", 11: "C", 12: "R"}
# Breaks in the top and bottom edges of the frame: the pinta that tells suits apart at a glance.
PINTA_BREAKS = {"O": (), "C": (32,), "E": (25, 39), "B": (19, 32, 45)}

# Where the suit symbols of a number card stand, as on the deck: one per point of its rank.
PIPS = {
    2: ((32, 32), (32, 64)),
    3: ((32, 28), (32, 48), (32, 68)),
    4: ((22, 32), (42, 32), (22, 64), (42, 64)),
    5: ((22, 30), (42, 30), (32, 48), (22, 66), (42, 66)),
    6: ((22, 28), (42, 28), (22, 48), (42, 48), (22, 68), (42, 68)),
    7: ((22, 25), (42, 25), (32, 37.5), (22, 50), (42, 50), (22, 70), (42, 70)),
}

# Suit symbols drawn in a 24×24 box.
SUIT_SYMBOLS = {
    "O": (
        '<circle cx="12" cy="12" r="10.5" fill="#f3c84b" stroke="#9c6f00" stroke-width="1.4"/>'
        '<circle cx="12" cy="12" r="7" fill="#f7d977" stroke="#9c6f00" stroke-width="0.9"/>'
        '<circle cx="12" cy="12" r="2.6" fill="#9c6f00"/>'
    ),
    "C": (
        '<path d="M3.5 3.5h17c0 6.2-3.6 10-8.5 10s-8.5-3.8-8.5-10z" fill="#d23b3b"'
        ' stroke="#8e1b22" stroke-width="1"/>'
        '<ellipse cx="12" cy="3.6" rx="8.5" ry="1.6" fill="#f0c14b" stroke="#8e1b22"'
        ' stroke-width="0.8"/>'
        '<rect x="10.6" y="13.2" width="2.8" height="5.6" fill="#f0c14b" stroke="#8e1b22"'
        ' stroke-width="0.6"/>'
        '<path d="M6.5 22.5c0-3 11-3 11 0z" fill="#d23b3b" stroke="#8e1b22" stroke-width="1"/>'
    ),
    "E": (
        '<path d="M12 .8l2.2 3v12.4h-4.4V3.8z" fill="#9fc0ea" stroke="#1d447f" stroke-width="0.9"/>'
        '<path d="M12 3v12.6" stroke="#1d447f" stroke-width="0.6"/>'
        '<rect x="5.5" y="16" width="13" height="2.4" rx="1.2" fill="#f0c14b" stroke="#1d447f"'
        ' stroke-width="0.8"/>'
        '<rect x="10.7" y="18.4" width="2.6" height="3.4" fill="#24549e"/>'
        '<circle cx="12" cy="22.4" r="1.5" fill="#f0c14b" stroke="#1d447f" stroke-width="0.6"/>'
    ),
    "B": (
        '<path d="M7.2 22.6L15.4 2.4" stroke="#6d4c1f" stroke-width="4.6"'
        ' stroke-linecap="round"/>'
        '<path d="M7.2 22.6L15.4 2.4" stroke="#a7793a" stroke-width="2.2"'
        ' stroke-linecap="round"/>'
        '<circle cx="10.2" cy="15.2" r="1.7" fill="#2e7033"/>'
        '<circle cx="13.6" cy="7.6" r="1.7" fill="#2e7033"/>'
        '<path d="M14.8 11.4c2.6-1.2 4.4-.6 5.2.6-1.8.9-3.6.8-5.2-.6z" fill="#3f9a45"/>'
        '<path d="M9.2 19c-2.6-.4-3.9.8-4.2 2.1 1.9.3 3.4-.4 4.2-2.1z" fill="#3f9a45"/>'
    ),
}


def _frame(suit: str, ink: str) -> str:
    """The pinta: a frame whose top and bottom edges break once per suit after oros."""
    left, right, top, bottom = 6, 58, 6, 90
    gap = 3.2
    parts = [f"M{left} {top}V{bottom}", f"M{right} {top}V{bottom}"]
    for y in (top, bottom):
        x = left
        for centre in PINTA_BREAKS[suit]:
            parts.append(f"M{x} {y}H{centre - gap}")
            x = centre + gap
        parts.append(f"M{x} {y}H{right}")
    return f'<path d="{"".join(parts)}" fill="none" stroke="{ink}" stroke-width="1.4"/>'


@lru_cache(maxsize=64)
def _card_body(text: str) -> str:
    """Everything inside the card's <svg> but its name; the same in every language."""
    card = Card.parse(text)
    ink = INK[card.suit]
    symbol = SUIT_SYMBOLS[card.suit]
    index = (
        f'<text x="9" y="20" font-size="13" font-weight="700" fill="{ink}"'
        f" font-family=\"Georgia, 'Times New Roman', serif\">{card.rank}</text>"
    )
    figure = FIGURE_LETTERS.get(card.rank)
    if figure:
        centre = (
            f'<text x="32" y="55" text-anchor="middle" font-size="30" font-weight="700"'
            f' fill="{ink}" font-family="Georgia, \'Times New Roman\', serif">{figure}</text>'
            f'<g transform="translate(23 60) scale(.75)">{symbol}</g>'
        )
    elif card.rank == 1:
        centre = f'<g transform="translate(13.4 29.4) scale(1.55)">{symbol}</g>'
    else:
        centre = "".join(
            f'<g transform="translate({x - 7:g} {y - 7:g}) scale(.5833)">{symbol}</g>'
            for x, y in PIPS[card.rank]
        )
    return (
        '<rect x="1" y="1" width="62" height="94" rx="6" fill="#fffdf6" stroke="#8c8576"'
        ' stroke-width="1.2"/>'
        f"{_frame(card.suit, ink)}{index}"
        f'<g transform="rotate(180 32 48)">{index}</g>{centre}'
    )


def card_label(text: str) -> str:
    """The card's name in the current language: "Rey de oros", "King of oros"."""
    card = Card.parse(text)
    return str(CARD_NAMES[card.suit]) % {"rank": RANK_NAMES[card.rank]}


@register.simple_tag
def card(text: str, size: str = "md") -> SafeString:
    """An inline SVG image of one card, named for screen readers in the current language."""
    if size not in SIZES:
        raise template.TemplateSyntaxError(f"card size must be one of {SIZES}, not {size!r}")
    card = Card.parse(str(text))
    label = card_label(str(card))
    return format_html(
        '<svg class="card card-{size}" viewBox="0 0 64 96" role="img" aria-label="{label}"'
        ' data-card="{code}" xmlns="http://www.w3.org/2000/svg"><title>{label}</title>{body}</svg>',
        size=size,
        label=label,
        code=str(card),
        body=mark_safe(_card_body(str(card))),  # built above from constants only
    )


@register.simple_tag
def card_name(text: str) -> str:
    """The card's name alone, in the current language."""
    return card_label(str(text))


@register.simple_tag
def card_suit(letter: str) -> str:
    """A suit's name from its letter ("O": "oros"); the same in every language."""
    return SUIT_LABELS[letter]
