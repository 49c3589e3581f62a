"""The cards of one deal, how they are dealt (RULES.md §4, §9), and their checks.

A :class:`Deal` is exactly what a record's deal holds besides its actions: dealer, hands,
trump card and stock. Dealing is explicit and separate from the state, so a game can be
rebuilt from its record in any process.

>>> import random
>>> from games.engine.options import Options
>>> d = deal_cards(Options.from_dict({"players": 2}), dealer=1, rng=random.Random(7))
>>> [len(h) for h in d.hands], len(d.stock), d.trump_card in d.stock
([8, 8], 23, False)
>>> p = deal_cards(Options.from_dict({"variant": "pocha", "players": 3}), 0, random.Random(1), 2)
>>> [len(h) for h in p.hands], len(p.stock), p.trump_card == p.stock[0]
([3, 3, 3], 27, True)
"""

from __future__ import annotations

import secrets
from collections import Counter
from dataclasses import dataclass
from typing import Any

from .cards import CARD_TEXT, CARDS, DECK_36, DECK_40, Card, deck_for, parse_card_index
from .options import Options, Rules


class InvalidRecord(ValueError):
    """A record (or a deal) that cannot describe a game: wrong cards, sizes, seats, shapes."""


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of one deal as dealt.

    ``stock`` is top first. With a stock (2 players) it excludes the face-up ``trump_card``,
    which lies under it. In pocha it holds the undealt cards and ``trump_card`` is its first
    card when there is one; otherwise ``trump_card`` is in the dealer's hand.
    """

    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    trump_card: Card
    stock: tuple[Card, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "hands": [[str(c) for c in h] for h in self.hands],
            "trump_card": str(self.trump_card),
            "stock": [str(c) for c in self.stock],
        }

    @staticmethod
    def from_dict(data: Any) -> Deal:
        """Parse the card part of a record's deal; :class:`InvalidRecord` on bad shapes.

        This checks form only; :func:`check_deal` checks the cards against the rules.
        """
        if not isinstance(data, dict):
            raise InvalidRecord("Each deal must be an object.")
        dealer = data.get("dealer")
        if not isinstance(dealer, int) or isinstance(dealer, bool):
            raise InvalidRecord("Each deal needs an integer dealer.")
        hands = data.get("hands")
        if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
            raise InvalidRecord("A deal's hands must be a list of lists of cards.")
        stock = data.get("stock", [])
        if not isinstance(stock, list):
            raise InvalidRecord("A deal's stock must be a list of cards.")
        if "trump_card" not in data:
            raise InvalidRecord("Each deal needs its trump_card.")
        try:
            return Deal(
                dealer,
                tuple(tuple(CARDS[parse_card_index(t)] for t in h) for h in hands),
                CARDS[parse_card_index(data["trump_card"])],
                tuple(CARDS[parse_card_index(t)] for t in stock),
            )
        except ValueError as exc:
            raise InvalidRecord(f"Bad card in a deal: {exc}.") from None


def hand_size(rules: Rules, deal_index: int) -> int:
    """Cards per hand in deal ``deal_index`` (the pocha ladder, else fixed)."""
    return rules.ladder[deal_index] if rules.ladder else rules.hand_size


def deal_cards(
    options: Options,
    dealer: int,
    rng: Any = None,
    deal_index: int = 0,
) -> Deal:
    """Shuffle with ``rng`` and deal (§4, §9). ``deal_index`` matters only for pocha's ladder.

    ``rng`` defaults to :class:`secrets.SystemRandom`; a seeded ``random.Random`` deals again
    the same cards (the robots' arena).
    """
    rules = options.rules
    rng = rng if rng is not None else secrets.SystemRandom()
    n = rules.players
    if not 0 <= dealer < n:
        raise ValueError(f"dealer {dealer} is out of range for {n} players")
    deck = list(deck_for(n))
    rng.shuffle(deck)
    size = hand_size(rules, deal_index)
    # Deal from the dealer's right round to the dealer, so the dealer's card comes last.
    hands: list[list[int]] = [[] for _ in range(n)]
    for k in range(n):
        seat = (dealer + 1 + k) % n
        hands[seat] = deck[k * size : (k + 1) * size]
    rest = deck[n * size :]
    if rules.has_stock:
        trump, stock = rest[0], rest[1:]
    elif rest:  # pocha with undealt cards: the first of them sets trump
        trump, stock = rest[0], rest
    else:  # every card dealt: the dealer's last card sets trump and stays in hand
        trump, stock = hands[dealer][-1], []
    card = CARDS.__getitem__
    return Deal(
        dealer, tuple(tuple(map(card, h)) for h in hands), CARDS[trump], tuple(map(card, stock))
    )


def check_deal(rules: Rules, deal_index: int, deal: Deal) -> None:
    """Raise :class:`InvalidRecord` unless ``deal`` can be deal number ``deal_index``."""
    n = rules.players
    if not 0 <= deal.dealer < n:
        raise InvalidRecord(f"Deal {deal_index}: dealer {deal.dealer} is out of range.")
    if len(deal.hands) != n:
        raise InvalidRecord(f"Deal {deal_index}: there must be {n} hands, not {len(deal.hands)}.")
    if rules.ladder and deal_index >= len(rules.ladder):
        raise InvalidRecord(f"Deal {deal_index} is listed after the game ended.")
    size = hand_size(rules, deal_index)
    for seat, hand in enumerate(deal.hands):
        if len(hand) != size:
            raise InvalidRecord(
                f"Deal {deal_index}: seat {seat} must be dealt {size} cards, not {len(hand)}."
            )
    cards = [c.index for h in deal.hands for c in h]
    cards += [c.index for c in deal.stock]
    if rules.has_stock:
        cards.append(deal.trump_card.index)
    deck = deck_for(n)
    if len(cards) != len(deck) or set(cards) != _DECK_SETS[len(deck)]:
        _explain_cards(deal_index, cards, deck)
    trump = deal.trump_card
    if rules.has_stock:
        return
    if rules.ladder and deal.stock:  # pocha leaves cards undealt
        if trump != deal.stock[0]:
            raise InvalidRecord(
                f"Deal {deal_index}: the trump card must be the first undealt card."
            )
    elif deal.stock:
        raise InvalidRecord(f"Deal {deal_index}: without a stock, stock must be empty.")
    elif trump not in deal.hands[deal.dealer]:
        raise InvalidRecord(f"Deal {deal_index}: the trump card must be in the dealer's hand.")


_DECK_SETS = {40: frozenset(DECK_40), 36: frozenset(DECK_36)}


def _explain_cards(deal_index: int, cards: list[int], deck: tuple[int, ...]) -> None:
    """Raise InvalidRecord naming the first card repeated, foreign or missing."""
    counts = Counter(cards)
    for c, k in counts.items():
        if c not in deck:
            raise InvalidRecord(f"Deal {deal_index}: card {CARD_TEXT[c]} is not in the deck.")
        if k > 1:
            raise InvalidRecord(f"Deal {deal_index}: card {CARD_TEXT[c]} is repeated.")
    missing = [CARD_TEXT[c] for c in deck if c not in counts]
    raise InvalidRecord(f"Deal {deal_index}: card {missing[0]} is missing.")
