"""The replay command (NOTATION.md), run as other programs run it: a subprocess."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from tests.support.engine import replay

RECORDS = Path(__file__).resolve().parent / "records"


def load(name):
    return json.loads((RECORDS / name).read_text())


def p(seat, card):
    return {"seat": seat, "play": card}


def card(seat, card):
    return {"seat": seat, "card": card}


def test_replay_output_of_a_four_player_trick_and_cante_exactly(tmp_path):
    status, out = replay(tmp_path, load("tute4_cante.json"))
    assert status == 0
    seat0 = ["12O", "7O", "1C", "3C", "1E", "3E", "7E", "11B", "10B", "5B"]
    seat3_after = ["5C", "12E", "11E", "10E", "1B", "3B", "12B", "7B", "6B"]
    assert out == {
        "steps": [
            # The leader may play anything: O, C, E, B, strongest first within a suit.
            {"legal": {"0": [p(0, c) for c in seat0]}, "action": p(0, "12O")},
            # Seat 1 must beat the 12O: the 1O or the 3O.
            {"legal": {"1": [p(1, "1O"), p(1, "3O")]}, "action": p(1, "1O")},
            # Seat 2 cannot beat the 1O: any of its oros.
            {
                "legal": {"2": [p(2, c) for c in ["11O", "10O", "6O", "5O", "4O"]]},
                "action": p(2, "4O"),
            },
            # Seat 3 has no oros: it must trump, with either copa.
            {"legal": {"3": [p(3, "5C"), p(3, "2C")]}, "action": p(3, "2C")},
            # Seat 3 won; its partner (seat 1) has nothing to sing, so only seat 3 is listed.
            {
                "legal": {"3": [*(p(3, c) for c in seat3_after), {"seat": 3, "sing": "E"}]},
                "action": {"seat": 3, "sing": "E"},
            },
        ],
        "deals": [
            {
                # 12O (4) + 1O (11) + 4O + 2C (0) = 15, plus the 20 of espadas.
                "points": [0, 35],
                "cantes": [[], [{"seat": 3, "suit": "E", "value": 20}]],
                "tricks": [[card(0, "12O"), card(1, "1O"), card(2, "4O"), card(3, "2C")]],
                "last_trick": None,
                "winner": None,
                "tute": None,
                "capote": None,
                "bids": None,
                "carry": None,
            }
        ],
        "next": {"legal": {"3": [p(3, c) for c in seat3_after]}},
        "game": {"over": False, "winner": None, "score": [0, 0]},
    }


def _card_list(trick):
    return [{"seat": e["seat"], "card": e["card"]} for e in trick]


def test_replay_output_of_a_finished_pocha_hand_exactly(tmp_path):
    status, out = replay(tmp_path, load("pocha2_first_hand.json"))
    assert status == 0
    assert out == {
        "steps": [
            {"legal": {"1": [{"seat": 1, "bid": 0}, {"seat": 1, "bid": 1}]},
             "action": {"seat": 1, "bid": 1}},
            {"legal": {"0": [{"seat": 0, "bid": 0}, {"seat": 0, "bid": 1}]},
             "action": {"seat": 0, "bid": 0}},
            {"legal": {"1": [p(1, "1O")]}, "action": p(1, "1O")},
            {"legal": {"0": [p(0, "3O")]}, "action": p(0, "3O")},
        ],
        "deals": [
            {
                # Seat 1 bid 1 and took it: 10 + 5. Seat 0 bid 0 and took none: 10.
                "points": [10, 15],
                "cantes": [[], []],
                "tricks": [[{"seat": 1, "card": "1O"}, {"seat": 0, "card": "3O"}]],
                "last_trick": 1,
                "winner": None,
                "tute": None,
                "capote": None,
                "bids": [0, 1],
                "carry": None,
            }
        ],
        # The hand is over and the next one is not in the record yet.
        "next": {"legal": {}},
        "game": {"over": False, "winner": None, "score": [10, 15]},
    }  # fmt: skip


def test_replay_of_a_tricks_cards_uses_seat_and_card_keys(tmp_path):
    _, out = replay(tmp_path, load("tute4_cante.json"))
    trick = out["deals"][0]["tricks"][0]
    assert _card_list(trick) == trick


def test_illegal_action_stops_with_status_1_and_the_steps_before_it(tmp_path):
    record = load("tute4_cante.json")
    record["deals"][0]["actions"].append({"seat": 0, "play": "7O"})
    status, out = replay(tmp_path, record)
    assert status == 1
    assert len(out["steps"]) == 5
    assert out["error"] == {
        "index": 5,
        "action": {"seat": 0, "play": "7O"},
        "reason": "It is not your turn to play (§2).",
    }


def test_illegal_card_names_the_duty_broken(tmp_path):
    record = load("tute4_cante.json")
    record["deals"][0]["actions"][1] = {"seat": 1, "play": "2O"}
    status, out = replay(tmp_path, record)
    assert status == 1
    assert out["error"]["index"] == 1
    assert out["error"]["reason"] == "You must follow suit with a higher card when you can (§5)."


def test_pocha_bid_out_of_range_is_illegal_not_invalid(tmp_path):
    record = load("pocha2_first_hand.json")
    record["deals"][0]["actions"][0] = {"seat": 1, "bid": 5}
    status, out = replay(tmp_path, record)
    assert status == 1
    assert out["steps"] == []
    assert out["error"]["reason"] == "A bid must be a number of tricks from 0 to 1 (§9)."


def test_error_index_counts_actions_across_deals(tmp_path):
    record = load("pocha2_first_hand.json")
    second = second_pocha_hand(record, dealer=1)
    second["actions"] = [{"seat": 1, "bid": 0}]  # seat 0 leads, so it bids first
    record["deals"].append(second)
    status, out = replay(tmp_path, record)
    assert status == 1
    assert out["error"]["index"] == 4
    assert len(out["steps"]) == 4


def second_pocha_hand(record, dealer):
    """Two cards each, 12O turned up."""
    held = ["1C", "3C", "1O", "3O"]
    rest = [c for c in record["deals"][0]["stock"] if c not in held and c != "12O"]
    return {
        "dealer": dealer,
        "hands": [["1C", "3C"], ["1O", "3O"]],
        "trump_card": "12O",
        "stock": ["12O", *rest],
        "actions": [],
    }


def invalid(tmp_path, record) -> str:
    status, out = replay(tmp_path, record)
    assert status == 2, out
    assert set(out) == {"error"} and set(out["error"]) == {"reason"}
    return out["error"]["reason"]


def test_not_json_is_invalid(tmp_path):
    assert "not valid JSON" in invalid(tmp_path, "{not json")


def test_unknown_variant_is_invalid(tmp_path):
    assert "Unknown variant" in invalid(tmp_path, {"variant": "mus", "deals": []})


@pytest.mark.parametrize(
    "options",
    [{"players": 5}, {"rounds": 6}, {"points_to_win": 0}, {"pairs": "yes"},
     {"stock_play": "loose"}, {"allow_tute": 1}, {"rounds": True}],
)  # fmt: skip
def test_option_out_of_range_is_invalid(tmp_path, options):
    assert "Option" in invalid(tmp_path, {"variant": "tute", "options": options, "deals": []})


def test_habanero_with_four_players_is_invalid(tmp_path):
    reason = invalid(tmp_path, {"variant": "habanero", "options": {"players": 4}})
    assert reason == "Option players must be 2 for habanero, not 4."


def test_option_that_does_not_apply_is_still_range_checked_then_ignored(tmp_path):
    record = load("pocha2_first_hand.json")
    record["options"].update({"rounds": 5, "pairs": False, "move_time": 10, "unknown": 1})
    assert replay(tmp_path, record)[0] == 0
    record["options"]["rounds"] = 9
    assert "rounds" in invalid(tmp_path, record)


def test_repeated_card_is_invalid(tmp_path):
    record = load("tute4_cante.json")
    record["deals"][0]["hands"][0][1] = "1O"
    assert invalid(tmp_path, record) == "Deal 0: card 1O is repeated."


def test_missing_card_is_invalid(tmp_path):
    record = load("pocha2_first_hand.json")
    record["deals"][0]["stock"].remove("2B")
    assert invalid(tmp_path, record) == "Deal 0: card 2B is missing."


def test_wrong_hand_size_is_invalid(tmp_path):
    record = load("tute4_cante.json")
    hands = record["deals"][0]["hands"]
    hands[1].append(hands[0].pop())
    assert invalid(tmp_path, record) == "Deal 0: seat 0 must be dealt 10 cards, not 9."


def test_a_two_is_not_in_the_three_player_deck(tmp_path):
    record = {"variant": "tute", "options": {"players": 3}, "deals": [
        {"dealer": 0, "hands": [["2O"] * 12] * 3, "trump_card": "2O", "stock": []}]}  # fmt: skip
    assert invalid(tmp_path, record) == "Deal 0: card 2O is not in the deck."


def test_seat_out_of_range_is_invalid(tmp_path):
    record = load("tute4_cante.json")
    record["deals"][0]["actions"][0] = {"seat": 4, "play": "12O"}
    assert invalid(tmp_path, record) == "Deal 0: Seat 4 is out of range for 4 players."


@pytest.mark.parametrize(
    "action",
    [{"seat": 0}, {"seat": 0, "play": "13O"}, {"seat": 0, "play": "12O", "sing": "E"},
     {"seat": "0", "play": "12O"}, {"seat": 0, "sing": "X"}, {"seat": 0, "tute": 12},
     {"seat": 0, "capote": "yes"}, {"seat": 0, "bid": 1.5}, ["seat", 0]],
)  # fmt: skip
def test_malformed_action_is_invalid(tmp_path, action):
    record = load("tute4_cante.json")
    record["deals"][0]["actions"][0] = action
    assert invalid(tmp_path, record).startswith("Deal 0: ")


def test_a_deal_after_an_unfinished_deal_is_invalid(tmp_path):
    record = load("tute4_cante.json")
    second = copy.deepcopy(record["deals"][0])
    hands = second["hands"]
    second.update(dealer=0, hands=[hands[3], *hands[:3]], actions=[])  # 5C with the dealer
    record["deals"].append(second)
    assert invalid(tmp_path, record) == "Deal 1 is listed after an unfinished deal."


def test_a_deal_after_the_game_ended_is_invalid(tmp_path):
    from tests.support.engine import random_game

    state = random_game({"variant": "tute", "players": 3}, 5)
    record = state.to_record()
    assert state.over
    extra = copy.deepcopy(record["deals"][-1])
    hands = extra["hands"]
    extra.update(dealer=(extra["dealer"] + 1) % 3, hands=[hands[2], *hands[:2]], actions=[])
    record["deals"].append(extra)
    assert (
        invalid(tmp_path, record)
        == f"Deal {len(record['deals']) - 1} is listed after the game ended."
    )


def test_a_deal_by_the_wrong_dealer_is_invalid(tmp_path):
    record = load("pocha2_first_hand.json")
    record["deals"].append(second_pocha_hand(record, dealer=0))
    assert invalid(tmp_path, record) == (
        "Deal 1 must be dealt by seat 1, the seat after the previous dealer, not by seat 0."
    )


def test_a_finished_game_replays_to_its_result(tmp_path):
    from tests.support.engine import random_game

    state = random_game({"variant": "habanero", "points_to_win": 2}, 8)
    status, out = replay(tmp_path, state.to_record())
    assert status == 0
    assert out["game"] == {"over": True, "winner": state.winner, "score": state.score}
    assert out["next"] == {"legal": {}}
    assert out["deals"] == state.deal_summaries()


def test_a_record_without_deals_is_a_game_waiting_for_its_first_deal(tmp_path):
    status, out = replay(tmp_path, {"variant": "pocha", "options": {"players": 3}})
    assert status == 0
    assert out == {
        "steps": [],
        "deals": [],
        "next": {"legal": {}},
        "game": {"over": False, "winner": None, "score": [0, 0, 0]},
    }
