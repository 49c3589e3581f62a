"""The legal list is exactly what the engine accepts (issue #10).

Live play offers a player the actions ``legal_actions_for`` lists, and refuses what ``apply``
refuses. Over random positions of every variant, player count and ``stock_play``, for every
seat, every candidate action (each card played, each suit sung, tute with 11 and 12, each
card exchanged, capote yes and no, every bid) is tried on a copy: the accepted ones must be
the listed ones, no more and no fewer. Each refused one carries a kind, and a card refused
for a duty of §5 names the duty that every listed card meets and it does not.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import CARDS, Action, GameState, IllegalAction, Refusal
from games.engine.cards import SUIT_OF, SUITS
from games.engine.refusals import MALFORMED
from games.engine.rulebook import beats
from tests.support.engine import leader_wins_trick, position, replay, rich_deal

TABLES = [
    {"variant": "tute", "players": 2, "stock_play": "free"},
    {"variant": "tute", "players": 2, "stock_play": "follow_trump"},
    {"variant": "tute", "players": 2, "stock_play": "strict"},
    {"variant": "tute", "players": 3},
    {"variant": "tute", "players": 4, "pairs": False},
    {"variant": "tute", "players": 4, "pairs": True},
    {"variant": "tute", "players": 4, "allow_tute": False},
    {"variant": "habanero"},
    {"variant": "pocha", "players": 2},
    {"variant": "pocha", "players": 3},
    {"variant": "pocha", "players": 4},
]
IDS = ["-".join(str(v) for v in t.values()) for t in TABLES]

CARDS_BY_TEXT = {str(c): c.index for c in CARDS}
MAX_BID = 13  # above the largest hand (12 cards with 3 players)


def candidates(seat: int) -> list[Action]:
    """Every action a seat could try, legal or not."""
    out = [Action.play(seat, c) for c in CARDS]
    out += [Action.sing(seat, s) for s in SUITS]
    out += [Action.tute(seat, r) for r in ("11", "12")]
    out += [Action.exchange(seat, c) for c in CARDS]
    out += [Action.capote(seat, d) for d in (False, True)]
    out += [Action.bid(seat, b) for b in range(MAX_BID + 1)]
    return out


def accepted(state, seat: int) -> set[Action]:
    """The candidates ``apply`` takes, each tried on its own copy; every one it refuses
    carries a kind, and a card refused for a duty of §5 is explained by the legal list."""
    ok = set()
    for action in candidates(seat):
        copy = state.clone()
        try:
            copy.apply(action)
        except IllegalAction as refused:
            assert isinstance(refused.kind, Refusal) and refused.kind not in MALFORMED
            assert tuple(refused.values) == refused.kind.fields
            if refused.kind in DUTIES:
                check_duty(state, seat, action, refused)
            continue
        ok.add(action)
    return ok


DUTIES = {
    Refusal.FOLLOW_SUIT,
    Refusal.BEAT_LED,
    Refusal.TRUMP,
    Refusal.OVERTRUMP,
    Refusal.ANSWER_TRUMP_LEAD,
}


def check_duty(state, seat: int, action: Action, refused: IllegalAction) -> None:
    """The duty that refused a held card is the one every legal card meets and it does not."""
    kind, values = refused.kind, refused.values
    legal = [a.value for a in state.legal_actions_for(seat) if a.kind == "play"]
    card = action.value
    assert card in state.hand(seat) and card not in legal and values["card"] == str(card)
    assert state.trick and state.turn == seat

    def meets(c) -> bool:
        if kind in (Refusal.FOLLOW_SUIT, Refusal.BEAT_LED):
            follows = c.suit == values["led"] == SUITS[SUIT_OF[state.trick[0]]]
            if kind is Refusal.BEAT_LED:
                return follows and beats(c.index, CARDS_BY_TEXT[values["to_beat"]], state.trump)
            return follows
        is_trump = c.suit == values["trump"] == SUITS[state.trump]
        if kind is Refusal.OVERTRUMP:
            return is_trump and beats(c.index, CARDS_BY_TEXT[values["to_beat"]], state.trump)
        return is_trump

    assert legal and all(meets(c) for c in legal)
    # Every held card that meets the duty is legal: the duty alone chose them.
    assert [c for c in state.hand(seat) if meets(c)] == legal


def play_random_game(table: dict, seed: int, on_step, max_deals: int) -> None:
    """A game where each step picks a kind of action at random, then one action of it, so
    that cantes, exchanges and tute come up as often as card plays do."""
    rng = random.Random(seed)
    state = GameState(table)
    state.start_deal(rich_deal(state, rng))
    deals = 1
    while not state.over:
        if state.needs_deal:
            if deals >= max_deals:
                return
            state.deal_next(rng)
            deals += 1
            continue
        on_step(state)
        everything = [a for acts in state.legal_actions().values() for a in acts]
        kind = rng.choice(sorted({a.kind for a in everything}))
        state.apply(rng.choice([a for a in everything if a.kind == kind]))


def check_lists(state) -> None:
    for seat in range(state.n):
        listed = state.legal_actions_for(seat)
        assert len(set(listed)) == len(listed), "an action is listed twice"
        assert accepted(state, seat) == set(listed), f"seat {seat}"


@pytest.mark.parametrize("table", TABLES, ids=IDS)
@settings(max_examples=10, deadline=None, database=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_every_seat_may_do_exactly_what_its_legal_list_says(table, seed):
    checked = 0

    def step(state):
        # This position, and each one a cante or an exchange leads to from it.
        nonlocal checked
        check_lists(state)
        for action in [a for acts in state.legal_actions().values() for a in acts]:
            if action.kind in ("sing", "exchange"):
                after = state.clone()
                after.apply(action)
                check_lists(after)
        checked += 1

    play_random_game(table, seed, step, max_deals=2)
    assert checked


def test_replay_lists_the_exchange_for_a_trick_winner_who_has_just_sung(tmp_path):
    # Seat 0 wins the first trick, sings the 20 in oros: no cante is pending any more, and
    # the 7 of trump (bastos, the 1 face up) may still be exchanged.
    state = position(
        {"variant": "tute", "players": 2},
        1,
        {0: "7B 12O 11O 3O 10O 7O 6O 5O", 1: "1O 2O 12C 12E 12B 10C 10E 10B"},
        "1B",
    )
    leader_wins_trick(state, keep="7B 12O 11O")
    assert state.turn == 0
    state.apply(Action.sing(0, "O"))
    assert not [a for a in state.legal_actions_for(0) if a.kind in ("sing", "tute")]
    status, out = replay(tmp_path, state.to_record())
    assert status == 0
    assert {"seat": 0, "exchange": "7B"} in out["next"]["legal"]["0"]


def test_replay_lists_the_exchange_for_a_trick_winner_with_nothing_to_sing(tmp_path):
    state = position(
        {"variant": "tute", "players": 2},
        1,
        {0: "7B 1O 3O 10O 7O 6O 5O 4O", 1: "2O 12C 12E 12B 11O 10C 10E 10B"},
        "1B",
    )
    leader_wins_trick(state, keep="7B")
    assert state.turn == 0
    assert not [a for a in state.legal_actions_for(0) if a.kind in ("sing", "tute")]
    status, out = replay(tmp_path, state.to_record())
    assert status == 0
    assert {"seat": 0, "exchange": "7B"} in out["next"]["legal"]["0"]
