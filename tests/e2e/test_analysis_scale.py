"""The analysis reads as its legend says (issue 40): every number shown lies between 0 (a
deal lost) and 100 (a deal won), the accuracy is the share of decisions marked best, as a
player counts it from the marks, and each decision opens its position in the replay. On a
phone and a desktop, in a real browser."""

import re

import pytest
from playwright.sync_api import expect

from games.analysis import game_analysis_compute
from tests.support.analysis import finished_game
from tests.support.browser import ARTIFACTS
from tests.support.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


@pytest.mark.parametrize(("width", "height"), [(375, 812), (1280, 800)])
def test_the_analysis_stays_on_its_scale_and_links_each_decision(
    browser, daphne_server, width, height
):
    # The helper's game: the hard robot plays its best line at seat 0, the player at seat 1
    # throws away, once, the card that costs most in the arrastre (a planted blunder).
    game = finished_game(UserFactory(username="nuria"))
    game_analysis_compute(game_id=game.pk, playouts=24)

    context = browser.new_context(locale="en-US", viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(daphne_server + game.get_absolute_url())
    section = page.locator("#analysis")
    expect(section).to_contain_text("0 for lost and 100 for won")

    rows = section.locator(".analysis-moves li")
    marks = rows.evaluate_all("rows => rows.map(row => row.dataset.mark)")
    assert "blunder" in marks and "best" in marks
    shown = section.locator(".analysis-moves .expected, .analysis-moves .best-choice")
    numbers = [float(NUMBER.findall(text)[-1]) for text in shown.all_inner_texts()]
    assert numbers and all(0 <= number <= 100 for number in numbers), numbers
    for dot in section.locator("svg.analysis-chart circle").all():
        # Every point of the chart lies inside its plot, between the 0 and 100 lines.
        plot = dot.locator("xpath=ancestor::*[name()='svg']/*[name()='rect']")
        top, height_ = float(plot.get_attribute("y")), float(plot.get_attribute("height"))
        assert top <= float(dot.get_attribute("cy")) <= top + height_

    # Accuracy: the player's share of real choices marked best, as counted from the list; a
    # decision where every action came out alike says so and is left out.
    names = rows.evaluate_all(
        "rows => rows.map(row => row.querySelector('.move').textContent.split(' ')[0])"
    )
    choices = rows.evaluate_all("rows => rows.map(row => row.dataset.choice === 'true')")
    for row, choice in zip(rows.all(), choices, strict=True):
        assert ("not counted" in row.inner_text()) is not choice
    for name in ("nuria",):
        own = [
            mark
            for who, mark, choice in zip(names, marks, choices, strict=True)
            if who == name and choice
        ]
        best = own.count("best")
        accuracy = section.locator(".analysis-accuracy tr", has_text=name)
        expect(accuracy).to_contain_text(f"{round(100 * best / len(own), 1)}%")
        expect(accuracy).to_contain_text(f"({best} best of {len(own)})")

    # The blunder opens its position in the replay, with its line.
    blunder = section.locator(".analysis-moves li.mark-blunder").first
    card = blunder.locator(".move").inner_text().split(" plays ")[1]
    blunder.locator("a.move").click()
    expect(page.locator("#replay-step")).to_have_text(f"nuria plays: {card}.")
    expect(page.locator("#replay-analysis")).to_contain_text("Blunder")
    assert re.search(r"#replay-deal-1-step-\d+$", page.url)
    counter = page.locator("#replay-counter").inner_text()
    # The address holds the position: a reload shows it again.
    page.reload()
    expect(page.locator("#replay-counter")).to_have_text(counter)
    expect(page.locator("#replay-step")).to_have_text(f"nuria plays: {card}.")

    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the replay page is {overflow}px too wide at {width}px"
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"analysis-replay-{width}.png"))
    section.screenshot(path=str(SHOTS / f"analysis-{width}.png"))
    context.close()
