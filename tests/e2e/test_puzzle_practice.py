"""After a wrong card a puzzle says what to do (issue 53, confusing 8), at 375×812 and
1280×800: the task line says it is practice now, "Try again" and "Show the solution" are
offered, another card plays out as practice, and the practice notice is not repeated."""

import re

import pytest
from playwright.sync_api import expect

from games.puzzles.mining import action_key
from tests.e2e.test_puzzles import card_puzzles
from tests.support.browser import ARTIFACTS, in_db, log_in, no_sideways_scroll
from tests.support.browser import VIEWPORTS as SIZES
from tests.support.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PRACTICE = "Practice now: tap another card"
MISSED = "Your rated try of this puzzle was a miss: this one is practice."


@pytest.mark.parametrize("size", SIZES)
def test_after_a_wrong_card_the_puzzle_is_practice_and_says_what_to_do(
    browser, daphne_server, size
):
    puzzle = in_db(card_puzzles)[1]
    in_db(lambda: UserFactory(username="carmen"))
    context = browser.new_context(locale="en-US", viewport=SIZES[size])
    page = context.new_page()
    page.set_default_timeout(20_000)
    log_in(page, daphne_server, "carmen")
    page.goto(f"{daphne_server}/puzzles/{puzzle.pk}/")
    wrong = next(key for key in puzzle.steps[0]["wrong"] if key.startswith("play:"))
    best = action_key(puzzle.steps[0]["best"])
    feedback = page.locator("#puzzle-feedback")

    page.locator(f'#puzzle-board button[value="{wrong}"]').click()
    expect(feedback.locator(".verdict")).to_contain_text("Not the best")
    expect(page.locator("#puzzle-task")).to_contain_text(PRACTICE)
    expect(page.locator("#puzzle-again")).to_be_visible()
    expect(page.get_by_role("button", name="Show the solution")).to_be_visible()
    assert no_sideways_scroll(page)
    page.screenshot(path=f"{ARTIFACTS}/puzzle-practice-{size}.png", full_page=True)

    # Another card, as practice: answered, no rating change.
    page.locator(f'#puzzle-board button[value="{best}"]').click()
    expect(feedback.locator(".verdict")).to_contain_text(re.compile("Right|Solved"))
    assert feedback.locator(".rating-change").count() == 0

    # A later visit says once that it is practice; a wrong card does not repeat it.
    page.goto(f"{daphne_server}/puzzles/{puzzle.pk}/")
    expect(feedback).to_contain_text(MISSED)
    page.locator(f'#puzzle-board button[value="{wrong}"]').click()
    expect(feedback.locator(".verdict")).to_contain_text("Not the best")
    assert MISSED not in feedback.inner_text()
    expect(page.locator("#puzzle-task")).to_contain_text(PRACTICE)
    page.locator("#puzzle-again").click()
    expect(page.locator('#puzzle-board input[name="step"]')).to_have_value("0")
    expect(feedback.locator(".verdict")).to_have_count(0)
    context.close()
