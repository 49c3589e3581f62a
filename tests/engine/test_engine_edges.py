"""Each rule's edges, tried from both ends: what the engine lists and what it accepts.

These are the positions where a one-line change to a method of ``state.py`` that applies a
rule still passed the engine's tests (``make mutation``, docs/mutation.md): who may act, the
strict stock play after the first draw, the exchange's card and what it brings into the hand,
a cante's suit, the moment to sing in a game of pairs, a pocha bid, and the refusals' values.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from games.engine import Action, GameState, IllegalAction, Refusal, new_game
from tests.support.engine import (
    build_deal,
    kinds,
    leader_wins_trick,
    play,
    plays,
    position,
    random_game,
)

TWO = {"players": 2}
VARIANTS = [
    {"players": 2},
    {"players": 3},
    {"players": 4, "pairs": False},
    {"players": 4, "pairs": True},
    {"variant": "habanero"},
    {"variant": "pocha", "players": 4},
]


def refused(state: GameState, action: Action) -> IllegalAction:
    try:
        state.apply(action)
    except IllegalAction as exc:
        return exc
    raise AssertionError(f"{action} was accepted")


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: "-".join(map(str, o.values())))
def test_only_the_seat_on_turn_is_offered_a_card_and_another_seats_card_is_refused(options):
    checked = []

    def check(state: GameState) -> None:
        turn = state.to_move
        if state.over or state.deal_over or turn is None:
            return
        for seat in range(state.n):
            cards = [a for a in state.legal_actions_for(seat) if a.kind == "play"]
            if seat != turn:
                assert cards == [], f"seat {seat} is offered a card on seat {turn}'s turn"
                if state.hand(seat):
                    hand = list(state.hand(seat))
                    refused(state, Action.play(seat, hand[0]))
                    assert list(state.hand(seat)) == hand
                checked.append(seat)

    random_game(options, seed=3, on_step=check, max_deals=1)
    assert checked


def test_an_action_from_a_seat_past_the_last_is_refused_as_no_such_seat():
    state = new_game(TWO, random.Random(1))
    for seat in (2, -1):
        exc = refused(state, Action(seat, "sing", "O"))
        assert (exc.kind, exc.values) == (Refusal.NO_SUCH_SEAT, {"seat": seat})


def test_an_unknown_kind_of_action_is_refused_and_named():
    state = new_game(TWO, random.Random(1))
    for kind in ("fold", 5):
        exc = refused(state, Action(0, kind, None))
        assert (exc.kind, exc.values) == (Refusal.NO_SUCH_ACTION, {"action": kind})


def test_between_two_deals_an_action_is_refused_as_the_deal_over_not_the_game():
    state = random_game({"players": 4, "pairs": True, "rounds": 3}, seed=5, max_deals=1)
    assert state.deal_over and not state.over
    assert refused(state, Action(0, "sing", "O")).kind is Refusal.DEAL_OVER
    assert refused(state, Action.play(0, "1O")).kind is Refusal.DEAL_OVER


def test_a_deal_is_not_started_over_one_still_being_played():
    state = new_game(TWO, random.Random(1))
    deal = build_deal(TWO, 1, {}, "1B")
    with pytest.raises(ValueError, match=r"^The current deal is not finished\.$"):
        state.start_deal(deal)


def test_no_deal_follows_the_end_of_the_game():
    state = random_game(TWO, seed=2)
    assert state.over
    with pytest.raises(ValueError, match=r"^The game is over; no deal can follow\.$"):
        state.start_deal(build_deal(TWO, 1, {}, "1B"))


def test_strict_stock_play_keeps_the_duties_after_the_first_draw():
    # Seat 1 holds oros 4 and 5 only, and plays the 4 on the first trick: after the draws
    # it must still follow and beat the 3 of oros at the second.
    options = {"players": 2, "stock_play": "strict"}
    state = position(
        options, 1, {0: "1O 3O", 1: "4O 5O"}, "5B", closed={0: "O", 1: "O"}, stock="2E 3E"
    )
    play(state, 0, "1O")
    play(state, 1, "4O")
    assert state.stock_left > 0
    play(state, 0, "3O")
    assert plays(state, 1) == ["5O"]
    other = next(str(c) for c in state.hand(1) if c.suit != "O")
    assert refused(state, Action.play(1, other)).kind is Refusal.FOLLOW_SUIT


@pytest.mark.parametrize("suit", ["OC", "", "X", 0])
def test_a_cante_names_one_suit(suit):
    state = position(TWO, 1, {0: "1O 12O 11O"}, "5B", closed={1: "O"})
    leader_wins_trick(state, keep="12O 11O")
    assert kinds(state, 0, "sing") == ["O"]
    exc = refused(state, Action(0, "sing", suit))
    assert (exc.kind, exc.values) == (Refusal.CANTE_SUIT, {"suit": suit})
    assert state.cantes == []


def test_tute_out_of_its_moment_is_refused_as_not_the_moment():
    state = position({"players": 4, "pairs": False}, 3, {0: "12O 12C 12E 12B", 3: "6C"}, "6C")
    exc = refused(state, Action(0, "tute", "12"))
    assert (exc.kind, exc.values) == (Refusal.NO_MOMENT, {"action": "tute"})


def test_in_pairs_the_winners_partner_may_sing_and_an_opponent_is_told_it_is_not_the_moment():
    state = position(
        {"players": 4, "pairs": True},
        3,
        {0: "1O", 1: "4O 12E 11E", 2: "5O 12B 11B", 3: "2O 6C"},
        "6C",
        closed={0: "O"},
    )
    leader_wins_trick(state)
    assert state.to_move == 0
    assert kinds(state, 2, "sing") == ["B"]
    assert kinds(state, 1, "sing") == []
    exc = refused(state, Action(1, "sing", "E"))
    assert (exc.kind, exc.values) == (Refusal.NO_MOMENT, {"action": "sing"})


def test_in_the_arrastre_a_cante_during_a_trick_is_refused_as_not_the_moment():
    state = position(TWO, 1, {0: "1O", 1: "12E 11E"}, "5B", closed={1: "E"})
    while state.stock_left:
        leader_wins_trick(state, keep="12E 11E")
    leader = state.to_move
    play(state, leader, str(state.hand(leader)[0]))
    follower = 1 - leader
    exc = refused(state, Action(follower, "sing", "E"))
    assert (exc.kind, exc.values) == (Refusal.NO_MOMENT, {"action": "sing"})


def test_the_face_up_rey_taken_by_the_exchange_sings_the_forty_with_its_caballo():
    hand = "1O 7B 11B 1C 3C 1E 3E 10E"  # no pair but the caballo of bastos, trump
    state = position(TWO, 1, {0: hand}, "12B", closed={0: "OCEB", 1: "O"})
    leader_wins_trick(state, keep="7B 11B")
    assert kinds(state, 0, "sing") == []
    state.apply(Action.exchange(0, "7B"))
    assert kinds(state, 0, "sing") == ["B"]  # the moment to sing after the trick is still open
    state.apply(Action.sing(0, "B"))
    assert state.cantes == [(0, 3, 40)]


@pytest.mark.parametrize(
    "card", [5, "7B", SimpleNamespace(index=40), SimpleNamespace(index=-1)], ids=repr
)
def test_an_exchange_needs_one_of_the_forty_cards(card):
    state = position(TWO, 1, {0: "1O 7B"}, "1B", closed={1: "O"})
    leader_wins_trick(state, keep="7B")
    assert refused(state, Action(0, "exchange", card)).kind is Refusal.EXCHANGE_NEEDS_CARD
    assert str(state.view(0).trump_card) == "1B"


def test_the_first_card_of_the_deck_is_named_as_the_wrong_card_to_exchange():
    state = position(TWO, 1, {0: "2O 7B"}, "1B", closed={1: "O"})
    leader_wins_trick(state, keep="7B")
    exc = refused(state, Action.exchange(0, "1O"))
    assert (exc.kind, exc.values) == (
        Refusal.WRONG_EXCHANGE,
        {"card": "1O", "give": "7B", "trump_card": "1B"},
    )


def test_an_exchange_of_a_seven_not_held_is_refused_and_names_it():
    state = position(TWO, 1, {0: "1O", 1: "7B 4O"}, "1B", closed={1: "O"})
    leader_wins_trick(state)
    exc = refused(state, Action.exchange(0, "7B"))
    assert (exc.kind, exc.values) == (Refusal.NOT_HELD, {"card": "7B"})


@pytest.mark.parametrize("bid", [True, False, -1, 11, "2"])
def test_a_pocha_bid_is_a_number_of_tricks_from_none_to_the_hand(bid):
    state = new_game({"variant": "pocha", "players": 4}, random.Random(4))
    seat = state.to_move
    most = len(state.hand(seat))
    assert [a.value for a in kinds_all(state, seat)] == list(range(most + 1))
    exc = refused(state, Action(seat, "bid", bid))
    assert (exc.kind, exc.values) == (Refusal.BID_RANGE, {"bid": bid, "most": most})


def kinds_all(state: GameState, seat: int) -> list[Action]:
    return [a for a in state.legal_actions_for(seat) if a.kind == "bid"]


@pytest.mark.parametrize("value", [5, None, 1.5])
def test_a_card_to_play_must_be_a_card(value):
    state = new_game(TWO, random.Random(1))
    seat = state.to_move
    exc = refused(state, Action(seat, "play", value))
    assert (exc.kind, exc.values) == (Refusal.PLAY_NEEDS_CARD, {})
    assert len(state.hand(seat)) == 8
