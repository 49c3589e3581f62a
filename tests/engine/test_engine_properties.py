"""Property tests over random games of every variant and player count."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import IllegalAction, from_record
from games.engine.actions import PLAYS
from games.engine.cards import CARD_TEXT, POINTS_OF, SUIT_OF, deck_for
from games.engine.replay import replay
from tests.support.engine import random_game

TABLES = [
    {"variant": "tute", "players": 2},
    {"variant": "tute", "players": 2, "stock_play": "follow_trump"},
    {"variant": "tute", "players": 2, "stock_play": "strict"},
    {"variant": "tute", "players": 3, "rounds": 2},
    {"variant": "tute", "players": 4, "pairs": True, "rounds": 2},
    {"variant": "tute", "players": 4, "pairs": False},
    {"variant": "tute", "players": 4, "allow_tute": False},
    {"variant": "habanero", "points_to_win": 2},
    {"variant": "pocha", "players": 2},
    {"variant": "pocha", "players": 3},
    {"variant": "pocha", "players": 4},
]
IDS = ["-".join(str(v) for v in t.values()) for t in TABLES]  # e.g. tute-4-True-2

SETTINGS = settings(max_examples=12, deadline=None, database=None)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def independent_oracle_duties(state, seat):
    """The independent oracle: §5 of RULES.md written out literally and apart from the
    engine's rulebook, to check the engine's legal plays against. It is the only other
    reading of the duties in the project, and it lives in the tests on purpose."""
    hand = state.hands[seat]
    trick = state.trick
    if not trick:
        return sorted(hand)
    rules = state.rules
    trump = state.trump
    led = SUIT_OF[trick[0]]
    if rules.has_stock and state.stock_left:
        if rules.stock_play == "free":
            return sorted(hand)
        if rules.stock_play == "follow_trump":
            trumps = [c for c in hand if SUIT_OF[c] == trump]
            return sorted(trumps if led == trump and trumps else hand)

    def beats(a, b):  # does card a beat card b, with this trick's led suit?
        if SUIT_OF[a] == SUIT_OF[b]:
            return a < b
        return SUIT_OF[a] == trump

    best = trick[0]
    for c in trick[1:]:
        if beats(c, best):
            best = c
    trumped = led != trump and any(SUIT_OF[c] == trump for c in trick)
    same = [c for c in hand if SUIT_OF[c] == led]
    if same:
        if trumped:
            return sorted(same)
        higher = [c for c in same if all(c < t for t in trick if SUIT_OF[t] == led)]
        return sorted(higher or same)
    trumps = [c for c in hand if SUIT_OF[c] == trump]
    if not trumps:
        return sorted(hand)
    table_trumps = [c for c in trick if SUIT_OF[c] == trump]
    if table_trumps:
        higher = [c for c in trumps if c < min(table_trumps)]
        return sorted(higher or hand)
    return sorted(trumps)


def check_position(state):
    """Invariants that hold before every action and at every deal's end."""
    n = state.n
    # Every card in exactly one place.
    places = [c for h in state.hands for c in h]
    places += [c for _, cards in state.tricks for c in cards] + list(state.trick)
    places += state.stock
    if state.trump_in_stock:
        places.append(state.trump_card)
    deal = state._deal
    if state.rules.bids:
        places += [c.index for c in deal.stock]
    assert sorted(places) == sorted(deck_for(n)), "a card is missing or in two places"
    # A seat to move always has a legal action, and nobody acts when the deal is over.
    legal = state.legal_actions()
    if state.phase == "done":
        assert legal == {}
    else:
        assert legal.get(state.to_move), "the seat to move has no legal action"
    # Legal plays are exactly the duties of §5, and every other card is refused.
    if state.phase == "play" and not state.moment:
        seat = state.turn
        engine = [a.value.index for a in legal[seat] if a.kind == "play"]
        assert engine == independent_oracle_duties(state, seat)
        for c in state.hands[seat]:
            if c not in engine:
                with pytest.raises(IllegalAction):
                    state.clone().apply(PLAYS[seat][c])
    # A view holds only the seat's hand and cards shown face up to everyone.
    public = {CARD_TEXT[c] for _, cards in state.tricks for c in cards}
    public |= {CARD_TEXT[c] for c in state.trick}
    public |= {str(deal.trump_card)} | {CARD_TEXT[c] for _, g, _t in state.exchanges for c in (g,)}
    for seat in [None, *range(n)]:
        data = state.view(seat).to_dict()
        json.dumps(data)
        own = set(data["hand"] or [])
        assert own == {CARD_TEXT[c] for c in state.hands[seat]} if seat is not None else not own
        shown = _cards_in(data) - own
        assert shown <= public, f"seat {seat} sees {shown - public}"


