"""The XP board and the grade beside it (issue 40): the board counts the XP of games that
count only, the grade all of a player's XP. The board now says which number is which, and
shows beside the grade the whole XP the profile shows. On a phone and a desktop."""

import pytest
from playwright.sync_api import expect

from rankings.models import BoardRow
from rankings.selectors import xp_total
from rankings.services import game_result_award
from tests.support.awards import finish_game
from tests.support.browser import ARTIFACTS, no_sideways_scroll
from tests.support.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS


@pytest.mark.parametrize(("width", "height"), [(375, 812), (1280, 800)])
def test_the_xp_board_says_its_xp_counts_games_that_count_and_the_grade_all_xp(
    browser, daphne_server, width, height
):
    hero = UserFactory(username="reviewer", chips=1000)
    # A game that counts, then three from one address: paid, but on no board.
    for ips in (None, *[{0: "192.0.2.4", 1: "192.0.2.4"}] * 3):
        result = finish_game([hero, UserFactory(chips=1000)], stake=0, deals_to_win=3, ips=ips)
        game_result_award(game_id=result.game_id)
    on_board = BoardRow.objects.get(user=hero, period="all", variant="").xp
    total = xp_total(user=hero)
    assert on_board < total

    context = browser.new_context(locale="en-US", viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(daphne_server + "/rankings/")
    board = page.locator("#leaderboard")
    expect(board.locator("thead")).to_contain_text("Counted XP")
    row = board.locator("tbody tr", has_text="reviewer")
    expect(row.locator("td").nth(3)).to_have_text(str(on_board))
    expect(row.locator(".grade-cell")).to_contain_text(f"{total} XP in all")
    expect(page.locator("#board-xp-note")).to_contain_text("A grade comes from all of a player")
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"rankings-xp-{width}.png"), full_page=True)
    assert no_sideways_scroll(page), f"the rankings are too wide at {width}px"
    # The profile shows the same whole XP.
    page.goto(daphne_server + hero.get_absolute_url())
    expect(page.locator("main")).to_contain_text(f"{total} XP")
    context.close()
