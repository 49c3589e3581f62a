"""Seats, turn order and the duties of a trick (RULES.md §2, §5), from hand-built positions.

Four players alone unless said otherwise; seat 3 deals, so seat 0 leads; copas is trump
(the dealer's 6C).
"""

from __future__ import annotations

from games.engine import Action, GameState, deal_cards
from games.engine.options import Options
from tests.support.engine import play, play_all, plays, position, refusal

ALONE = {"players": 4, "pairs": False}
PAIRS = {"players": 4, "pairs": True}


def table(given, closed=None, options=ALONE):
    given = {3: "6C", **given} if 3 not in given else given
    return position(options, 3, given, "6C", closed=closed)


def test_player_after_the_dealer_leads_the_first_trick():
    for dealer in range(4):
        d = deal_cards(Options.from_dict(ALONE), dealer, __import__("random").Random(dealer))
        state = GameState(ALONE)
        state.start_deal(d)
        assert state.turn == (dealer + 1) % 4


def test_turn_passes_to_the_next_seat_in_order():
    state = table({0: "12O"}, {})
    play(state, 0, "12O")
    assert state.turn == 1
    assert refusal(state, Action.play(2, state.hand(2)[0])) == "It is not your turn to play (§2)."


def test_leader_may_play_any_card():
    state = table({0: "12O 5E"})
    assert plays(state, 0) == [str(c) for c in state.hand(0)]


def test_follower_must_follow_suit_with_a_higher_card_when_possible():
    state = table({0: "12O", 1: "1O 4O"}, {1: "O"})
    play(state, 0, "12O")
    assert plays(state, 1) == ["1O"]
    assert refusal(state, Action.play(1, "4O")) == (
        "You must follow suit with a higher card when you can (§5)."
    )
    # One duty chose the 1O, and it is the reason every other card is refused.
    other = next(str(c) for c in state.hand(1) if c.suit != "O")
    assert refusal(state, Action.play(1, other)) == (
        "You must follow suit with a higher card when you can (§5)."
    )


def test_follower_who_holds_the_led_suit_must_follow_it():
    state = table({0: "1O", 1: "5O 4O"}, {1: "O"})
    play(state, 0, "1O")
    other = next(str(c) for c in state.hand(1) if c.suit != "O")
    assert refusal(state, Action.play(1, other)) == "You must follow suit when you can (§5)."


def test_follower_who_cannot_beat_plays_any_card_of_the_led_suit():
    state = table({0: "1O", 1: "5O 4O"}, {1: "O"})
    play(state, 0, "1O")
    assert plays(state, 1) == ["5O", "4O"]


def test_once_a_trump_is_on_the_table_a_follower_only_has_to_follow_suit():
    state = table({0: "12O", 1: "2C", 2: "1O 4O"}, {1: "O", 2: "O"})
    play_all(state, "0:12O 1:2C")
    assert plays(state, 2) == ["1O", "4O"]


def test_follower_without_led_suit_must_trump():
    state = table({0: "12O", 1: "4C 2C"}, {1: "OC"})
    play(state, 0, "12O")
    assert plays(state, 1) == ["4C", "2C"]
    other = next(str(c) for c in state.hand(1) if c.suit != "C")
    assert refusal(state, Action.play(1, other)) == (
        "You cannot follow suit, so you must play a trump when you have one (§5)."
    )


def test_follower_without_led_suit_must_overtrump():
    state = table({0: "12O", 1: "4C", 2: "3C 2C"}, {1: "O", 2: "OC"})
    play_all(state, "0:12O 1:4C")
    assert plays(state, 2) == ["3C"]
    assert refusal(state, Action.play(2, "2C")) == (
        "You cannot follow suit, so you must play a trump higher than the one on the table "
        "when you can (§5)."
    )


def test_there_is_no_duty_to_under_trump():
    state = table({0: "12O", 1: "1C", 2: "2C"}, {1: "O", 2: "OC"})
    play_all(state, "0:12O 1:1C")
    assert plays(state, 2) == [str(c) for c in state.hand(2)]
    assert "2C" in plays(state, 2) and len(plays(state, 2)) == 10


def test_follower_without_led_suit_or_trumps_plays_anything():
    state = table({0: "12O"}, {1: "OC"})
    play(state, 0, "12O")
    assert plays(state, 1) == [str(c) for c in state.hand(1)]


def test_a_trump_lead_must_be_beaten_with_a_higher_trump():
    state = table({0: "12C", 1: "1C 4C"}, {1: "C"})
    play(state, 0, "12C")
    assert plays(state, 1) == ["1C"]


def test_duties_hold_when_the_partner_is_winning_the_trick():
    state = table({0: "3O", 1: "4O", 2: "1O 5O"}, {1: "O", 2: "O"}, options=PAIRS)
    play_all(state, "0:3O 1:4O")
    assert plays(state, 2) == ["1O"]  # seat 0, the partner, was winning with the 3


def test_highest_trump_wins_the_trick_and_its_winner_leads_next():
    state = table({0: "12O", 1: "1O", 2: "2C", 3: "6C 7C"}, {2: "O", 3: "O"})
    play_all(state, "0:12O 1:1O 2:2C 3:7C")
    assert state.turn == 3
    assert state.tricks_won == [0, 0, 0, 1]
    assert state.points == [0, 0, 0, 15]


def test_highest_card_of_the_led_suit_wins_without_trumps():
    state = table({0: "12O", 1: "1O", 2: "4O", 3: "5O 6C"}, {2: "O", 3: "O"})
    play_all(state, "0:12O 1:1O 2:4O 3:5O")
    assert state.turn == 1
    assert state.points == [0, 15, 0, 0]


def test_a_card_not_in_hand_is_refused():
    state = table({0: "12O", 1: "1O"})
    assert refusal(state, Action.play(0, "1O")) == "You do not hold that card."


def test_three_players_play_without_the_twos():
    import random

    d = deal_cards(Options.from_dict({"players": 3}), 0, random.Random(1))
    assert all(len(h) == 12 for h in d.hands)
    assert not any(c.rank == 2 for h in d.hands for c in h)
    assert d.trump_card in d.hands[0] and d.stock == ()
