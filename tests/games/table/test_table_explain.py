"""What the table page explains, worked out by the server (games/table/explain.py): the
trick's leader and winner, the last trick's taker and points, why a card is dimmed, the
score sheet. Played on whole seeded games of each variant, checked against the engine's
own view and refusals."""

import random

import pytest

from games.engine import Action, IllegalAction, new_game
from games.engine.cards import CARDS, POINTS_OF
from games.table.explain import PLAY_DUTIES, dimmed_reason, score_sheet, trick_explained

VARIANTS = [
    {"variant": "tute", "players": 4, "pairs": True},
    {"variant": "tute", "players": 2},
    {"variant": "habanero", "players": 2, "points_to_win": 3},
    {"variant": "pocha", "players": 3},
]


def played_through(options: dict, seed: int):
    """Every state of a whole game played at random, before each action."""
    state = new_game(options, random.Random(seed), first_dealer=0)
    rng = random.Random(seed + 1)
    while not state.over:
        if state.needs_deal:
            state.deal_next(rng)
            continue
        yield state
        legal = state.legal_actions()
        seat = rng.choice(sorted(legal))
        state.apply(rng.choice(legal[seat]))
    yield state


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: f"{o['variant']}{o['players']}")
def test_the_trick_taken_is_the_engines_and_worth_its_cards(options):
    for state in played_through(options, 7):
        explained = trick_explained(state)
        view = state.view(None)
        if not view.tricks:
            assert explained["taken"] is None
            continue
        taken = explained["taken"]
        # The winner leads the next trick, or took the deal's last one.
        winner = view.last_trick if view.trick == () and view.last_trick is not None else None
        if view.trick:
            assert view.trick[0][0] == state.trick_leader == explained["leader"]
        if winner is not None:
            assert taken["seat"] == winner
        cards = [card for _seat, card in view.tricks[-1]]
        assert taken["number"] == len(view.tricks)
        if options["variant"] == "pocha":
            assert taken["points"] is None
        else:
            worth = sum(POINTS_OF[c.index] for c in cards)
            assert taken["points"] in (worth, worth + 10)


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: f"{o['variant']}{o['players']}")
def test_a_dimmed_card_says_the_duty_the_engine_refuses_it_for(options):
    reasons = set()
    for state in played_through(options, 11):
        seat = state.to_move
        if seat is None:
            continue
        plays = {a.value for a in state.legal_actions_for(seat) if a.kind == "play"}
        barred = [CARDS[c] for c in state.hands[seat] if CARDS[c] not in plays]
        kind = dimmed_reason(state, seat)
        if not plays or not barred:
            assert kind is None
            continue
        reasons.add(kind)
        for card in barred:
            with pytest.raises(IllegalAction) as refused:
                state.clone().apply(Action(seat, "play", card))
            assert refused.value.kind.value == kind
        assert kind in {duty.value for duty in PLAY_DUTIES}
        # Nobody else is told why: it is not their turn to play.
        other = (seat + 1) % state.n
        assert dimmed_reason(state, other) is None
        assert dimmed_reason(state, None) is None
    assert reasons, "no card was ever dimmed in a whole game"


def test_the_score_sheet_lists_each_finished_deal_with_pochas_bids_and_tricks():
    middle = None
    for state in played_through({"variant": "pocha", "players": 3}, 5):
        if state.deal_index == 4 and not state.deal_over and middle is None:
            # While a deal is played, the sheet holds only the deals before it.
            middle = len(score_sheet(state))
    assert middle == 4
    sheet = score_sheet(state)
    summaries = state.deal_summaries()
    assert len(sheet) == len(summaries) == 23
    for line, summary in zip(sheet, summaries, strict=True):
        assert line["bids"] == summary["bids"]
        assert line["points"] == summary["points"]
        assert sum(line["taken"]) == len(summary["tricks"])
        # Each trick's winner leads the next one: it took at least a trick.
        for after in summary["tricks"][1:]:
            assert line["taken"][after[0]["seat"]] >= 1


def test_the_score_sheet_says_what_a_habanero_deal_carried_in():
    for seed in range(40):
        *_, state = played_through({"variant": "habanero", "players": 2, "points_to_win": 3}, seed)
        sheet = score_sheet(state)
        carried = [line for line in sheet if line["carry"] is not None]
        if carried:
            before = sheet[sheet.index(carried[0]) - 1]
            assert before["winner"] is None
            assert all(points <= 100 for points in before["points"])
            return
    pytest.fail("no habanero deal under 100 in 40 games")
