"""What one seat knows of the cards it cannot see, from its :class:`~.view.SeatView` alone.

Robots, determinized copies and count-outs all start from the same facts, worked out here
once:

- the cards the seat cannot see (``unseen``): in other hands, the hidden stock, or pocha's
  undealt cards;
- the holder of some of them (``holder``): a sung rey and caballo stay with the singer, a
  trump card taken in an exchange with the one who took it, the face-up card of the 12th
  trick's draws with that trick's loser, and, when every card is dealt, the dealer's face-up
  trump card with the dealer;
- what the duties of §5 revealed (``ceiling``): a follower who did not follow holds none of
  the led suit, one who did not beat holds nothing above the winning card, one who could not
  trump holds no trump (or none above the trump on the table). Only tricks played under the
  full duties with no draw after them teach this: every trick without a stock, the arrastre
  with one.

Cards are the engine's card ints; ``place`` is ``card % 10`` (0 the as, 9 the 2), so a
ceiling of ``p`` for a suit means "no card of that suit with a place below ``p``", and
:data:`NO_CARD` means "none of that suit at all".

>>> import random
>>> from games.engine import new_game
>>> state = new_game({"variant": "tute", "players": 4}, random.Random(3))
>>> known = known_cards(state.view(state.turn))
>>> len(known.unseen), list(known.holder.values()) == [state.dealer]
(30, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .cards import SUIT_OF, SUITS, caballo, deck_for, rey
from .rulebook import beats, full_duties_apply, trick_winner_seat
from .view import SeatView

NO_CARD = 10  # a ceiling of 10: the seat holds no card of that suit


@dataclass(frozen=True, slots=True)
class KnownCards:
    """One seat's knowledge of the hidden cards; see the module's docstring."""

    seat: int
    unseen: frozenset[int]
    holder: Mapping[int, int]  # unseen card -> the other seat known to hold it
    ceiling: Mapping[int, tuple[int, int, int, int]]  # other seat -> per suit
    outside: int  # unseen cards in no hand: the hidden stock, pocha's undealt cards
    hand_sizes: tuple[int, ...]

    def void(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` is known to hold no card of ``suit``."""
        return self.ceiling[seat][suit] >= NO_CARD

    def may_hold(self, seat: int, card: int) -> bool:
        """Whether ``seat`` (another seat) may hold the unseen ``card``."""
        known = self.holder.get(card)
        if known is not None:
            return known == seat
        return card in self.unseen and card % 10 >= self.ceiling[seat][SUIT_OF[card]]


def known_cards(view: SeatView) -> KnownCards:
    """What ``view``'s seat knows of the cards it cannot see."""
    if view.seat is None or view.hand is None:
        raise ValueError("Only a seat's view knows cards; a spectator's holds no hand.")
    seat, n = view.seat, view.players
    rules = view.options.rules
    deck = deck_for(n)
    deal_size = rules.ladder[view.deal_number] if rules.ladder else rules.hand_size
    dealt_all = not rules.has_stock and n * deal_size == len(deck)
    face_up = view.trump_card.index if view.trump_card is not None else -1
    # The face-up card lies in no hand while under the stock, or when pocha leaves it undealt.
    face_up_shown = view.trump_in_stock or (not rules.has_stock and not dealt_all)
    seen = {c.index for c in view.hand}
    seen.update(c.index for t in view.tricks for _, c in t)
    seen.update(c.index for _, c in view.trick)
    if face_up_shown:
        seen.add(face_up)
    unseen = frozenset(c for c in deck if c not in seen)

    holder: dict[int, int] = {}
    for singer, suit_letter, _value in view.cantes:
        suit = SUITS.index(suit_letter)
        holder[rey(suit)] = holder[caballo(suit)] = singer
    for who, _gave, took in view.exchanges:
        holder[took.index] = who
    trump = SUITS.index(view.trump_suit) if view.trump_suit else -1
    stock_tricks = (len(deck) - n * rules.hand_size) // n if rules.has_stock else 0
    if dealt_all and view.dealer is not None:
        holder[face_up] = view.dealer
    elif rules.has_stock and not view.trump_in_stock and len(view.tricks) >= stock_tricks:
        # The loser of the trick that emptied the stock drew the face-up card (§5).
        last_draw = _ints(view.tricks[stock_tricks - 1])
        holder[face_up] = 1 - trick_winner_seat(
            trump, n, last_draw[0][0], [c for _, c in last_draw]
        )
    holder = {c: s for c, s in holder.items() if c in unseen and s != seat}

    if rules.has_stock:
        outside = view.stock_size - view.trump_in_stock
    else:
        outside = len(deck) - n * deal_size - (not dealt_all)

    ceiling = {s: [0, 0, 0, 0] for s in range(n) if s != seat}
    lasting = list(view.tricks[stock_tricks:])  # no draw came after these
    if view.trick and full_duties_apply(rules.has_stock, rules.stock_play, view.stock_size):
        lasting.append(view.trick)
    for trick in lasting:
        _learn_from_trick(_ints(trick), trump, ceiling, seat)
    return KnownCards(
        seat=seat,
        unseen=unseen,
        holder=holder,
        ceiling={s: (c[0], c[1], c[2], c[3]) for s, c in ceiling.items()},
        outside=outside,
        hand_sizes=view.hand_sizes,
    )


def _ints(trick: Sequence[tuple[int, object]]) -> list[tuple[int, int]]:
    return [(s, c.index) for s, c in trick]  # type: ignore[attr-defined]


def _learn_from_trick(
    plays: list[tuple[int, int]], trump: int, ceiling: dict[int, list[int]], me: int
) -> None:
    """Ceilings from one trick played under the full duties of §5."""
    led = SUIT_OF[plays[0][1]]
    win = plays[0][1]
    for seat, card in plays[1:]:
        if seat != me:
            _learn_from_follow(ceiling[seat], card, led, win, trump)
        if beats(card, win, trump):
            win = card


def _learn_from_follow(ceiling: list[int], card: int, led: int, win: int, trump: int) -> None:
    """What one follower's card says, given the card winning the trick before it."""
    suit = SUIT_OF[card]
    if suit == led:
        # Following under a led-suit winner without beating: nothing above it was held.
        if SUIT_OF[win] == led and card > win:
            ceiling[led] = max(ceiling[led], win % 10 + 1)
        return
    ceiling[led] = NO_CARD
    if suit == trump:
        if SUIT_OF[win] == trump and card > win:  # under-trumped: could not overtrump
            ceiling[trump] = max(ceiling[trump], win % 10 + 1)
    elif SUIT_OF[win] == trump:  # no trump above the one on the table
        ceiling[trump] = max(ceiling[trump], win % 10 + 1)
    else:  # could not trump at all
        ceiling[trump] = NO_CARD
