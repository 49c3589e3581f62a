"""Cantes and tute (RULES.md §7), four players; seat 3 deals, seat 0 leads, copas is trump.

In every position seat 0 leads the 1O and wins the first trick: the others hold oros.
"""

from __future__ import annotations

from games.engine import Action
from tests.support.engine import kinds, play, play_all, position, refusal

PAIRS = {"players": 4, "pairs": True}
ALONE = {"players": 4, "pairs": False}
FIRST_TRICK = "0:1O 1:4O 2:5O 3:2O"


def won_first_trick(given, options=PAIRS, closed="OC"):
    hands = {0: "1O", 1: "4O", 2: "5O", 3: "2O 6C"}
    for seat, more in given.items():
        hands[seat] = f"{hands[seat]} {more}"
    state = position(options, 3, hands, "6C", closed={0: closed})
    assert kinds(state, 0, "sing") == []  # nothing to sing before a trick is won
    play_all(state, FIRST_TRICK)
    assert state.turn == 0
    return state


def test_no_cante_before_the_side_has_won_a_trick():
    state = position(PAIRS, 3, {0: "12E 11E", 3: "6C"}, "6C")
    assert kinds(state, 0, "sing") == []
    assert refusal(state, Action.sing(0, "E")) == (
        "You may sing only right after your side wins a trick, before the next card is played (§7)."
    )


def test_trick_winner_and_partner_may_each_sing_in_the_moment():
    state = won_first_trick({0: "12E 11E", 2: "12B 11B"})
    legal = state.legal_actions()
    assert sorted(legal) == [0, 2]
    assert [a for a in legal[2]] == [Action.sing(2, "B")]
    assert kinds(state, 0, "sing") == ["E"]
    state.apply(Action.sing(2, "B"))  # the partner first: order within the moment is free
    state.apply(Action.sing(0, "E"))
    assert state.cantes == [(2, 3, 20), (0, 2, 20)]
    assert state.points == [11 + 40, 0]
    summary = state.deal_summaries()[0]
    assert summary["cantes"] == [
        [{"seat": 2, "suit": "B", "value": 20}, {"seat": 0, "suit": "E", "value": 20}],
        [],
    ]


def test_losing_side_cannot_sing():
    state = won_first_trick({1: "12E 11E"})
    assert kinds(state, 1, "sing") == []
    assert refusal(state, Action.sing(1, "E")).startswith("You may sing only right after")


def test_playing_alone_only_the_trick_winner_sings():
    state = won_first_trick({2: "12B 11B"}, options=ALONE)
    assert kinds(state, 2, "sing") == []
    assert 2 not in state.legal_actions()


def test_one_cante_per_player_per_trick_won():
    state = won_first_trick({0: "12E 11E 12B 11B"})
    assert kinds(state, 0, "sing") == ["E", "B"]
    state.apply(Action.sing(0, "E"))
    assert kinds(state, 0, "sing") == []
    assert refusal(state, Action.sing(0, "B")) == "You may sing only once per trick won (§7)."


def test_cante_moment_closes_when_the_next_trick_starts():
    state = won_first_trick({0: "3O", 2: "12B 11B"})
    play(state, 0, "3O")
    assert kinds(state, 2, "sing") == []
    assert refusal(state, Action.sing(2, "B")).startswith("You may sing only right after")


def test_the_forty_must_be_sung_first():
    state = won_first_trick({0: "3O 12C 11C 12E 11E"})
    assert kinds(state, 0, "sing") == ["C"]
    assert refusal(state, Action.sing(0, "E")) == (
        "You must sing the 40 in trump before any 20 (§7)."
    )
    state.apply(Action.sing(0, "C"))
    assert state.cantes == [(0, 1, 40)]
    assert state.points[0] == 11 + 40


def test_a_suit_is_sung_once_per_deal_and_more_pairs_on_later_tricks():
    state = won_first_trick({0: "3O 12C 11C 12E 11E", 1: "7O", 2: "6O", 3: "10O"})
    state.apply(Action.sing(0, "C"))
    play_all(state, "0:3O 1:7O 2:6O 3:10O")
    assert kinds(state, 0, "sing") == ["E"]
    assert refusal(state, Action.sing(0, "C")) == "Each suit can be sung only once per deal (§7)."
    state.apply(Action.sing(0, "E"))
    assert [v for _, _, v in state.cantes] == [40, 20]


def test_singing_needs_both_cards():
    state = won_first_trick({0: "12E"}, closed="OCE")
    assert refusal(state, Action.sing(0, "E")) == (
        "You need the rey and caballo of a suit to sing it (§7)."
    )


def test_tute_of_four_reyes_wins_the_game_at_once():
    state = won_first_trick({0: "12O 12C 12E 12B"}, options={**PAIRS, "rounds": 3})
    assert kinds(state, 0, "tute") == ["12"]
    state.apply(Action.tute(0, "12"))
    assert state.over and state.winner == 0
    assert state.score == [1, 0]  # the tute counts as one deal won
    assert state.legal_actions() == {}
    summary = state.deal_summaries()[0]
    assert summary["tute"] == {"seat": 0, "with": "12"}
    assert summary["winner"] == 0 and summary["last_trick"] is None


def test_partner_may_announce_tute_of_four_caballos():
    state = won_first_trick({2: "11O 11C 11E 11B"})
    assert kinds(state, 2, "tute") == ["11"]
    state.apply(Action.tute(2, "11"))
    assert state.winner == 0  # team of seats 0 and 2


def test_tute_is_refused_when_the_table_does_not_allow_it():
    state = won_first_trick({0: "12O 12C 12E 12B"}, options={**PAIRS, "allow_tute": False})
    assert kinds(state, 0, "tute") == []
    assert refusal(state, Action.tute(0, "12")) == "Tute is not allowed at this table (§7)."


def test_tute_is_refused_after_a_cante_by_that_player():
    state = won_first_trick({0: "12O 12C 12E 12B 11E"})
    state.apply(Action.sing(0, "E"))
    assert kinds(state, 0, "tute") == []
    assert refusal(state, Action.tute(0, "12")) == (
        "Tute may be announced only by a player who has made no cante this deal (§7)."
    )


def test_tute_needs_all_four():
    state = won_first_trick({0: "12O 12C 12E"})
    assert refusal(state, Action.tute(0, "12")) == "You need all four reyes to announce tute (§7)."
