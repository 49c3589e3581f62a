"""A playable position built from one seat's view and a guess at the hidden hands.

A robot sees only its :class:`~games.engine.SeatView`. To think ahead it guesses where the
cards it cannot see are, then needs a :class:`GameState` it can clone and play out.
:func:`position_from_view` builds that state from the view's public facts (tricks, the trick
on the table, cantes, points, whose turn it is) and the guessed hands. The guess comes from
the robot: the real hidden cards never enter this module.

Only deals without a stock or bids are supported (tute for 3 and 4 players), where every
card is in some hand. The position is for playouts: it has no record of the real deal.

>>> import random
>>> from games.engine.state import new_game
>>> g = new_game({"players": 4}, random.Random(5), first_dealer=0)
>>> for _ in range(6):
...     g.apply(g.legal_actions_for(g.turn)[0])
>>> view = g.view(1)
>>> guess = [list(h) for h in g.hands]  # a robot would guess seats 0, 2 and 3 instead
>>> p = position_from_view(view, guess)
>>> p.legal_actions() == g.legal_actions(), p.points == g.points, p.trick == g.trick
(True, True, True)
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import SUIT_OF, SUITS, rey
from .determinize import trick_winner_seat
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

    state = GameState(view.options)
    state.score = list(view.score)
    state.deal_index = view.deal_number
    state.first_dealer = view.dealer
    state.phase = PLAY
    state.dealer = view.dealer
    state.leader = view.leader
    state.turn = view.turn
    state.hands = [sorted(h) for h in hands]
    state.masks = [sum(1 << c for c in h) for h in hands]
    state.trump = SUITS.index(view.trump_suit)
    state.trump_card = view.trump_card.index
    state.tricks = [(t[0][0], [c.index for _, c in t]) for t in view.tricks]
    state.tricks_won = list(view.tricks_won)
    state.points = list(view.points)

    def won_by(leader: int, cards: list[int]) -> int:
        return trick_winner_seat(state.trump, state.n, leader, cards)

    for number, (leader, cards) in enumerate(state.tricks, start=1):
        seat = won_by(leader, cards)
        state.last_win[state.side_of[seat]] = number
    if view.trick:
        state.trick = [c.index for _, c in view.trick]
        state.trick_leader = view.trick[0][0]
        state.led = SUIT_OF[state.trick[0]]
        state.win_seat = won_by(state.trick_leader, state.trick)
        state.win_card = state.trick[(state.win_seat - state.trick_leader) % state.n]
    elif state.tricks:
        last_leader, last_cards = state.tricks[-1]
        state.moment_all = state.moment_seats[won_by(last_leader, last_cards)]
    state.moment = tuple(view.cante_open)
    for seat, suit_letter, value in view.cantes:
        suit = SUITS.index(suit_letter)
        state.cantes.append((seat, suit, value))
        state.sung |= 1 << rey(suit)
        state.sang[seat] = True
    state.tute = view.tute
    return state
