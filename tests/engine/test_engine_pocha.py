"""Pocha: the ladder, the trump card, bids and scores (RULES.md §9)."""

from __future__ import annotations

import random

from games.engine import Action, GameState, deal_cards
from games.engine.options import Options
from tests.support.engine import build_deal, play, plays, position, random_game, refusal

POCHA2 = {"variant": "pocha", "players": 2}


def one_card_hand():
    """Seat 0 deals one card each; seat 1 holds the 1O, seat 0 the 3O; 4C turned up."""
    return position(POCHA2, 0, {0: "3O", 1: "1O"}, "4C")


def test_bids_go_from_the_leader_round_to_the_dealer_from_zero_to_the_hand_size():
    state = one_card_hand()
    assert state.legal_actions() == {1: [Action.bid(1, 0), Action.bid(1, 1)]}
    assert refusal(state, Action.bid(0, 1)) == (
        "It is not your turn to bid; bids go from the leader round to the dealer (§9)."
    )
    assert refusal(state, Action.play(1, "1O")) == (
        "Every player bids before the first card is played (§9)."
    )
    assert refusal(state, Action.bid(1, 2)) == (
        "A bid must be a number of tricks from 0 to 1 (§9)."
    )
    state.apply(Action.bid(1, 1))
    assert state.legal_actions() == {0: [Action.bid(0, 0), Action.bid(0, 1)]}
    state.apply(Action.bid(0, 1))
    assert plays(state, 1) == ["1O"]


def test_exact_bid_scores_ten_plus_five_per_trick():
    state = one_card_hand()
    state.apply(Action.bid(1, 1))
    state.apply(Action.bid(0, 0))
    play(state, 1, "1O")
    play(state, 0, "3O")
    summary = state.deal_summaries()[0]
    assert summary["points"] == [10, 15]
    assert summary["bids"] == [0, 1]
    assert summary["winner"] is None and summary["last_trick"] == 1
    assert state.score == [10, 15]


def test_missed_bids_lose_five_per_trick_over_or_under():
    state = one_card_hand()
    state.apply(Action.bid(1, 0))  # takes 1: one over
    state.apply(Action.bid(0, 1))  # takes 0: one under
    play(state, 1, "1O")
    play(state, 0, "3O")
    assert state.deal_summaries()[0]["points"] == [-5, -5]


def test_a_miss_by_two_loses_ten():
    rng = random.Random(3)
    state = GameState(POCHA2)
    state.start_deal(deal_cards(state.options, 0, rng, 0))
    while not (state.needs_deal and state.deal_index == 1):
        if state.needs_deal:
            state.deal_next(rng)
        else:
            state.apply(next(iter(state.legal_actions().values()))[0])
    # The third hand (three cards each) is built: seat 0 holds the three top oros.
    hands = {0: "3O 12O 11O", 1: "10O 7O 6O"}
    state.start_deal(build_deal(POCHA2, state.next_dealer, hands, "4C", deal_index=2))
    before = state.score[:]
    assert state.dealer == 0 and state.turn == 1
    state.apply(Action.bid(1, 2))  # takes 0
    state.apply(Action.bid(0, 1))  # takes 3
    for _ in range(3):
        lead = plays(state, state.turn)[0]
        play(state, state.turn, lead)
        play(state, state.turn, plays(state, state.turn)[-1])
    assert state.tricks_won == [3, 0]
    assert state.deal_summaries()[2]["points"] == [-10, -10]
    assert state.score == [before[0] - 10, before[1] - 10]


def test_no_cantes_no_tute_and_no_ten_for_the_last_trick_in_pocha():
    state = position(POCHA2, 0, {0: "3O", 1: "1O"}, "4C")
    assert refusal(state, Action.sing(1, "O")) == "There are no cantes in pocha (§9)."
    assert refusal(state, Action.tute(1, "12")) == "There is no tute in pocha (§9)."
    assert refusal(state, Action.capote(1, True)) == "Capote is played only in habanero (§8)."


def test_trump_is_the_first_undealt_card_or_the_dealers_last_when_all_are_dealt():
    opts = Options.from_dict({"variant": "pocha", "players": 4})
    small = deal_cards(opts, 2, random.Random(1), deal_index=0)
    assert small.trump_card == small.stock[0] and len(small.stock) == 36
    peak = deal_cards(opts, 2, random.Random(1), deal_index=9)
    assert peak.stock == () and peak.trump_card in peak.hands[2]
    assert [len(h) for h in peak.hands] == [10, 10, 10, 10]


def test_the_ladder_climbs_to_the_largest_hand_and_back_once():
    state = random_game({"variant": "pocha", "players": 3}, 11)
    sizes = [len(d["tricks"]) for d in state.deal_summaries()]
    assert sizes == [*range(1, 13), *range(11, 0, -1)]
    assert state.over
    assert state.score == [sum(d["points"][s] for d in state.deal_summaries()) for s in range(3)]


def test_highest_total_wins_and_players_tied_at_the_top_all_win():
    single = random_game(POCHA2, 1)
    assert single.winner in (0, 1) or single.winner == [0, 1]
    for seed in range(3000):
        state = random_game(POCHA2, seed)
        if state.score[0] == state.score[1]:
            assert state.winner == [0, 1]
            assert state.outcome().winner == [0, 1]
            return
        assert state.winner == state.score.index(max(state.score))
    raise AssertionError("no tied pocha game in the seeds tried")
