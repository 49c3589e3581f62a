"""A competitive game won while away (issue 53), as its two players read it, at 375×812 and
1280×800: marco closed his tab at the first card and never came back; the robot held his
seat at the pace of the move timer, he abandoned, and lucia won. The game's summary at the
table and the game's page say so, and how many of marco's decisions a robot made."""

import pytest

from games.models import GameSeat
from rankings.services import game_result_award
from tests.support.away import away_for_the_whole_game
from tests.support.browser import ARTIFACTS, in_thread, log_in, no_sideways_scroll
from tests.support.browser import VIEWPORTS as SIZES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def abandoned_game():
    """A 2-player competitive tute whose seat 0 was away for the whole game."""
    table, users, game, _waits, _lasted = away_for_the_whole_game(
        {"variant": "tute", "players": 2}, 2, seed=3, away=0
    )
    game_result_award(game_id=game.pk)
    made = GameSeat.objects.get(game=game, seat=0).robot_decisions
    total = sum(1 for deal in game.record["deals"] for a in deal["actions"] if a["seat"] == 0)
    return table, users, game, made, total


@pytest.mark.parametrize("size", SIZES)
def test_the_abandoner_and_the_winner_read_who_won_and_what_the_robot_did(
    browser, quick_daphne, size
):
    table, users, game, made, total = in_thread(abandoned_game)
    marco, lucia = users
    assert made == total > 0
    for user, mine in ((marco, True), (lucia, False)):
        context = browser.new_context(locale="en-US", viewport=SIZES[size])
        page = context.new_page()
        page.set_default_timeout(20_000)
        log_in(page, quick_daphne, user.username)
        page.goto(quick_daphne + table.get_absolute_url())
        summary = page.locator("#summary")
        summary.get_by_role("heading", name="Game over").wait_for()
        text = summary.inner_text()
        assert f"{lucia.username} won." in text, text
        assert f"{marco.username} abandoned the game: it counts as lost for them." in text
        robot = (
            f"Decisions a robot made for you: {made}."
            if mine
            else f"Decisions a robot made for {marco.username}: {made}."
        )
        assert robot in text, text
        assert no_sideways_scroll(page)
        page.screenshot(path=f"{ARTIFACTS}/away-summary-{'marco' if mine else 'lucia'}-{size}.png")
        page.goto(quick_daphne + f"/games/{game.pk}/")
        body = page.locator("main").inner_text()
        assert f"{marco.username} abandoned the game: it counts as lost for them." in body
        assert f"Decisions a robot made for {marco.username}: {made} of {total}." in body
        assert no_sideways_scroll(page)
        page.screenshot(path=f"{ARTIFACTS}/away-game-page-{size}.png", full_page=True)
        context.close()
