"""A finished game's replay on a phone (375×812) and a desktop (1280×800): on the phone the
board comes first with its step buttons under it, the swipe is said instead of the arrow
keys, and each chart's legend is as readable as the page's text."""

import pytest

from games.analysis import game_analysis_compute
from tests.support.analysis import finished_game
from tests.support.browser import ARTIFACTS
from tests.support.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("width", "height"), [(375, 812), (1280, 800)])
def test_the_replay_fits_a_phone_with_its_buttons_under_the_board(
    browser, daphne_server, width, height
):
    game = finished_game(UserFactory(username=f"olga_{width}"))
    game_analysis_compute(game_id=game.pk, playouts=8)
    context = browser.new_context(locale="en-US", viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(daphne_server + game.get_absolute_url())
    felt = page.locator("#replay-felt").bounding_box()
    buttons = page.locator(".replay-controls").bounding_box()
    phone = width < 640
    if phone:
        assert buttons["y"] >= felt["y"] + felt["height"], (buttons, felt)
    page.locator("#replay-next").click()
    assert page.locator("#replay-counter").inner_text().startswith("Step 2")
    note = page.locator(".replay-keys:visible, .replay-swipe:visible")
    assert note.count() == 1
    said = note.inner_text()
    assert ("arrow keys" in said) is not phone, said
    assert ("swipe" in said) is phone, said
    # The legend: each side's name, in text at least 12 px high, on screen.
    legend = page.locator("figure.chart").first.locator(".chart-legend .legend-item")
    assert legend.count() == 2
    for item in legend.all():
        assert item.evaluate("e => parseFloat(getComputedStyle(e).fontSize)") >= 12
        box = item.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
    assert page.locator("svg.analysis-chart text[class*='side-']").count() == 0
    assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
    page.screenshot(path=f"{ARTIFACTS}/replay-{width}.png")
    page.locator("figure.chart").first.screenshot(path=f"{ARTIFACTS}/replay-chart-{width}.png")
    context.close()
