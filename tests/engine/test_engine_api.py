"""Cards, options, views and records: the API robots and the web layer build on."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from games.engine import (
    CARDS,
    Action,
    Card,
    IllegalAction,
    InvalidRecord,
    OptionError,
    Options,
    from_record,
    new_game,
)
from games.engine.cards import DECK_36
from tests.support.engine import play_all, position, random_game


def test_cards_rank_from_the_as_down_to_the_two_in_every_suit():
    order = [1, 3, 12, 11, 10, 7, 6, 5, 4, 2]
    for suit in "OCEB":
        strengths = [Card(rank, suit).strength for rank in order]
        assert strengths == sorted(strengths, reverse=True)


def test_the_deck_holds_120_points_and_the_36_card_deck_has_no_twos():
    assert sum(c.points for c in CARDS) == 120
    assert {c.rank for c in CARDS} == {1, 2, 3, 4, 5, 6, 7, 10, 11, 12}
    assert len(DECK_36) == 36 and all(CARDS[i].rank != 2 for i in DECK_36)


def test_card_text_round_trips_and_cards_are_interned():
    for card in CARDS:
        assert Card.parse(str(card)) is card
    assert Card(12, "O") == Card.parse("12O")
    for bad in ["13O", "12X", "O", "012O", "", "8C", 12]:
        with pytest.raises(ValueError):
            Card.parse(bad)


def test_actions_are_frozen_and_serialise_like_records():
    action = Action.play(2, "10B")
    with pytest.raises(dataclasses.FrozenInstanceError):
        action.seat = 1
    assert action.to_dict() == {"seat": 2, "play": "10B"}
    assert Action.from_dict({"seat": 0, "capote": False}) == Action.capote(0, False)
    assert Action.from_dict({"seat": 0, "tute": "11"}) == Action.tute(0, "11")


def test_option_defaults_follow_the_table_options():
    tute = Options.from_dict({})
    assert (tute.variant, tute.players, tute.pairs, tute.rounds) == ("tute", 4, True, 1)
    assert (tute.allow_tute, tute.stock_play, tute.points_to_win) == (True, "free", 4)
    assert Options.from_dict({"variant": "habanero"}).players == 2
    assert Options.from_dict({"variant": "pocha"}).players == 4


@pytest.mark.parametrize(
    "bad",
    [{"players": 1}, {"players": "4"}, {"pairs": 1}, {"rounds": 0}, {"rounds": 2.0},
     {"points_to_win": 6}, {"allow_tute": None}, {"stock_play": "FREE"}, {"variant": "brisca"},
     {"variant": "habanero", "players": 3}],
)  # fmt: skip
def test_options_are_checked_for_type_and_range(bad):
    with pytest.raises(OptionError):
        Options.from_dict(bad)


def test_pairs_are_seats_zero_and_two_against_one_and_three():
    state = new_game({"players": 4, "pairs": True}, random.Random(1))
    assert state.side_of == (0, 1, 0, 1) and state.sides == 2
    alone = new_game({"players": 4, "pairs": False}, random.Random(1))
    assert alone.side_of == (0, 1, 2, 3) and len(alone.score) == 4


def test_a_seat_view_holds_its_own_hand_and_no_other():
    state = new_game({"players": 4}, random.Random(2))
    for seat in range(4):
        data = state.view(seat).to_dict()
        assert data["hand"] == [str(c) for c in state.hand(seat)]
        text = json.dumps(data)
        others = {str(c) for s in range(4) if s != seat for c in state.hand(s)}
        others.discard(data["trump_card"])  # the face-up card that set trump
        assert not [c for c in others if f'"{c}"' in text]


def test_a_spectator_view_shows_no_hand_and_no_actions():
    state = new_game({"variant": "habanero"}, random.Random(2))
    view = state.view(None)
    assert view.hand is None and view.legal_actions == ()
    data = view.to_dict()
    assert data["hand"] is None and data["legal_actions"] == []
    assert data["stock_size"] == 24 and data["trump_in_stock"] is True
    assert data["hand_sizes"] == [8, 8]
    shown = {c for c in json.dumps(data).split('"') if c in {str(k) for k in CARDS}}
    assert shown == {data["trump_card"]}


def test_a_view_tells_turn_moment_trump_scores_and_legal_actions():
    state = position({"players": 4}, 3, {0: "1O 12E 11E", 1: "4O", 2: "5O", 3: "2O 6C"}, "6C",
                     closed={0: "OEC"})  # fmt: skip
    play_all(state, "0:1O 1:4O 2:5O 3:2O")
    view = state.view(0)
    assert view.turn == 0 and view.cante_open == (0, 2)
    assert view.trump_suit == "C" and str(view.trump_card) == "6C"
    assert view.tricks_won == (1, 0, 0, 0) and view.points == (11, 0)
    assert view.dealer == 3 and view.deal_number == 0
    assert view.score == (0, 0) and not view.game_over and view.winner is None
    assert Action.sing(0, "E") in view.legal_actions
    data = view.to_dict()
    assert data["tricks"] == [[{"seat": 0, "card": "1O"}, {"seat": 1, "card": "4O"},
                               {"seat": 2, "card": "5O"}, {"seat": 3, "card": "2O"}]]  # fmt: skip
    assert data["trick"] == []
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.turn = 1


def test_a_pocha_view_hides_the_undealt_cards_but_the_trump_card():
    state = new_game({"variant": "pocha", "players": 3}, random.Random(9))
    data = state.view(1).to_dict()
    undealt = {str(c) for c in state._deal.stock}
    shown = {c for c in json.dumps(data).split('"') if c in {str(k) for k in CARDS}}
    assert shown & undealt == {data["trump_card"]}
    assert data["bids"] == [None, None, None]


def test_the_view_of_a_finished_game_names_the_winner():
    state = random_game({"players": 2}, 3)
    data = state.view(0).to_dict()
    assert data["game_over"] and data["winner"] == state.winner
    assert data["legal_actions"] == [] and data["needs_deal"] is False


def test_a_finished_deal_waits_for_an_explicit_new_deal():
    rng = random.Random(6)
    state = new_game({"players": 3, "rounds": 2}, rng)
    while state.phase != "done":
        state.apply(next(iter(state.legal_actions().values()))[0])
    assert state.needs_deal and state.legal_actions() == {}
    assert state.view(0).needs_deal
    dealer = state.dealer
    state.deal_next(rng)
    assert state.dealer == (dealer + 1) % 3 and state.deal_index == 1


def test_from_record_rebuilds_a_game_in_progress():
    state = random_game({"players": 4}, 7, max_deals=1)
    record = state.to_record()
    record["deals"][0]["actions"] = record["deals"][0]["actions"][:17]
    again = from_record(json.loads(json.dumps(record)))
    assert again.to_record() == record
    assert not again.over and again.legal_actions()
    assert again.view(0).to_dict()["hand_sizes"] != [10, 10, 10, 10]


def test_from_record_reports_the_index_of_an_illegal_action():
    state = random_game({"players": 4}, 7, max_deals=1)
    record = state.to_record()
    record["deals"][0]["actions"].insert(3, dict(record["deals"][0]["actions"][0]))
    with pytest.raises(IllegalAction) as caught:
        from_record(record)
    assert caught.value.index == 3
    assert caught.value.action.to_dict() == record["deals"][0]["actions"][3]


def test_from_record_refuses_an_invalid_record():
    with pytest.raises(InvalidRecord, match="must be a JSON object"):
        from_record([])


def test_clone_shares_nothing_that_play_changes():
    state = new_game({"players": 2}, random.Random(3))
    copy = state.clone()
    acts = copy.legal_actions_for(copy.turn)
    copy.apply(acts[0])
    assert len(state.hand(state.turn)) == 8
    assert state.trick == [] and copy.trick != []


def test_clone_copies_every_slot_and_no_list_that_play_mutates():
    from games.engine import GameState

    state = random_game({"variant": "habanero"}, 2, max_deals=2)
    copy = state.clone()
    for name in GameState.__slots__:
        if name == "_cache":
            continue
        assert getattr(copy, name) == getattr(state, name), name
        value = getattr(state, name)
        if isinstance(value, list) and name != "_finished":
            assert getattr(copy, name) is not value, name
    assert all(a is not b for a, b in zip(copy.hands, state.hands, strict=True))
