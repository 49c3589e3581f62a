"""A position built from a seat's view and a guess at the hidden hands, for robots that
think ahead: with the real hands as the guess it must be the real game, move for move."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import new_game
from games.engine.position import position_from_view

NO_STOCK = [
    {"variant": "tute", "players": 3},
    {"variant": "tute", "players": 4},
    {"variant": "tute", "players": 4, "pairs": False},
]


def random_action(state, rng):
    """Any seat's legal action, a cante moment's seats first (leading closes it)."""
    legal = state.legal_actions()
    waiting = [s for s in legal if s != state.to_move]
    seat = waiting[0] if waiting else state.to_move
    return rng.choice(legal[seat])


def public(state, seat):
    view = state.view(seat).to_dict()
    view.pop("deal_number")  # a position is a deal of its own; nothing else may differ
    return view


@pytest.mark.parametrize("options", NO_STOCK, ids=["tute3", "tute4-pairs", "tute4-alone"])
@settings(max_examples=15, deadline=None, database=None)
@given(seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 60))
def test_position_with_the_real_hands_plays_exactly_like_the_game(options, seed, moves) -> None:
    rng = random.Random(seed)
    game = new_game(options, rng)
    for _ in range(moves):
        if not game.deal_over:
            game.apply(random_action(game, rng))
    if game.deal_over:
        return
    position = position_from_view(game.view(rng.randrange(game.n)), game.hands)
    while True:
        for seat in range(game.n):
            assert public(position, seat) == public(game, seat)
        if game.deal_over:
            break
        action = random_action(game, rng)
        game.apply(action)
        position.apply(action)
    assert (position.deal_winner, position.points) == (game.deal_winner, game.points)


def test_a_position_keeps_the_seats_own_hand_and_the_hand_sizes() -> None:
    game = new_game({"variant": "tute", "players": 4}, random.Random(2))
    view = game.view(0)
    swapped = [game.hands[1], game.hands[0], game.hands[2], game.hands[3]]
    with pytest.raises(ValueError, match="own hand"):
        position_from_view(view, swapped)
    short = [game.hands[0], game.hands[1][:-1], game.hands[2], game.hands[3]]
    with pytest.raises(ValueError, match="sizes"):
        position_from_view(view, short)


@pytest.mark.parametrize(
    "options", [{"variant": "tute", "players": 2}, {"variant": "pocha", "players": 3}]
)
def test_positions_need_every_card_in_hand_and_no_bids(options) -> None:
    game = new_game(options, random.Random(3))
    with pytest.raises(ValueError, match="every card in hand"):
        position_from_view(game.view(0), game.hands)


def test_a_spectator_has_no_position() -> None:
    game = new_game({"variant": "tute", "players": 4}, random.Random(4))
    with pytest.raises(ValueError, match="seat"):
        position_from_view(game.view(None), game.hands)
