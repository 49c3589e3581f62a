"""What a new user met the fourth time (issue 53), at 375×812 and 1280×800: a full table says
once that the master may start; a finished game's players fit the phone's width in Spanish;
a cancelled game's summary says that the stakes came back."""

import pytest

from games.table import cancel, play
from rankings.selectors import chips_balance
from rankings.services import game_result_award
from tests.support.away import away_for_the_whole_game
from tests.support.browser import ARTIFACTS, in_thread, log_in, no_sideways_scroll
from tests.support.browser import VIEWPORTS as SIZES
from tests.support.play import seated_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# How far the players' table reaches past its box (it would scroll inside it).
PLAYERS_OVERFLOW = """() => {
  const box = document.querySelector('.game-seats').closest('.table-scroll');
  return box.scrollWidth - box.clientWidth;
}"""


def page_for(browser, size: str, locale: str = "en-US"):
    context = browser.new_context(locale=locale, viewport=SIZES[size])
    page = context.new_page()
    page.set_default_timeout(20_000)
    return context, page


@pytest.mark.parametrize("size", SIZES)
def test_a_full_table_says_once_that_the_master_may_start(browser, quick_daphne, size):
    table, users = in_thread(lambda: seated_table({"variant": "habanero"}, 2))
    context, page = page_for(browser, size)
    log_in(page, quick_daphne, users[0].username)
    page.goto(quick_daphne + table.get_absolute_url())
    ready = "Every seat is taken: start the game when you are ready."
    page.get_by_text(ready).first.wait_for()
    assert page.get_by_text(ready).count() == 1
    assert no_sideways_scroll(page)
    page.screenshot(path=f"{ARTIFACTS}/full-table-{size}.png")
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_finished_games_players_fit_the_page_in_spanish(browser, quick_daphne, size):
    def finished():
        _table, users, game, _waits, _lasted = away_for_the_whole_game(
            {"variant": "tute", "players": 2}, 2, seed=5, away=0
        )
        game_result_award(game_id=game.pk)
        users[1].language = "es"  # the site speaks Spanish to her once she is logged in
        users[1].save(update_fields=["language"])
        return users, game

    users, game = in_thread(finished)
    context, page = page_for(browser, size)
    log_in(page, quick_daphne, users[1].username)
    page.goto(quick_daphne + f"/games/{game.pk}/")
    page.get_by_text("Desenlace").first.wait_for()
    page.locator(".game-seats").wait_for()
    body = page.locator(".game-seats").inner_text()
    assert "XP" in body and users[1].username in body
    assert page.evaluate(PLAYERS_OVERFLOW) <= 0
    assert no_sideways_scroll(page)
    page.screenshot(path=f"{ARTIFACTS}/game-players-es-{size}.png")
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_cancelled_games_summary_says_the_stakes_came_back(browser, quick_daphne, size):
    def cancelled():
        table, users = seated_table({"variant": "habanero", "stake": 40}, 2)
        play.game_start(table_id=table.pk, user=users[0])
        cancel.game_cancel_propose(table_id=table.pk, user=users[0])
        cancel.game_cancel_answer(table_id=table.pk, user=users[1], accept=True)
        return table, users

    table, users = in_thread(cancelled)
    assert [in_thread(lambda u=u: chips_balance(user=u)) for u in users] == [1000, 1000]
    context, page = page_for(browser, size)
    log_in(page, quick_daphne, users[1].username)
    page.goto(quick_daphne + table.get_absolute_url())
    summary = page.locator("#summary")
    summary.get_by_text("every stake went back to its player").wait_for()
    assert "nobody wins or loses it, and every stake went back to its player." in (
        summary.inner_text()
    )
    assert no_sideways_scroll(page)
    page.screenshot(path=f"{ARTIFACTS}/cancelled-summary-{size}.png")
    context.close()
