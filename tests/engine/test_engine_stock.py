"""Two players with a stock: stock play, draws, the arrastre and the exchange (RULES.md §5, §6).

Seat 1 deals, so seat 0 leads. In the long positions seat 0 holds every trump (bastos) and
wins every trick while seat 1 throws losing cards, so the test controls who draws what.
"""

from __future__ import annotations

from games.engine import Action
from tests.support.engine import kinds, leader_wins_trick, play, plays, position, refusal

TWO = {"players": 2}


def exchanges(state, seat):
    return [str(card) for card in kinds(state, seat, "exchange")]


def short(stock_play):
    return position(
        {"players": 2, "stock_play": stock_play},
        1,
        {0: "12O 12B", 1: "1O 1B 2B"},
        "5B",
        closed={1: "OB"},
    )


def test_free_stock_play_allows_any_card_while_the_stock_lasts():
    state = short("free")
    play(state, 0, "12O")
    assert plays(state, 1) == [str(c) for c in state.hand(1)]


def test_follow_trump_stock_play_asks_any_trump_on_a_trump_lead():
    state = short("follow_trump")
    play(state, 0, "12B")
    assert plays(state, 1) == ["1B", "2B"]
    assert refusal(state, Action.play(1, "1O")) == (
        "While the stock has cards, you must answer a trump lead with a trump when you "
        "hold one (§5)."
    )


def test_follow_trump_stock_play_leaves_other_leads_free():
    state = short("follow_trump")
    play(state, 0, "12O")
    assert plays(state, 1) == [str(c) for c in state.hand(1)]


def test_strict_stock_play_applies_the_full_duties_from_the_first_trick():
    state = short("strict")
    play(state, 0, "12O")
    assert plays(state, 1) == ["1O"]


def test_habanero_always_plays_follow_trump_while_the_stock_lasts():
    state = position(
        {"variant": "habanero", "stock_play": "free"},
        1,
        {0: "12B", 1: "1B 2B"},
        "5B",
        closed={1: "B"},
    )
    play(state, 0, "12B")
    assert plays(state, 1) == ["1B", "2B"]


# Seat 0: every trump but the face-up 1B arrives through the stock's even places, which
# the winner of each trick draws; seat 1 never holds a trump.
LONG_HAND = {0: "7B 1O 3O 12O 11O 10O 7O 6O"}
LONG_STOCK = "3B 1C 12B 3C 11B 12C 10B 11C 6B 10C 5B 7C 4B 6C 2B 5C"


def long_position(variant="tute", stock_play="free"):
    opts = {"variant": variant, "players": 2, "stock_play": stock_play}
    return position(opts, 1, LONG_HAND, "1B", closed={1: "B"}, stock=LONG_STOCK)


def test_trick_winner_draws_the_top_card_then_the_loser_the_next():
    state = long_position()
    leader_wins_trick(state)
    assert state.tricks_won == [1, 0]
    assert "3B" in [str(c) for c in state.hand(0)]
    assert "1C" in [str(c) for c in state.hand(1)]
    assert state.stock_left == 22


def test_with_the_trump_card_and_one_other_left_the_winner_takes_the_hidden_one():
    state = long_position()
    for _ in range(11):
        leader_wins_trick(state, keep="7B")
    assert state.stock_left == 2
    hidden = state._deal.stock[-1]
    leader_wins_trick(state, keep="7B")
    assert state.tricks_won == [12, 0]
    assert hidden in state.hand(0)
    assert "1B" in [str(c) for c in state.hand(1)]
    assert state.stock_left == 0 and state.view(0).trump_in_stock is False


def test_arrastre_applies_the_full_duties_once_the_stock_is_empty():
    state = long_position()
    for _ in range(12):
        leader_wins_trick(state, keep="7B")
    # Seat 1 took the face-up 1B on the last draw: its only trump, and it must answer.
    assert [str(c) for c in state.hand(1) if c.suit == "B"] == ["1B"]
    play(state, 0, "4B")
    assert plays(state, 1) == ["1B"]


