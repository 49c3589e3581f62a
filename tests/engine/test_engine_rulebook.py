"""Each rule of the rulebook at its edges, so that changing it by one character fails a test:
a boundary moved by one point, a rank dropped from a rank set, an exception of §5 switched
off. The expected values are RULES.md's, written here by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine import Refusal, from_record, rulebook
from games.engine.cards import SUITS, caballo, card_index, rey
from games.engine.rulebook import (
    beats,
    cante_value,
    exchange_card,
    follower_duties,
    full_duties_apply,
    held_pairs,
    may_sing_after_trick,
    must_answer_lead,
    pocha_hand_score,
    singable_suits,
    stock_play_allowed,
    trick_winner,
    trick_winner_seat,
    tute_ranks,
    wins_over,
)

O, C, E, B = range(4)  # noqa: E741 - the suits' own letters
RECORDS = Path(__file__).resolve().parents[2] / "games" / "rules" / "records"


def c(text: str) -> int:
    """'12O' -> the card int."""
    return card_index(int(text[:-1]), text[-1])


def hand(text: str) -> list[int]:
    return sorted(c(t) for t in text.split())


def texts(cards: list[int]) -> set[str]:
    from games.engine.cards import CARD_TEXT

    return {CARD_TEXT[x] for x in cards}


# ---------------------------------------------------------------------- numbers of §7-§9


def test_the_numbers_are_those_of_the_rules():
    assert rulebook.DECK_POINTS == 120
    assert rulebook.LAST_TRICK_BONUS == 10
    assert rulebook.DEAL_POINTS == 130
    assert rulebook.HABANERO_OVER == 100
    assert (rulebook.CANTE_TRUMP, rulebook.CANTE_PLAIN) == (40, 20)
    assert (rulebook.POCHA_EXACT, rulebook.POCHA_PER_TRICK, rulebook.POCHA_MISS_PER_TRICK) == (
        10,
        5,
        5,
    )


def test_habanero_wins_over_100_not_at_100():
    assert not wins_over(99)
    assert not wins_over(100)
    assert wins_over(101)


@pytest.mark.parametrize(("name", "won"), [("habanero_100", False), ("habanero_101", True)])
def test_a_habanero_deal_ending_on_100_is_not_won_on_101_it_is(name, won):
    state = from_record(json.loads((RECORDS / f"{name}.json").read_text()))
    summary = state.deal_summaries()[0]
    assert max(summary["points"]) == (101 if won else 100)
    assert (summary["winner"] is not None) is won


@pytest.mark.parametrize(
    ("bid", "taken", "score"),
    [(0, 0, 10), (1, 1, 15), (3, 3, 25), (1, 0, -5), (0, 1, -5), (0, 3, -15), (4, 2, -10)],
)
def test_pocha_scores_ten_plus_five_a_trick_or_minus_five_a_trick_of_difference(bid, taken, score):
    assert pocha_hand_score(bid, taken) == score


def test_a_cante_is_40_in_trump_and_20_otherwise():
    for trump in range(4):
        for suit in range(4):
            assert cante_value(suit, trump) == (40 if suit == trump else 20)


# ---------------------------------------------------------------------- §6 the exchange


@pytest.mark.parametrize("suit", SUITS)
@pytest.mark.parametrize(
    ("face_up", "given"),
    [(1, 7), (3, 7), (12, 7), (11, 7), (10, 7), (7, 2), (6, 2), (5, 2), (4, 2), (2, None)],
)
def test_the_7_is_given_for_1_3_12_11_10_and_the_2_for_7_6_5_4(suit, face_up, given):
    card = exchange_card(card_index(face_up, suit))
    assert card == (None if given is None else card_index(given, suit))


# ---------------------------------------------------------------------- §5 who wins a trick


def test_a_higher_card_of_the_same_suit_beats_and_a_lower_one_does_not():
    assert beats(c("1O"), c("3O"), trump=C)
    assert not beats(c("3O"), c("1O"), trump=C)
    assert not beats(c("2O"), c("12O"), trump=C)


def test_any_trump_beats_a_plain_card_and_a_plain_card_of_another_suit_never_beats():
    assert beats(c("2C"), c("1O"), trump=C)
    assert not beats(c("1E"), c("2O"), trump=C)
    assert not beats(c("1O"), c("2C"), trump=C)  # a plain as under a small trump


def test_the_trick_goes_to_the_highest_trump_else_the_highest_of_the_led_suit():
    assert trick_winner([c("4O"), c("1E"), c("3O"), c("2B")], trump=C) == 2
    assert trick_winner([c("4O"), c("5C"), c("3O"), c("2C")], trump=C) == 1
    assert trick_winner([c("4O"), c("7C"), c("3O"), c("1C")], trump=C) == 3
    assert trick_winner([c("1O"), c("3O")], trump=C) == 0
    assert trick_winner_seat(C, 4, 3, [c("4O"), c("5C"), c("3O"), c("2C")]) == 0
    assert trick_winner_seat(C, 3, 2, [c("4O"), c("5O"), c("3O")]) == 1


# ---------------------------------------------------------------------- §5 the duties
# Each duty gives the cards a follower may play and the reason any other card is refused.


def duties(mine: list[int], led: int, win: str, trump: int) -> tuple[set[str], Refusal | None]:
    allowed, reason = follower_duties(mine, led, c(win), trump)
    return texts(allowed), reason


def test_follow_and_beat_when_a_higher_card_of_the_led_suit_is_held():
    mine = hand("1O 4O 2O 3C")
    assert duties(mine, O, "12O", trump=E) == ({"1O"}, Refusal.BEAT_LED)


def test_follow_with_any_card_of_the_suit_when_none_beats():
    mine = hand("4O 2O 3C")
    assert duties(mine, O, "12O", trump=E) == ({"4O", "2O"}, Refusal.FOLLOW_SUIT)


@pytest.mark.parametrize(
    ("cards", "led", "win", "allowed", "reason"),
    [
        ("4C 1E", C, "12C", {"4C"}, Refusal.FOLLOW_SUIT),
        ("5E 1B 3B", E, "12E", {"5E"}, Refusal.FOLLOW_SUIT),
        ("2O 1C", O, "12O", {"2O"}, Refusal.FOLLOW_SUIT),
        ("1O 3O 2B", C, "12C", {"1O", "3O", "2B"}, None),  # void in copas, no trump (espadas)
    ],
)
def test_a_suit_is_its_own_ten_cards_and_no_card_of_the_next_suit(cards, led, win, allowed, reason):
    assert duties(hand(cards), led, win, trump=E) == (allowed, reason)


def test_beating_means_above_the_best_led_suit_card_not_just_the_first():
    mine = hand("3O 10O 2C")  # 3O beats the 12O led but not the as played after it
    assert duties(mine, O, "1O", trump=E) == ({"3O", "10O"}, Refusal.FOLLOW_SUIT)


def test_once_a_trump_is_on_a_plain_lead_any_card_of_the_led_suit_will_do():
    mine = hand("1O 4O 1E")
    assert duties(mine, O, "7E", trump=E) == ({"1O", "4O"}, Refusal.FOLLOW_SUIT)


def test_on_a_trump_lead_the_follower_must_beat_in_trump():
    mine = hand("1E 5E 1O")
    assert duties(mine, E, "12E", trump=E) == ({"1E"}, Refusal.BEAT_LED)


def test_without_the_led_suit_a_trump_must_be_played():
    mine = hand("2E 1C 3C")
    assert duties(mine, O, "12O", trump=E) == ({"2E"}, Refusal.TRUMP)


def test_over_a_trump_on_the_table_a_higher_trump_must_be_played():
    mine = hand("1E 2E 1C")
    assert duties(mine, O, "12E", trump=E) == ({"1E"}, Refusal.OVERTRUMP)


def test_there_is_no_duty_to_under_trump():
    mine = hand("2E 1C 3C")
    assert duties(mine, O, "12E", trump=E) == ({"2E", "1C", "3C"}, None)


def test_with_neither_the_led_suit_nor_a_trump_any_card_will_do():
    mine = hand("1C 3B")
    assert duties(mine, O, "12O", trump=E) == ({"1C", "3B"}, None)


@pytest.mark.parametrize("stock_play", ["free", "follow_trump", "strict"])
def test_without_a_stock_or_in_the_arrastre_the_full_duties_apply(stock_play):
    for has_stock, stock_left in ((False, 0), (True, 0)):
        assert full_duties_apply(has_stock, stock_play, stock_left)


def test_strict_stock_play_applies_the_duties_while_the_stock_lasts():
    mine = hand("1O 4O 2E")
    assert full_duties_apply(True, "strict", 10)
    assert duties(mine, O, "12O", E) == ({"1O"}, Refusal.BEAT_LED)


def test_free_stock_play_allows_any_card_while_the_stock_lasts():
    mine = hand("1O 4O 2E")
    assert not full_duties_apply(True, "free", 10)
    assert stock_play_allowed(mine, O, E, "free") == (mine, None)
    assert stock_play_allowed(mine, E, E, "free") == (mine, None)


def test_follow_trump_stock_play_asks_any_trump_on_a_trump_lead_only():
    mine = hand("1O 4E 2E")
    assert not full_duties_apply(True, "follow_trump", 10)
    # Any trump, even one that does not beat, and only on a trump lead.
    allowed, reason = stock_play_allowed(mine, E, E, "follow_trump")
    assert (texts(allowed), reason) == ({"4E", "2E"}, Refusal.ANSWER_TRUMP_LEAD)
    assert stock_play_allowed(mine, O, E, "follow_trump") == (mine, None)
    no_trump = hand("1O 4C")
    assert stock_play_allowed(no_trump, E, E, "follow_trump") == (no_trump, None)


def test_who_must_answer_the_led_suit():
    assert must_answer_lead(False, "free", 0, O, E)
    assert must_answer_lead(True, "free", 0, O, E)
    assert must_answer_lead(True, "strict", 8, O, E)
    assert not must_answer_lead(True, "free", 8, E, E)
    assert must_answer_lead(True, "follow_trump", 8, E, E)
    assert not must_answer_lead(True, "follow_trump", 8, O, E)


# ---------------------------------------------------------------------- §7 cantes and tute


def mask(text: str) -> int:
    return sum(1 << x for x in hand(text))


def test_a_pair_can_be_sung_once_and_the_40_comes_first():
    both = mask("12O 11O 12E 11E 1C")
    assert held_pairs(both, sung=0) == [O, E]
    assert singable_suits(both, sung=0, trump=C) == [O, E]
    assert singable_suits(both, sung=0, trump=E) == [E]
    assert singable_suits(both, sung=1 << rey(E), trump=E) == [O]
    assert held_pairs(mask("12O 11C"), sung=0) == []
    assert held_pairs(mask("12O 11O"), sung=1 << rey(O)) == []


def test_singing_after_a_trick_needs_cantes_and_in_two_player_tute_a_stock():
    assert may_sing_after_trick(True, False, 0)
    assert may_sing_after_trick(True, True, 1)
    assert not may_sing_after_trick(True, True, 0)
    assert not may_sing_after_trick(False, False, 5)


def test_tute_needs_all_four_reyes_or_all_four_caballos():
    reyes = sum(1 << rey(s) for s in range(4))
    caballos = sum(1 << caballo(s) for s in range(4))
    assert tute_ranks(reyes) == ["12"]
    assert tute_ranks(caballos) == ["11"]
    assert tute_ranks(reyes | caballos) == ["11", "12"]
    assert tute_ranks(reyes & ~(1 << rey(B))) == []
    assert tute_ranks(caballos & ~(1 << caballo(O))) == []
