"""'Play now' with robots for the empty seats (issue 40): robots play practice games only
(RULES.md §11), so a table they fill turns practice. The home page's checkbox says so before
the player chooses, and the table says why when it happens, live, in place of a bare
"Practice". In Debian's Chromium, on a phone and a desktop."""

import pytest
from playwright.sync_api import expect

from games.models import Table
from games.table.matchmaking import table_fill_robots
from tests.support.browser import ARTIFACTS, in_db, in_thread, log_in, no_sideways_scroll
from tests.support.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS
SAID = "Practice (robots play practice games only): no chips, XP or rating"


@pytest.mark.parametrize(("width", "height"), [(375, 812), (1280, 800)])
def test_play_now_with_robots_says_the_game_becomes_practice(browser, daphne_server, width, height):
    ana = in_db(lambda: UserFactory(username="anita", chips=1000))
    context = browser.new_context(locale="en-GB", viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(15_000)
    log_in(page, daphne_server, "anita")
    page.goto(daphne_server + "/")
    box = page.locator("#play-now-box")
    choice = box.locator("[data-field='robots']")
    expect(choice).to_contain_text("With robots the game becomes practice")
    expect(choice).to_contain_text("no stake, chips, XP or rating")
    assert no_sideways_scroll(page), f"the home page is too wide at {width}px"
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"play-now-robots-home-{width}.png"), full_page=True)

    box.get_by_label("Game").select_option("habanero")
    box.get_by_label("Robots for the empty seats").check()
    box.get_by_role("button", name="Play now").click()
    page.wait_for_url(daphne_server + "/tables/*/")
    options = page.locator("#table-options")
    expect(options).to_contain_text("Competitive")
    table = in_db(lambda: Table.objects.get())
    # Nobody came: the robots sit down (as the sweep does after its minute).
    in_thread(lambda: table_fill_robots(table_id=table.pk, user=ana))
    expect(options).to_contain_text(SAID)
    page.locator("#hand button").first.wait_for()  # the practice game started
    assert no_sideways_scroll(page), f"the table is too wide at {width}px"
    page.screenshot(path=str(SHOTS / f"play-now-robots-table-{width}.png"))
    page.reload()
    expect(page.locator("#table-options")).to_contain_text(SAID)
    context.close()