def test_trick_winner_may_exchange_the_seven_of_trump_for_the_face_up_card():
    state = long_position()
    leader_wins_trick(state, keep="7B")
    assert state.legal_actions_for(0)[0] == Action.exchange(0, "7B")
    state.apply(Action.exchange(0, "7B"))
    hand = [str(c) for c in state.hand(0)]
    assert "1B" in hand and "7B" not in hand
    view = state.view(1).to_dict()
    assert view["trump_card"] == "7B"
    assert view["exchanges"] == [{"seat": 0, "gave": "7B", "took": "1B"}]


def test_exchange_is_refused_before_any_trick_is_won():
    state = long_position()
    assert exchanges(state, 0) == []
    assert refusal(state, Action.exchange(0, "7B")) == (
        "Only the winner of the last trick may exchange, after the draws and before leading (§6)."
    )


def test_exchange_is_refused_to_the_trick_loser():
    state = position(TWO, 1, {0: "1O", 1: "7B 4O"}, "1B", closed={1: "O"})
    play(state, 0, "1O")
    play(state, 1, "4O")
    assert exchanges(state, 1) == []
    assert refusal(state, Action.exchange(1, "7B")).startswith("Only the winner of the last trick")


def test_exchange_is_refused_once_the_leader_has_played():
    state = long_position()
    leader_wins_trick(state, keep="7B")
    play(state, 0, "1O" if "1O" in [str(c) for c in state.hand(0)] else str(state.hand(0)[0]))
    assert refusal(state, Action.exchange(0, "7B")).startswith("Only the winner")


def test_exchange_only_once_per_trick_won_then_the_two_for_the_exchanged_seven():
    state = long_position()
    for _ in range(8):  # the 8th trick's draws bring seat 0 the 2B
        leader_wins_trick(state, keep="7B 2B 1B")
    assert {"7B", "2B"} <= {str(c) for c in state.hand(0)}
    state.apply(Action.exchange(0, "7B"))
    assert refusal(state, Action.exchange(0, "2B")) == (
        "You may exchange the trump card only once per trick won (§6)."
    )
    leader_wins_trick(state, keep="7B 2B 1B")
    assert exchanges(state, 0) == ["2B"]
    state.apply(Action.exchange(0, "2B"))
    assert state.view(0).trump_card.rank == 2


def test_the_two_of_trump_is_exchanged_for_a_low_trump_card():
    state = position(TWO, 1, {0: "1O 2B"}, "5B", closed={1: "O"})
    leader_wins_trick(state, keep="2B")
    assert exchanges(state, 0) == ["2B"]
    assert refusal(state, Action.exchange(0, "7B")) == (
        "Only the 7 of trump is exchanged for a 1, 3, 12, 11 or 10, and only the 2 of trump "
        "for a 7, 6, 5 or 4 (§6)."
    )


def test_nothing_is_exchanged_for_a_two_face_up():
    state = position(TWO, 1, {0: "1O 7B"}, "2B", closed={1: "O"})
    leader_wins_trick(state, keep="7B")
    assert exchanges(state, 0) == []
    assert refusal(state, Action.exchange(0, "7B")) == (
        "There is nothing to exchange for a 2 face up (§6)."
    )


def test_exchange_is_allowed_after_the_11th_trick_but_not_after_the_12th():
    state = long_position()
    for _ in range(11):
        leader_wins_trick(state, keep="7B")
    assert exchanges(state, 0) == ["7B"]
    leader_wins_trick(state, keep="7B")
    assert exchanges(state, 0) == []
    assert refusal(state, Action.exchange(0, "7B")) == (
        "The trump card can be exchanged only while the stock holds another card (§6)."
    )


def test_two_player_tute_sings_while_the_stock_has_cards_but_not_after_the_12th_trick():
    state = long_position()
    for _ in range(11):
        leader_wins_trick(state, keep="7B 12O 11O")
    assert kinds(state, 0, "sing") == ["O"]
    leader_wins_trick(state, keep="7B 12O 11O")
    assert kinds(state, 0, "sing") == []
    assert refusal(state, Action.sing(0, "O")) == (
        "In two-player tute you may sing only while the stock still has cards (§7)."
    )


def test_habanero_sings_after_the_stock_is_empty():
    state = long_position("habanero")
    for _ in range(12):
        leader_wins_trick(state, keep="7B 12O 11O")
    assert kinds(state, 0, "sing") == ["O"]
    state.apply(Action.sing(0, "O"))
    assert state.cantes == [(0, 0, 20)]
