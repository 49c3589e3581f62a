"""Each rule of RULES.md written once: the state, positions, robots and rules pages call these.

Cards are the engine's card ints (``suit * 10 + place``, see :mod:`.cards`): within a suit a
*smaller* int is a *stronger* card. Hands passed to :func:`follower_duties` are sorted.

>>> beats(card_index(1, "O"), card_index(3, "O"), trump=2)  # the as over the three
True
>>> trick_winner([card_index(3, "O"), card_index(2, "E")], trump=2)  # a trump takes it
1
>>> cante_value(0, trump=0), cante_value(1, trump=0)
(40, 20)
>>> pocha_hand_score(bid=2, taken=2), pocha_hand_score(bid=0, taken=3)
(20, -15)
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from .cards import POINTS_OF, RANK_OF, SUIT_OF, caballo, card_index, rey
from .refusals import Refusal

# §5: the duties that choose a follower's cards, each the reason the others are refused.
FOLLOW_SUIT, BEAT_LED = Refusal.FOLLOW_SUIT, Refusal.BEAT_LED
TRUMP, OVERTRUMP = Refusal.TRUMP, Refusal.OVERTRUMP
ANSWER_TRUMP_LEAD = Refusal.ANSWER_TRUMP_LEAD

# §8: the points of a deal.
DECK_POINTS = sum(POINTS_OF)  # 120
LAST_TRICK_BONUS = 10  # the diez de últimas
DEAL_POINTS = DECK_POINTS + LAST_TRICK_BONUS  # 130, cantes aside
HABANERO_OVER = 100  # habanero: a deal is won with more than this
# §7: cantes.
CANTE_TRUMP = 40
CANTE_PLAIN = 20
# §9: a pocha hand's score.
POCHA_EXACT = 10  # taking exactly the bid
POCHA_PER_TRICK = 5  # ... plus this per trick taken
POCHA_MISS_PER_TRICK = 5  # otherwise minus this per trick of difference
# §6: the face-up trump ranks for which the 7, or the 2, of trump is exchanged.
SEVEN_FOR = (1, 3, 12, 11, 10)
TWO_FOR = (7, 6, 5, 4)
_PLACE_OF_7 = card_index(7, "O")  # a card's place within its suit (oros is suit 0)
_PLACE_OF_2 = card_index(2, "O")

# §5: how cards are played while a 2-player stock has cards.
FREE, FOLLOW_TRUMP, STRICT = "free", "follow_trump", "strict"

_ALL_REYES = sum(1 << rey(s) for s in range(4))
_ALL_CABALLOS = sum(1 << caballo(s) for s in range(4))


# ---------------------------------------------------------------------- §5 tricks


def beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` takes the trick from ``best``, the card winning it so far (§5)."""
    if SUIT_OF[card] == SUIT_OF[best]:
        return card < best
    return SUIT_OF[card] == trump


# BEATS[trump][best * 40 + card] is beats(card, best, trump): the state's hot path reads it.
BEATS: tuple[tuple[bool, ...], ...] = tuple(
    tuple(beats(card, best, trump) for best in range(40) for card in range(40))
    for trump in range(4)
)


def trick_winner(cards: Sequence[int], trump: int) -> int:
    """The position in ``cards`` (in play order) of the card that takes the trick (§5)."""
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], trump):
            best = i
    return best


def trick_winner_seat(trump: int, n: int, leader: int, cards: Sequence[int]) -> int:
    """The seat that takes a trick of ``cards`` led by ``leader`` at a table of ``n``."""
    return (leader + trick_winner(cards, trump)) % n


def full_duties_apply(has_stock: bool, stock_play: str, stock_left: int) -> bool:
    """Whether followers must follow, beat and trump now (§5): always without a stock; with
    one, in the arrastre (stock empty) or from the first trick with ``strict``."""
    return not has_stock or not stock_left or stock_play == STRICT


def must_answer_lead(
    has_stock: bool, stock_play: str, stock_left: int, led: int, trump: int
) -> bool:
    """Whether a follower holding cards of the led suit must play one now (§5): under the
    full duties, and with ``follow_trump`` while the stock lasts when trump was led."""
    if full_duties_apply(has_stock, stock_play, stock_left):
        return True
    return stock_play == FOLLOW_TRUMP and led == trump