def _cards_in(data):
    found = set()
    if isinstance(data, dict):
        for v in data.values():
            found |= _cards_in(v)
    elif isinstance(data, list):
        for v in data:
            found |= _cards_in(v)
    elif isinstance(data, str) and data in CARD_TEXT:
        found.add(data)
    return found


def check_deal_points(state):
    """Tute and habanero: 130 points of cards and last trick in every finished deal."""
    if state.phase != "done" or state.rules.bids or state._deal is None:
        return
    cantes = sum(v for _, _, v in state.cantes)
    cards = sum(POINTS_OF[c] for _, t in state.tricks for c in t)
    if state.last_trick is not None:
        assert cards == 120
        assert sum(state.points) - cantes == 130
    else:  # ended early: tute, failed capote, mano de vuelta won mid-deal
        assert sum(state.points) - cantes == cards <= 120


@pytest.mark.parametrize("table", TABLES, ids=IDS)
@SETTINGS
@given(seed=seeds)
def test_random_games_keep_cards_duties_views_and_points_right(table, seed):
    def step(state):
        check_position(state)
        check_deal_points(state)

    random_game(table, seed, on_step=step, max_deals=3)


@pytest.mark.parametrize("table", TABLES, ids=IDS)
@SETTINGS
@given(seed=seeds)
def test_writing_a_record_and_replaying_it_gives_the_same_game(table, seed):
    state = random_game(table, seed, max_deals=4)
    record = json.loads(json.dumps(state.to_record()))
    again = from_record(record)
    assert again.to_record() == record
    assert again.deal_summaries() == state.deal_summaries()
    assert again.outcome() == state.outcome()
    assert again.legal_actions() == state.legal_actions()
    status, out = replay(record)
    assert status == 0
    assert out["deals"] == state.deal_summaries()
    assert out["game"] == {"over": state.over, "winner": state.winner, "score": state.score}
    assert len(out["steps"]) == sum(len(d["actions"]) for d in record["deals"])


@pytest.mark.parametrize("table", TABLES, ids=IDS)
@settings(max_examples=5, deadline=None, database=None)
@given(seed=seeds)
def test_clone_is_independent_and_plays_on_identically(table, seed):
    import random

    state = random_game(table, seed, max_deals=1)
    rng = random.Random(seed)
    original = from_record(state.to_record()) if not state.over else state
    while original.needs_deal:
        original.deal_next(rng)
    copy = original.clone()
    before = original.to_record()
    moves = 0
    while copy.legal_actions() and moves < 30:
        acts = [a for lst in copy.legal_actions().values() for a in lst]
        copy.apply(rng.choice(acts))
        moves += 1
    assert original.to_record() == before


@pytest.mark.parametrize("table", TABLES, ids=IDS)
@settings(max_examples=6, deadline=None, database=None)
@given(seed=seeds)
def test_a_determinized_copy_looks_the_same_to_the_seat_and_respects_what_it_knows(table, seed):
    import random

    from games.engine import known_cards

    rng = random.Random(seed)
    checked = 0  # positions checked, so the test cannot pass on none

    def step(state):
        nonlocal checked
        if state.phase == "done" or rng.random() > 0.5:
            return
        seat = rng.randrange(state.n)
        copy = state.determinize(seat, random.Random(seed))
        assert copy.view(seat) == state.view(seat)
        assert copy.legal_actions_for(seat) == state.legal_actions_for(seat)
        assert len(copy.stock) == len(state.stock)
        known = known_cards(state.view(seat))
        for card, holder in known.holder.items():
            assert card in copy.hands[holder]
        everything = sorted(
            [c for h in copy.hands for c in h]
            + copy.stock
            + [c for _, t in copy.tricks for c in t]
            + copy.trick
            + ([copy.trump_card] if copy.trump_in_stock else [])
        )
        assert len(set(everything)) == len(everything)
        for s in range(state.n):
            if s != seat:
                assert all(known.may_hold(s, c) for c in copy.hands[s])
        checked += 1
        copy.apply(rng.choice([a for acts in copy.legal_actions().values() for a in acts]))

    random_game(table, seed, on_step=step, max_deals=3)
    assert checked
