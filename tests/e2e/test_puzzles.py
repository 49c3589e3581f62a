"""A player solves a puzzle, misses one and uses the hint on a third, in a real browser, on a
phone in Spanish and in French and on a desktop in English; the rating moves as the rules page says
(openskill's update of a won or lost try, shown as 1000 + 30 × (mu − 3 sigma)); the profile
shows the history. No page is wider than the screen."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.puzzles.mining import action_key
from games.puzzles.services import rate
from rankings.rating_math import MODEL, shown_value
from tests.support.browser import in_db, log_in
from tests.support.factories import UserFactory
from tests.support.mined import mine_games

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

WORDS = {
    "es": {
        "task": "Encuentra la mejor jugada",
        "solved": "¡Resuelto!",
        "wrong": "No es la mejor",
        "hint": "Pista",
        "right_suit": "La carta buena es de {suit}.",
        "rating": "Tu puntuación de problemas: {before} → {after} ({change}).",
    },
    "fr": {
        "task": "Trouvez le meilleur coup",
        "solved": "Résolu !",
        "wrong": "Pas le meilleur",
        "hint": "Conseil",
        "right_suit": "La bonne carte est en {suit}.",
        "rating": "Votre classement des problèmes : {before} → {after} ({change}).",
    },
    "en": {
        "task": "Find the best move",
        "solved": "Solved!",
        "wrong": "Not the best",
        "hint": "Hint",
        "right_suit": "The right card is of {suit}.",
        "rating": "Your puzzle rating: {before} → {after} ({change}).",
    },
}
SUITS = {"O": "oros", "C": "copas", "E": "espadas", "B": "bastos"}


def card_puzzles():
    """Three stored puzzles whose every move of the player is a card, each with a wrong card."""
    puzzles = [
        p
        for p in mine_games(seeds=range(1, 25), variants=("habanero", "tute"))
        if all("play" in step["best"] for step in p.steps)
        and any(key.startswith("play:") for key in p.steps[0]["wrong"])
    ]
    assert len(puzzles) >= 3
    return puzzles[:3]


def play_line(page, puzzle):
    """Tap the right card at each of the puzzle's moves; each answer comes before the next."""
    for step, data in enumerate(puzzle.steps):
        expect(page.locator('#puzzle-board input[name="step"]')).to_have_value(str(step))
        page.locator(f'#puzzle-board button[value="{action_key(data["best"])}"]').click()
        if step + 1 < len(puzzle.steps):
            expect(page.locator('#puzzle-board input[name="step"]')).to_have_value(str(step + 1))


def rating_line(words, before, after):
    return words["rating"].format(before=before, after=after, change=f"{after - before:+d}")


def no_sideways_scroll(page, width):
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{page.url} is {overflow}px too wide at {width}px"


@pytest.mark.parametrize(
    ("width", "height", "lang"),
    [(375, 812, "es"), (1280, 800, "en"), (375, 812, "fr")],
    ids=["phone-es", "desktop-en", "phone-fr"],
)
def test_solve_one_miss_one_and_use_the_hint(browser, daphne_server, width, height, lang):
    words = WORDS[lang]
    solved, missed, hinted = in_db(card_puzzles)
    in_db(lambda: UserFactory(username="carmen", language=lang))
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(20_000)
    log_in(page, daphne_server, "carmen")
    ARTIFACTS.mkdir(exist_ok=True)
    new = (MODEL.mu, MODEL.sigma)

    # Solved: every right card answered by the solver, the rating up as documented.
    page.goto(f"{daphne_server}/puzzles/{solved.pk}/")
    expect(page.locator("#puzzle-task")).to_contain_text(words["task"])
    no_sideways_scroll(page, width)
    page.screenshot(path=str(ARTIFACTS / f"puzzle-start-{width}-{lang}.png"), full_page=True)
    play_line(page, solved)
    feedback = page.locator("#puzzle-feedback")
    expect(feedback.locator(".verdict")).to_contain_text(words["solved"])
    mine = rate(new, new, True)[0]
    first = shown_value(*mine)
    assert first > 1000
    expect(feedback.locator(".rating-change")).to_have_text(rating_line(words, 1000, first))
    page.screenshot(path=str(ARTIFACTS / f"puzzle-solved-{width}-{lang}.png"), full_page=True)

    # Missed: a wrong card answered with the refutation to the end of the deal.
    page.goto(f"{daphne_server}/puzzles/{missed.pk}/")
    wrong = next(key for key in missed.steps[0]["wrong"] if key.startswith("play:"))
    page.locator(f'#puzzle-board button[value="{wrong}"]').click()
    expect(feedback.locator(".verdict")).to_contain_text(words["wrong"])
    refutation = missed.steps[0]["wrong"][wrong]["line"][1:]
    expect(feedback.locator("ol.line li")).to_have_count(len(refutation))
    expect(feedback.locator(".outcome")).to_be_visible()
    mine = rate(mine, new, False)[0]
    second = shown_value(*mine)
    assert second < first
    expect(feedback.locator(".rating-change")).to_have_text(rating_line(words, first, second))
    no_sideways_scroll(page, width)
    page.screenshot(path=str(ARTIFACTS / f"puzzle-missed-{width}-{lang}.png"), full_page=True)

    # The hint: the suit of the right card; the try counts as a miss, as the page says.
    page.goto(f"{daphne_server}/puzzles/{hinted.pk}/")
    page.get_by_role("button", name=words["hint"], exact=True).click()
    suit = SUITS[hinted.steps[0]["best"]["play"][-1]]
    expect(feedback.locator(".hint-text")).to_contain_text(words["right_suit"].format(suit=suit))
    mine = rate(mine, new, False)[0]
    third = shown_value(*mine)
    expect(feedback.locator(".rating-change")).to_have_text(rating_line(words, second, third))
    page.screenshot(path=str(ARTIFACTS / f"puzzle-hint-{width}-{lang}.png"), full_page=True)
    play_line(page, hinted)
    expect(feedback.locator(".verdict")).to_contain_text(words["solved"])
    expect(feedback.locator(".rating-change")).to_have_count(0)  # rated once, at the hint

    # The profile: solved 1, missed 2, the rating and its chart.
    page.goto(f"{daphne_server}/players/carmen/")
    history = page.locator("#puzzles")
    expect(history.locator("#puzzle-rating")).to_have_text(str(third))
    expect(history.locator("#puzzles-solved")).to_have_text("1")
    expect(history.locator("#puzzles-failed")).to_have_text("2")
    expect(history.locator("svg.rating-chart")).to_be_visible()
    no_sideways_scroll(page, width)
    page.screenshot(path=str(ARTIFACTS / f"puzzle-profile-{width}-{lang}.png"), full_page=True)
    context.close()
