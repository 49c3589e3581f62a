"""Habanero: capote made and failed, mano de vuelta, points to win (RULES.md §8).

Seat 0 deals, so seat 1 leads. Seat 0 is dealt seven top trumps (bastos) and loses every
stock trick with its one other card, so after the 12th trick it also takes the face-up 4B
and holds eight trumps; seat 1 draws the 5B and 2B.
"""

from __future__ import annotations

import pytest

from games.engine import Action, GameState, from_record
from tests.support.engine import play, position, random_game, refusal, rich_deal

HABANERO = {"variant": "habanero"}


def capote_position():
    return position(
        HABANERO,
        0,
        {0: "1B 3B 12B 11B 10B 7B 6B 2E", 1: "12O 11O"},
        "4B",
        closed={0: "B", 1: "B"},
        stock="5B 1E 2B",
    )


def seat1_wins_stock_trick(state):
    """Seat 1 leads a plain card that seat 0's only plain card cannot beat."""
    plain = next(c for c in state.hand(0) if c.suit != "B")
    leads = [c for c in state.hand(1) if c.suit != "B" and str(c) not in ("12O", "11O")]
    lead = next((c for c in leads if c.suit != plain.suit), None)
    lead = lead or min(leads, key=lambda c: c.index)
    play(state, 1, str(lead))
    play(state, 0, str(plain))
    assert state.turn == 1, "seat 1 must win every stock trick"


def after_the_stock():
    state = capote_position()
    for _ in range(12):
        seat1_wins_stock_trick(state)
    assert state.stock_left == 0
    assert all(c.suit == "B" for c in state.hand(0)) and len(state.hand(0)) == 8
    return state


def arrastre_seat0_wins_when_it_can(state):
    """Seat 1 plays its first legal card; seat 0 leads its strongest, follows cheapest win."""
    while state.phase == "play":
        seat = state.turn
        legal = [a for a in state.legal_actions_for(seat) if a.kind == "play"]
        if seat == 1 or not state.trick:
            state.apply(legal[0])
        else:
            state.apply(legal[-1] if state.win_seat == 0 else _cheapest_win(state, legal))


def _cheapest_win(state, legal):
    from games.engine.rulebook import beats

    winners = [a for a in legal if beats(a.value.index, state.win_card, state.trump)]
    return (winners or legal)[-1]


def test_capote_is_offered_after_the_12th_trick_leader_first_with_the_moment_to_sing_open():
    state = after_the_stock()
    assert state.legal_actions() == {
        1: [Action.capote(1, False), Action.capote(1, True), Action.sing(1, "O")]
    }
    assert refusal(state, Action.play(1, str(state.hand(1)[0]))) == (
        "Capote must be declared or declined before the arrastre begins (§8)."
    )
    state.apply(Action.capote(1, False))
    assert state.legal_actions() == {
        0: [Action.capote(0, False), Action.capote(0, True)],
        1: [Action.sing(1, "O")],
    }


def test_capote_made_wins_the_deal_without_counting():
    state = after_the_stock()
    state.apply(Action.capote(1, False))
    state.apply(Action.capote(0, True))
    arrastre_seat0_wins_when_it_can(state)
    assert state.tricks_won == [8, 12]
    summary = state.deal_summaries()[0]
    assert summary["capote"] == {"seat": 0, "made": True}
    assert summary["winner"] == 0 and summary["last_trick"] == 0
    assert state.points[0] < 101  # it won without the points
    assert state.score == [1, 0] and state.needs_deal


def test_capote_failed_ends_the_deal_at_the_first_trick_lost():
    state = after_the_stock()
    state.apply(Action.capote(1, True))
    assert state.legal_actions_for(0) == []  # only one player may declare
    assert refusal(state, Action.capote(0, True)).startswith("Capote is declared only")
    plain = next(c for c in state.hand(1) if c.suit != "B")
    play(state, 1, str(plain))
    play(state, 0, "4B")  # seat 0 must trump, and wins the trick
    summary = state.deal_summaries()[0]
    assert summary["capote"] == {"seat": 1, "made": False}
    assert summary["winner"] == 0 and summary["last_trick"] is None
    assert len(summary["tricks"]) == 13
    assert state.score == [1, 0] and state.needs_deal


