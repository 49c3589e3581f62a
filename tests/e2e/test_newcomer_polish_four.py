"""Polish a new user asked for the fourth time (issue 53), at 375×812 and 1280×800: the home
page says what the site is before its forms (P1); the French header holds one row on a
desktop (P3); a logged-in player's menu sits at the phone's right edge (P15)."""

import pytest

from tests.support.browser import ARTIFACTS, in_thread, log_in, no_sideways_scroll
from tests.support.browser import VIEWPORTS as SIZES
from tests.support.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def page_for(browser, size: str, locale: str = "en-US"):
    context = browser.new_context(locale=locale, viewport=SIZES[size])
    page = context.new_page()
    page.set_default_timeout(20_000)
    return context, page


@pytest.mark.parametrize("size", SIZES)
def test_the_home_page_says_what_the_site_is_above_its_forms(browser, quick_daphne, size):
    context, page = page_for(browser, size)
    page.goto(quick_daphne + "/")
    tagline = page.locator(".intro .tagline")
    title = page.get_by_role("heading", name="Play Tute online")
    form = page.locator(".finding")
    assert title.bounding_box()["y"] < tagline.bounding_box()["y"] < form.bounding_box()["y"]
    box = tagline.bounding_box()
    assert box["y"] + box["height"] <= SIZES[size]["height"] / 2
    assert no_sideways_scroll(page)
    page.screenshot(path=f"{ARTIFACTS}/home-intro-{size}.png")
    context.close()


HEADER_SPREAD = """() => {
  const tops = [...document.querySelectorAll('.header-row > *, .site-menu > *')]
    .filter((n) => n.offsetParent !== null && getComputedStyle(n).display !== 'contents')
    .map((n) => { const r = n.getBoundingClientRect(); return r.top + r.height / 2; });
  return Math.max(...tops) - Math.min(...tops);
}"""


@pytest.mark.parametrize("who", ["visitor", "player"])
def test_the_french_header_holds_one_row_on_a_desktop(browser, quick_daphne, who):
    user = in_thread(lambda: UserFactory(username="lucia-garcia", language="fr"))
    # A visitor's browser asks for French; the player chose it (the login page speaks the
    # browser's language until then).
    context, page = page_for(browser, "desktop", "fr-FR" if who == "visitor" else "en-US")
    if who == "player":
        log_in(page, quick_daphne, user.username)
    page.goto(quick_daphne + "/rankings/")
    assert page.locator("html").get_attribute("lang") == "fr"
    page.screenshot(path=f"{ARTIFACTS}/header-fr-{who}-desktop.png")
    # Every item's middle on one line, within a few pixels.
    assert page.evaluate(HEADER_SPREAD) < 8
    context.close()


MENU_GAP = """() => window.innerWidth
  - document.querySelector('.menu-button').getBoundingClientRect().right"""


@pytest.mark.parametrize("who", ["visitor", "player"])
def test_the_menu_button_sits_at_the_phones_right_edge(browser, quick_daphne, who):
    user = in_thread(lambda: UserFactory(username="marco"))
    context, page = page_for(browser, "phone")
    if who == "player":
        log_in(page, quick_daphne, user.username)
    page.goto(quick_daphne + "/rankings/")
    assert page.evaluate(MENU_GAP) < 30
    page.screenshot(path=f"{ARTIFACTS}/menu-{who}-phone.png")
    context.close()


IN_VIEW = """(el) => {
  const r = el.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= window.innerHeight;
}"""


@pytest.mark.parametrize("size", SIZES)
def test_a_refused_table_form_opens_at_its_error_in_the_players_words(browser, quick_daphne, size):
    user = in_thread(lambda: UserFactory(username="lucia", chips=1000))
    context, page = page_for(browser, size)
    log_in(page, quick_daphne, user.username)
    page.goto(quick_daphne + "/tables/#new-table")
    page.locator("#id_variant").select_option("habanero")
    page.locator("#id_stake").fill("999999")
    page.get_by_role("button", name="Open the table").click()
    error = page.locator('[data-errors-for="stake"] li')
    error.wait_for()
    assert error.inner_text() == "The table's stake is 999,999 chips, and you hold 1,000."
    page.wait_for_function(f"() => ({IN_VIEW})(document.querySelector('#id_stake'))")
    assert error.evaluate(IN_VIEW)
    assert no_sideways_scroll(page)
    page.screenshot(path=f"{ARTIFACTS}/table-form-refused-{size}.png")
    context.close()


def test_a_desktop_replay_shows_its_whole_board_without_a_scroll(browser, quick_daphne):
    from tests.support.analysis import finished_game

    game = in_thread(lambda: finished_game(UserFactory(username="olga")))
    context, page = page_for(browser, "desktop")
    page.goto(quick_daphne + game.get_absolute_url())
    page.locator("#replay-next").click()
    felt = page.locator("#replay-felt").bounding_box()
    page.screenshot(path=f"{ARTIFACTS}/replay-desktop.png")
    assert felt["y"] + felt["height"] <= SIZES["desktop"]["height"], felt
    assert page.locator("#replay-next").evaluate(IN_VIEW)
    assert no_sideways_scroll(page)
    context.close()
