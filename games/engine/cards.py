"""The Spanish 40-card deck (RULES.md §1).

Internally a card is an int ``suit * 10 + place``, where ``place`` is its position in the
strength order 1, 3, 12, 11, 10, 7, 6, 5, 4, 2 (0 is the as, the strongest). So within a suit
a *smaller* int is a *stronger* card, and sorting ints sorts cards the way NOTATION.md lists
them: suits O, C, E, B, strongest first.

The public face of a card is the interned, frozen :class:`Card`; there is one object per card.

>>> c = Card.parse("12O")
>>> c.rank, c.suit, c.points, str(c)
(12, 'O', 4, '12O')
>>> c is CARDS[c.index]
True
>>> sorted(parse_cards(["2O", "1O", "3C", "12O"]), key=lambda k: k.index)
[Card('1O'), Card('12O'), Card('2O'), Card('3C')]
"""

from __future__ import annotations

from dataclasses import dataclass, field

SUITS = "OCEB"
SUIT_NAMES = {"O": "oros", "C": "copas", "E": "espadas", "B": "bastos"}
# Ranks from strongest to weakest (§1); a card's place in this tuple is its index within a suit.
RANKS_BY_STRENGTH = (1, 3, 12, 11, 10, 7, 6, 5, 4, 2)
RANK_POINTS = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2}
REY, CABALLO = 12, 11

# Per-card lookup tables indexed by the card int: the hot path reads these, never objects.
SUIT_OF = tuple(i // 10 for i in range(40))
RANK_OF = tuple(RANKS_BY_STRENGTH[i % 10] for i in range(40))
POINTS_OF = tuple(RANK_POINTS.get(RANK_OF[i], 0) for i in range(40))
STRENGTH_OF = tuple(9 - i % 10 for i in range(40))

DECK_40 = tuple(range(40))
# Three players play without the four 2s (§3); the 2 is the last place of each suit.
DECK_36 = tuple(i for i in range(40) if RANK_OF[i] != 2)


def card_index(rank: int, suit: str) -> int:
    """The card int of ``rank`` of ``suit``; ValueError when there is no such card.

    >>> card_index(1, "O"), card_index(2, "B")
    (0, 39)
    """
    if suit not in SUITS or rank not in RANKS_BY_STRENGTH:
        raise ValueError(f"there is no card {rank}{suit} in the Spanish deck")
    return SUITS.index(suit) * 10 + RANKS_BY_STRENGTH.index(rank)


def rey(suit: int) -> int:
    """Card int of the rey (12) of a suit index."""
    return suit * 10 + 2


def caballo(suit: int) -> int:
    """Card int of the caballo (11) of a suit index."""
    return suit * 10 + 3


@dataclass(frozen=True, slots=True)
class Card:
    """One card. Build with :meth:`Card.parse` or ``CARDS[i]``; both give the interned object.

    ``Card(12, "O")`` works too and compares equal to the interned card.
    """

    rank: int
    suit: str
    index: int = field(default=-1, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.index < 0:
            object.__setattr__(self, "index", card_index(self.rank, self.suit))

    @staticmethod
    def parse(text: str) -> Card:
        """Read ``"12O"`` style text; ValueError when it is not a card.

        >>> Card.parse("10B").points
        2
        """
        if not isinstance(text, str) or not text or text[-1:] not in SUITS:
            raise ValueError(f"{text!r} is not a card (rank then suit, like 12O)")
        rank_text = text[:-1]
        if not rank_text.isdigit() or rank_text.startswith("0"):
            raise ValueError(f"{text!r} is not a card (rank then suit, like 12O)")
        try:
            return CARDS[card_index(int(rank_text), text[-1])]
        except ValueError:
            raise ValueError(f"{text!r} is not a card of the Spanish deck") from None

    @property
    def points(self) -> int:
        return POINTS_OF[self.index]

    @property
    def strength(self) -> int:
        """9 for the as down to 0 for the 2; compare only within a suit."""
        return STRENGTH_OF[self.index]

    @property
    def suit_index(self) -> int:
        return SUIT_OF[self.index]

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"

    def __repr__(self) -> str:
        return f"Card('{self.rank}{self.suit}')"


CARDS: tuple[Card, ...] = tuple(Card(RANK_OF[i], SUITS[SUIT_OF[i]], i) for i in range(40))
CARD_TEXT: tuple[str, ...] = tuple(str(c) for c in CARDS)
_BY_TEXT = {t: i for i, t in enumerate(CARD_TEXT)}


def parse_card_index(text: object) -> int:
    """Card int from its text, fast path for records; ValueError when it is not a card."""
    i = _BY_TEXT.get(text) if isinstance(text, str) else None
    if i is None:
        Card.parse(text)  # type: ignore[arg-type]  # raises with the precise reason
        raise ValueError(f"{text!r} is not a card")  # pragma: no cover
    return i


def parse_cards(texts: list[str]) -> list[Card]:
    """Parse a list of card texts."""
    return [CARDS[parse_card_index(t)] for t in texts]


def deck_for(players: int) -> tuple[int, ...]:
    """The card ints in play: 36 cards with 3 players, else 40 (§3)."""
    return DECK_36 if players == 3 else DECK_40
