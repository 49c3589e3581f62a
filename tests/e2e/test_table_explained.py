"""Habanero's carried points on the table page, in Debian's Chromium against a real daphne:
after a deal nobody won the summary says why (nobody passed 100) and the next deal shows
each side's total against 100. The deal under 100 comes from a seeded game the engine
plays; its frames are built by the server's own functions (games/table/frames.py,
games/table/explain.py) and handed to the page through a relay on its table socket."""

import random

import pytest

from games.engine import new_game
from tests.support.browser import ARTIFACTS, PHONE, practice, relayed_table, seat_game_part

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def a_deal_nobody_won():
    """Seat 0's game parts at the end of a seeded habanero deal under 100, then once the
    next deal, which carries its points, has had a trick."""
    for seed in range(200):
        state = new_game({"variant": "habanero", "points_to_win": 2}, random.Random(seed), 0)
        rng = random.Random(seed)
        ended = None
        while not state.over:
            if state.needs_deal:
                ended = (
                    seat_game_part(state, 0)
                    if state.deal_index >= 0 and state.deal_winner is None
                    else None
                )
                state.deal_next(rng)
                continue
            if ended and state.carry is not None and state.tricks and not state.trick:
                return ended, seat_game_part(state, 0)
            legal = state.legal_actions()
            state.apply(rng.choice(legal[sorted(legal)[0]]))
    pytest.fail("no deal under 100 in 200 seeded games")


def test_a_habanero_deal_under_100_says_why_and_the_next_carries_its_points(browser, quick_daphne):
    ended, carried = a_deal_nobody_won()
    table = practice("carlota", variant="habanero", players=2, move_time=300)
    context, page, relay = relayed_table(browser, quick_daphne, "carlota", table, PHONE)
    relay.send_game(ended)
    summary = page.locator("#summary")
    summary.get_by_text("Nobody passed 100 points").wait_for()
    text = summary.inner_text()
    assert "nobody wins this deal, and its points are carried into the next one." in text
    points = ended["view"]["points"]
    assert all(p <= 100 for p in points)
    assert "won." not in text  # no winner line for a deal nobody won
    page.screenshot(path=str(ARTIFACTS / "habanero-carry-summary-375.png"))

    relay.send_game(carried)
    summary.wait_for(state="hidden")
    carry = carried["view"]["carry"]
    now = carried["view"]["points"]
    board = page.locator(".scoreboard").inner_text()
    for side in (0, 1):
        assert f"{carry[side] + now[side]} of 100" in board, board
    # The score sheet lists the deal nobody won, and what the next one carried in.
    page.locator("#score-sheet-button").click()
    sheet = page.locator("#score-sheet").inner_text()
    assert "Deal 1" in sheet and "–" in sheet
    page.screenshot(path=str(ARTIFACTS / "habanero-carry-next-deal-375.png"))
    context.close()
