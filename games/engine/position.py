"""A playable position built from one seat's view and a guess at the hidden hands.

A robot sees only its :class:`~games.engine.SeatView`. To think ahead it guesses where the
cards it cannot see are, then needs a :class:`GameState` it can clone and play out.
:func:`position_from_view` builds that state from the view's public facts (tricks, the trick
on the table, cantes, points, whose turn it is) and the guessed hands. The guess comes from
the robot: the real hidden cards never enter this module.

Only deals without a stock or bids are supported (tute for 3 and 4 players), where every
card is in some hand. The position is for playouts: it has no record of the real deal.

>>> import random
>>> from games.engine import new_game
>>> g = new_game({"players": 4}, random.Random(5), first_dealer=0)
>>> for _ in range(6):
...     g.apply(g.legal_actions_for(g.turn)[0])
>>> view = g.view(1)
>>> guess = [list(h) for h in g.hands]  # a robot would guess seats 0, 2 and 3 instead
>>> p = position_from_view(view, guess)
>>> p.legal_actions() == g.legal_actions(), p.points == g.points, p.trick == g.trick
(True, True, True)
>>> p.view(1) == view
True
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import SUITS
from .state import PLAY, GameState
from .view import SeatView


def position_from_view(view: SeatView, hands: Sequence[Sequence[int]]) -> GameState:
    """A :class:`GameState` at ``view``'s moment, with ``hands`` (card ints per seat).

    ``hands[view.seat]`` must be the seat's own hand and every hand must have the size the
    view shows; raises :class:`ValueError` otherwise, or when the variant has a stock or
    bids, or the deal is not being played.
    """
    rules = view.options.rules
    if rules.has_stock or rules.bids:
        raise ValueError("Positions from a view need a deal with every card in hand.")
    if view.phase != PLAY or view.game_over or view.seat is None:
        raise ValueError("Positions from a view need a seat in a deal being played.")
    own = sorted(c.index for c in view.hand or ())
    if sorted(hands[view.seat]) != own:
        raise ValueError("The guessed hands must keep the seat's own hand.")
    if tuple(len(h) for h in hands) != view.hand_sizes:
        raise ValueError("The guessed hands must have the sizes the view shows.")
    return GameState.in_play(
        view.options,
        deal_index=view.deal_number,
        dealer=view.dealer,  # type: ignore[arg-type]
        score=view.score,
        hands=hands,
        trump_card=view.trump_card.index,  # type: ignore[union-attr]
        tricks=[(t[0][0], [c.index for _, c in t]) for t in view.tricks],
        trick=[c.index for _, c in view.trick],
        cantes=[(seat, SUITS.index(suit), value) for seat, suit, value in view.cantes],
        cante_open=view.cante_open,
        tute=view.tute,
    )
