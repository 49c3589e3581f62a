"""The leaderboards in a real browser: htmx swaps boards in place, each with its address."""

import pytest

from rankings.services import game_result_award
from tests.support.awards import finish_game
from tests.support.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_switching_boards_swaps_the_board_in_place_and_updates_the_address(page, daphne_server):
    ana, beto = UserFactory(username="ana", chips=500), UserFactory(username="beto", chips=3000)
    for winner, loser, variant in [(ana, beto, "tute"), (beto, ana, "pocha")]:
        result = finish_game([winner, loser], variant=variant, stake=10, deals_to_win=2)
        game_result_award(game_id=result.game_id)

    page.goto(daphne_server + "/rankings/")
    page.wait_for_function("window.htmx !== undefined")
    page.evaluate("window.notReloaded = true")
    names = page.locator("#leaderboard tbody td:nth-child(2)")
    assert names.all_inner_texts() == ["ana", "beto"]  # 30 XP each, then by who came first

    page.get_by_role("link", name="Chips", exact=True).click()
    page.wait_for_url("**/rankings/?board=chips")
    page.wait_for_selector('#leaderboard[data-board="chips"]')
    assert names.all_inner_texts() == ["beto", "ana"]
    page.get_by_role("link", name="Pocha").click()
    page.wait_for_url("**/rankings/?board=chips&variant=pocha")
    page.wait_for_selector('#leaderboard[data-variant="pocha"]')
    assert names.all_inner_texts() == ["beto", "ana"]
    assert page.evaluate("window.notReloaded") is True  # swapped by htmx, no page load

    page.go_back()
    page.wait_for_url("**/rankings/?board=chips")
    page.reload()  # every board has its own address
    assert page.locator("#leaderboard").get_attribute("data-board") == "chips"


def test_the_rating_boards_fit_a_phone_and_switch_kind_in_place(browser, daphne_server):
    from tests.support.browser import ARTIFACTS, no_sideways_scroll

    ana, beto = UserFactory(username="ana", chips=500), UserFactory(username="beto", chips=500)
    for _game in range(10):
        result = finish_game([ana, beto], stake=0)
        game_result_award(game_id=result.game_id)
    context = browser.new_context(locale="en-US", viewport={"width": 375, "height": 812})
    page = context.new_page()
    page.goto(daphne_server + "/rankings/")
    page.wait_for_function("window.htmx !== undefined")
    page.get_by_role("link", name="Rating, last 7 days").click()
    page.wait_for_url("**/rankings/?board=gain&variant=tute2")
    names = page.locator("#leaderboard tbody td:nth-child(2)")
    assert names.all_inner_texts() == ["ana", "beto"]
    gained = page.locator("#leaderboard tbody tr:first-child td:nth-child(4)").inner_text()
    assert gained.startswith("+")
    page.screenshot(path=str(ARTIFACTS / "ratings-board-375.png"), full_page=True)
    assert no_sideways_scroll(page)
    page.get_by_role("link", name="Pocha").click()
    page.wait_for_url("**/rankings/?board=gain&variant=pocha")
    page.get_by_text("no longer provisional").wait_for()
    context.close()
