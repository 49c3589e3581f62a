"""Determinization: a copy of a game where the cards hidden from one seat are dealt anew.

A searching robot samples such copies and plays them out with :meth:`GameState.clone`.
:func:`determinize` reads only what ``seat`` may see (its own hand, the cards shown face up,
cantes, exchanges, who failed to follow) plus hand and stock sizes; the hidden cards of the
real game only decide which cards are unknown, never where they go.

>>> import random
>>> from games.engine import new_game
>>> g = new_game({"players": 4}, random.Random(1), first_dealer=3)
>>> d = determinize(g, 0, random.Random(2))
>>> d.hands[0] == g.hands[0], [len(h) for h in d.hands] == [len(h) for h in g.hands]
(True, True)

The copy is for playouts only: its record still names the real deal.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, Self, TypeVar

from .cards import deck_for
from .inference import known_cards
from .options import Rules
from .view import SeatView


class Dealt(Protocol):
    """What determinizing reads of a game (a GameState): the state calls this module, and
    this module never imports the state back."""

    n: int
    rules: Rules

    def view(self, seat: int | None) -> SeatView: ...

    def with_hidden_cards(self, hands: Mapping[int, list[int]], stock: list[int]) -> Self: ...


D = TypeVar("D", bound=Dealt)


def voids(state: Dealt) -> list[set[int]]:
    """Suits each seat is known, by every other seat, to lack (see :mod:`.inference`)."""
    n = state.n
    out = []
    for seat in range(n):
        known = known_cards(state.view((seat + 1) % n))
        out.append({suit for suit in range(4) if known.void(seat, suit)})
    return out


def determinize(state: D, seat: int, rng: Any) -> D:
    """A clone of ``state`` where every card hidden from ``seat`` is placed at random,
    consistent with what ``seat`` knows (:func:`.inference.known_cards`: known holders,
    voids and the ceilings the duties revealed)."""
    known = known_cards(state.view(seat))
    # Pocha's undealt cards are unknown too: whatever the hands do not take stays undealt.
    pool = [c for c in deck_for(state.n) if c in known.unseen and c not in known.holder]
    need = {s: size for s, size in enumerate(known.hand_sizes) if s != seat}
    fixed: dict[int, list[int]] = {s: [] for s in need}
    for card, holder in known.holder.items():
        fixed[holder].append(card)
    rng.shuffle(pool)
    hands = match_hidden_cards(pool, need, fixed, known.may_hold)
    taken = {c for h in hands.values() for c in h}
    stock = [c for c in pool if c not in taken] if state.rules.has_stock else []
    return state.with_hidden_cards(hands, stock)


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