def follower_duties(
    hand: list[int], led: int, win: int, trump: int
) -> tuple[list[int], Refusal | None]:
    """The cards a follower may play under the full duties of §5, and the duty that chose
    them: the reason any other card of the hand is refused (None when every card will do).

    ``hand`` is sorted, ``led`` the led suit and ``win`` the card winning the trick so far.
    A suit is a slice of the sorted hand and its stronger cards a prefix of that slice.
    """
    lo = bisect_left(hand, led * 10)
    hi = bisect_left(hand, led * 10 + 10, lo)
    if lo < hi:
        if SUIT_OF[win] != led:
            # Led suit is not trump and a trump is on the table: any card of the suit.
            return hand[lo:hi], FOLLOW_SUIT
        k = bisect_left(hand, win, lo, hi)  # cards above the best led-suit card
        return (hand[lo:k], BEAT_LED) if k > lo else (hand[lo:hi], FOLLOW_SUIT)
    lo = bisect_left(hand, trump * 10)
    hi = bisect_left(hand, trump * 10 + 10, lo)
    if lo == hi:
        return hand, None
    if SUIT_OF[win] == trump:
        # Overtrump if possible; there is no duty to under-trump.
        k = bisect_left(hand, win, lo, hi)
        return (hand[lo:k], OVERTRUMP) if k > lo else (hand, None)
    return hand[lo:hi], TRUMP


def stock_play_allowed(
    hand: list[int], led: int, trump: int, stock_play: str
) -> tuple[list[int], Refusal | None]:
    """The cards a follower may play while the stock has cards, unless ``strict`` (§5):
    any card (``free``), or any trump on a trump lead when one is held (``follow_trump``);
    and the duty that refuses the others, as :func:`follower_duties` gives it."""
    if stock_play == FOLLOW_TRUMP and led == trump:
        trumps = [c for c in hand if SUIT_OF[c] == trump]
        if trumps:
            return trumps, ANSWER_TRUMP_LEAD
    return hand, None


# ---------------------------------------------------------------------- §6 exchange


def exchange_card(trump_card: int) -> int | None:
    """The card given for the face-up ``trump_card`` (§6): the 7 of trump for a 1, 3, 12, 11
    or 10, the 2 of trump for a 7, 6, 5 or 4; None for a 2."""
    rank = RANK_OF[trump_card]
    trump = SUIT_OF[trump_card]
    if rank in SEVEN_FOR:
        return trump * 10 + _PLACE_OF_7
    if rank in TWO_FOR:
        return trump * 10 + _PLACE_OF_2
    return None


# ---------------------------------------------------------------------- §7 cantes


def cante_value(suit: int, trump: int) -> int:
    """What singing ``suit`` is worth: 40 in trump, 20 otherwise (§7)."""
    return CANTE_TRUMP if suit == trump else CANTE_PLAIN


def may_sing_after_trick(cantes: bool, cante_needs_stock: bool, stock_left: int) -> bool:
    """Whether a trick just won (draws done) opens a moment to sing (§7): in variants with
    cantes, and in 2-player tute only while the stock still has cards."""
    return cantes and (not cante_needs_stock or stock_left > 0)


def held_pairs(mask: int, sung: int) -> list[int]:
    """Suits whose rey and caballo a hand (bitmask of card ints) holds, not sung this deal;
    ``sung`` has bit ``rey(s)`` set for each suit sung (§7)."""
    # Bit rey(s) of ``pairs`` is set when the rey and the caballo (next bit) are held.
    pairs = mask & (mask >> 1) & _ALL_REYES & ~sung
    if not pairs:  # the common case, kept cheap
        return []
    return [s for s in range(4) if pairs >> rey(s) & 1]


def singable_suits(mask: int, sung: int, trump: int) -> list[int]:
    """Suits a hand may sing now: its unsung pairs, the 40 alone while it is there (§7)."""
    pairs = held_pairs(mask, sung)
    return [trump] if trump in pairs else pairs


def tute_ranks(mask: int) -> list[str]:
    """The tutes a hand (bitmask) holds: "11" for all four caballos, "12" for the reyes."""
    out = []
    if mask & _ALL_CABALLOS == _ALL_CABALLOS:
        out.append("11")
    if mask & _ALL_REYES == _ALL_REYES:
        out.append("12")
    return out


# ---------------------------------------------------------------------- §8, §9 scoring


def wins_over(points: int) -> bool:
    """Habanero: whether a total wins a deal, being over 100 (§8)."""
    return points > HABANERO_OVER


def pocha_hand_score(bid: int, taken: int) -> int:
    """A pocha hand's score: 10 + 5 per trick for the exact bid, else -5 per trick of
    difference (§9)."""
    if taken == bid:
        return POCHA_EXACT + POCHA_PER_TRICK * taken
    return -POCHA_MISS_PER_TRICK * abs(taken - bid)
