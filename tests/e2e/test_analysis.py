"""The analysis on a finished game's replay page, in a real browser, on a phone and a
desktop: the marks beside the moves, the best choices, the chart of each deal, the accuracy,
and the mark of the step shown by the replay."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.analysis import game_analysis_compute
from tests.support.analysis import finished_game
from tests.support.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.mark.parametrize(("width", "height"), [(375, 812), (1280, 800)])
def test_the_replay_page_shows_the_analysis_marks_and_chart(browser, daphne_server, width, height):
    game = finished_game(UserFactory(username="nuria"))
    data = game_analysis_compute(game_id=game.pk, playouts=24).data
    marked = [d for deal in data["deals"] for d in deal["decisions"] if d["mark"] != "best"]
    assert marked  # the player's planted blunder at least

    context = browser.new_context(locale="en-US", viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(daphne_server + game.get_absolute_url())

    section = page.locator("#analysis")
    expect(section.get_by_role("heading", name="Analysis")).to_be_visible()
    expect(section.locator(".analysis-accuracy")).to_contain_text("nuria")
    chart = section.locator("svg.analysis-chart").first
    expect(chart).to_be_visible()
    assert chart.locator("path.analysis-line").count() == 2  # one line per side
    box = chart.bounding_box()
    assert box is not None and box["width"] <= width
    badges = section.locator(".analysis-moves li:not(.mark-best) .mark-badge")
    assert badges.count() == len(marked)
    first = section.locator(".analysis-moves li:not(.mark-best)").first
    expect(first.locator(".mark-badge")).to_be_visible()
    expect(first.locator(".best-choice")).to_contain_text("Best:")
    expect(section.locator(".solved-exactly").first).to_be_visible()

    # The replay stepper shows the mark of the decision at each step.
    page.locator("#replay-next").click()
    page.locator("#replay-next").click()
    texts = []
    for _ in range(12):
        texts.append(page.locator("#replay-analysis").inner_text())
        page.locator("#replay-next").click()
    assert any("expected result" in t for t in texts)

    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the replay page is {overflow}px too wide at {width}px"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"analysis-{width}.png"), full_page=True)
    context.close()
