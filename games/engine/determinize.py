"""Determinization: a copy of a game where the cards hidden from one seat are dealt anew.

A searching robot samples such copies and plays them out with :meth:`GameState.clone`.
:func:`determinize` reads only what ``seat`` may see (its own hand, the cards shown face up,
cantes, exchanges, who failed to follow) plus hand and stock sizes; the hidden cards of the
real game only decide which cards are unknown, never where they go.

>>> import random
>>> from games.engine.state import new_game
>>> g = new_game({"players": 4}, random.Random(1), first_dealer=3)
>>> d = determinize(g, 0, random.Random(2))
>>> d.hands[0] == g.hands[0], [len(h) for h in d.hands] == [len(h) for h in g.hands]
(True, True)

The copy is for playouts only: its record still names the real deal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .cards import SUIT_OF, caballo, deck_for, rey
from .state import GameState


def known_holders(state: GameState, seat: int) -> dict[int, int]:
    """Cards of other seats that ``seat`` knows the place of: card -> holder.

    Sung reyes and caballos, a trump card taken in an exchange or on the last draw, and
    the dealer's face-up trump card, as long as they have not been played.
    """
    played = {c for _, cards in state.tricks for c in cards} | set(state.trick)
    known: dict[int, int] = {}
    for singer, suit, _ in state.cantes:
        known[rey(suit)] = singer
        known[caballo(suit)] = singer
    for who, _gave, took in state.exchanges:
        known[took] = who
    rules = state.rules
    if rules.has_stock:
        if not state.trump_in_stock and len(state.tricks) >= 12:
            # The loser of the 12th trick took the face-up card.
            leader, cards = state.tricks[11]
            winner = trick_winner_seat(state.trump, state.n, leader, cards)
            known[state.trump_card] = 1 - winner
    else:
        deal = state._deal
        if deal is not None and deal.trump_card.index not in {c.index for c in deal.stock}:
            known[deal.trump_card.index] = state.dealer
    return {c: s for c, s in known.items() if c not in played and s != seat}


def voids(state: GameState) -> list[set[int]]:
    """Suits each seat is known to lack, from tricks where the full duties of §5 applied
    and no card was drawn afterwards (no stock, or the 2-player arrastre)."""
    n = state.n
    out: list[set[int]] = [set() for _ in range(n)]
    rules = state.rules
    tricks = [*state.tricks, (state.trick_leader, state.trick)] if state.trick else state.tricks
    for number, (leader, cards) in enumerate(tricks):
        if rules.has_stock and number < 12:
            continue  # cards drawn later may refill any suit
        led = SUIT_OF[cards[0]]
        trump_on_table = led == state.trump
        for i in range(1, len(cards)):
            who = (leader + i) % n
            suit = SUIT_OF[cards[i]]
            if suit != led:
                out[who].add(led)
                if suit != state.trump and not trump_on_table:
                    out[who].add(state.trump)
            if suit == state.trump:
                trump_on_table = True
    return out


def determinize(state: GameState, seat: int, rng: Any) -> GameState:
    """A clone of ``state`` where every card hidden from ``seat`` is placed at random,
    consistent with what ``seat`` knows (see :func:`known_holders` and :func:`voids`)."""
    n = state.n
    copy = state.clone()
    known = known_holders(state, seat)
    void = voids(state)
    visible = set(state.hands[seat]) | {c for _, cards in state.tricks for c in cards}
    visible |= set(state.trick)
    if state.trump_in_stock or state.rules.bids:
        visible.add(state.trump_card)  # face up under the stock, or pocha's turned-up card
    # Pocha's undealt cards are unknown too: whatever the hands do not take stays undealt.
    pool = [c for c in deck_for(n) if c not in visible and c not in known]
    need = {s: len(state.hands[s]) for s in range(n) if s != seat}
    fixed: dict[int, list[int]] = {s: [] for s in need}
    for card, holder in known.items():
        fixed[holder].append(card)
    rng.shuffle(pool)
    hands = match_hidden_cards(
        pool, need, fixed, lambda seat, card: SUIT_OF[card] not in void[seat]
    )
    taken = {c for h in hands.values() for c in h}
    copy.stock = [c for c in pool if c not in taken] if state.rules.has_stock else []
    for s, hand in hands.items():
        copy.hands[s] = sorted(hand)
        copy.masks[s] = sum(1 << c for c in hand)
    copy._cache = None
    return copy


def match_hidden_cards(
    pool: list[int],
    need: dict[int, int],
    fixed: dict[int, list[int]],
    fits: Callable[[int, int], bool],
    rng: Any = None,
) -> dict[int, list[int]]:
    """Hands for the seats of ``need`` (seat -> hand size): the cards of ``fixed`` (known
    holders) plus cards of ``pool`` (already shuffled), each where ``fits(seat, card)``.

    A greedy deal can paint itself into a corner (the last seat left with only cards of a
    suit it lacks), so open slots are matched to cards with augmenting paths (Kuhn's
    algorithm). The real hands are one such matching, so one always exists. With ``rng``
    the slots are taken in random order too.
    """
    slots = [s for s in need for _ in range(need[s] - len(fixed[s]))]
    if rng is not None:
        rng.shuffle(slots)
    owner: dict[int, int] = {}  # card -> index of the slot it fills

    def place(slot: int, seen: set[int]) -> bool:
        seat = slots[slot]
        for card in pool:
            if card in seen or not fits(seat, card):
                continue
            seen.add(card)
            if card not in owner or place(owner[card], seen):
                owner[card] = slot
                return True
        return False

    for slot in range(len(slots)):
        if not place(slot, set()):
            raise AssertionError("no deal of the hidden cards fits what the seat knows")
    hands = {s: list(fixed[s]) for s in need}
    for card, slot in owner.items():
        hands[slots[slot]].append(card)
    return hands


def trick_winner_seat(trump: int, n: int, leader: int, cards: list[int]) -> int:
    """The seat that takes a trick of ``cards``, led by ``leader`` at a table of ``n``."""
    best = 0
    for i in range(1, len(cards)):
        c, b = cards[i], cards[best]
        if SUIT_OF[c] == SUIT_OF[b]:
            if c < b:
                best = i
        elif SUIT_OF[c] == trump:
            best = i
    return (leader + best) % n