def test_after_a_declined_capote_the_deal_is_scored_on_points():
    state = after_the_stock()
    state.apply(Action.capote(1, False))
    state.apply(Action.capote(0, False))
    arrastre_seat0_wins_when_it_can(state)
    summary = state.deal_summaries()[0]
    assert summary["capote"] is None
    assert sum(summary["points"]) == 130
    totals = summary["points"]
    if max(totals) > 100:
        assert summary["winner"] == totals.index(max(totals))
    else:
        assert summary["winner"] is None and state.needs_deal


def _mano_de_vuelta_won_mid_deal(by_cante=False):
    """A seeded random game whose second deal is a mano de vuelta won before its end."""
    for seed in range(3000):
        state = random_game({**HABANERO, "points_to_win": 5}, seed, max_deals=2)
        deals = state.deal_summaries()
        if len(deals) < 2 or deals[0]["winner"] is not None:
            continue
        second = deals[1]
        if second["winner"] is None or second["capote"] or second["tute"]:
            continue
        if second["last_trick"] is not None:
            continue
        last = state.to_record()["deals"][1]["actions"][-1]
        if by_cante == ("sing" in last):
            return state
    raise AssertionError("no such game in the seeds tried")


def test_mano_de_vuelta_carries_points_and_is_won_mid_deal_when_a_player_passes_100():
    state = _mano_de_vuelta_won_mid_deal()
    first, second = state.deal_summaries()[:2]
    assert second["carry"] == first["points"]
    w = second["winner"]
    totals = [second["carry"][s] + second["points"][s] for s in range(2)]
    assert totals[w] > 100 and totals[1 - w] <= 100
    assert len(second["tricks"]) < 20
    # The deal is over for everyone: no moment to sing, no exchange, no capote to decide.
    assert state.needs_deal or state.over
    for seat in range(2):
        view = state.view(seat)
        assert view.cante_open == () and view.legal_actions == () and view.phase == "done"
    # One action earlier nobody had passed 100: the deal ended at the first moment it happened.
    record = state.to_record()
    record["deals"][1]["actions"].pop()
    before = from_record(record)
    assert before.phase != "done"
    assert max(c + p for c, p in zip(second["carry"], before.points, strict=True)) <= 100


def test_mano_de_vuelta_is_won_by_a_cante_too():
    state = _mano_de_vuelta_won_mid_deal(by_cante=True)
    second = state.deal_summaries()[1]
    w = second["winner"]
    assert second["carry"][w] + second["points"][w] > 100
    assert second["cantes"][w], "the winning player sang"


def test_first_to_points_to_win_wins_the_game():
    for seed in range(5):
        state = random_game({**HABANERO, "points_to_win": 2}, seed)
        assert state.over
        assert state.score[state.winner] == 2 and state.score[1 - state.winner] < 2
        won = [d["winner"] for d in state.deal_summaries() if d["winner"] is not None]
        assert won.count(state.winner) == 2 or any(d["tute"] for d in state.deal_summaries())


def _singing_deal(seed: int):
    """A habanero deal where a seat holds a pair to sing, played to its end: each seat sings
    whenever it may, declines capote, and otherwise plays at random (seeded)."""
    import random

    rng = random.Random(seed)
    state = GameState({"variant": "habanero", "points_to_win": 1})
    state.start_deal(rich_deal(state, rng))
    while not state.needs_deal and not state.over:
        acts = [a for lst in state.legal_actions().values() for a in lst]
        sings = [a for a in acts if a.kind == "sing"]
        capote = [a for a in acts if a.kind == "capote" and a.value is False]
        state.apply((sings or capote or [rng.choice(acts)])[0])
    return state.deal_summaries()[0]


@pytest.mark.parametrize(
    ("seed", "points", "winner", "last_trick"),
    [(825, [116, 114], 0, 1), (179, [103, 127], 1, 0), (3126, [105, 105], 0, 0)],
    ids=["both-over-first-higher", "both-over-second-higher", "both-over-equal"],
)
def test_when_both_pass_100_the_higher_wins_and_at_equal_points_the_last_trick(
    seed, points, winner, last_trick
):
    deal = _singing_deal(seed)
    assert (deal["capote"], deal["tute"]) == (None, None)
    assert deal["points"] == points and deal["last_trick"] == last_trick
    assert deal["winner"] == winner
