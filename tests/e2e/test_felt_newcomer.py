"""What a newcomer met at the table (issue 40), at 375×812 and at 1280×800: the site's header
folds on a phone (no page scrolls sideways, and Log in, Sign up and the languages are a tap
away), "While you were away" says a cante as the page's buttons do, the hint marks its card
in the hand, and a provisional rating's "?" is explained where it is shown."""

import re

import pytest

from games.engine.cards import SUITS
from games.engine.rulebook import cante_value
from games.models import GameSeat, Table
from games.table import play, seating
from games.table.record import game_state
from tests.support.browser import (
    ARTIFACTS,
    DESKTOP,
    PHONE,
    finish_the_game,
    in_db,
    in_thread,
    log_in,
    practice,
)
from tests.support.factories import UserFactory
from tests.support.waits import until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": PHONE, "desktop": DESKTOP}

# The elements of the header that reach past the viewport's right edge, or scroll inside it.
HEADER_OFF = """() => {
  const row = document.querySelector('.header-row');
  const off = [...row.querySelectorAll('a, button, label')]
    .filter((e) => e.getClientRects().length && e.getBoundingClientRect().right > innerWidth + .5)
    .map((e) => e.textContent.trim());
  const inside = row.scrollWidth - row.clientWidth;
  if (inside > 1) off.push(`row scrolls ${inside}px`);
  const wide = document.documentElement.scrollWidth - innerWidth;
  if (wide > 0) off.push(`page ${wide}px too wide`);
  return off;
}"""


def new_page(browser, size: str):
    context = browser.new_context(locale="en-US", viewport=SIZES[size])
    page = context.new_page()
    page.set_default_timeout(20_000)
    return context, page


def header_reachable(page, names: list[str]) -> None:
    """Nothing of the header off the screen; on a phone each of `names` shows once the menu
    is opened, whole on screen."""
    assert page.evaluate(HEADER_OFF) == [], page.url
    menu = page.locator(".menu-button")
    if menu.is_visible():
        menu.click()
        assert page.evaluate(HEADER_OFF) == [], page.url
    for name in names:
        # A language shows its code in a desktop's header, its name in the phone's menu.
        header = page.locator(".header-row")
        item = header.get_by_text(name, exact=True).or_(header.get_by_label(name, exact=True))
        item = item.filter(visible=True).first
        assert item.is_visible(), name
        box = item.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"], name


@pytest.mark.parametrize("size", SIZES)
def test_the_header_leaves_nothing_off_the_screen_on_any_page(browser, quick_daphne, size):
    table = practice(f"header_{size}", variant="habanero", players=2)
    context, page = new_page(browser, size)
    anonymous = ["Log in", "Sign up", "Français", "Español", "English", "Lobby", "Rules"]
    for path in ("/", "/tables/", table.get_absolute_url(), "/rankings/", "/rules/"):
        page.goto(quick_daphne + path)
        header_reachable(page, anonymous)
    page.screenshot(path=f"{ARTIFACTS}/header-anonymous-{size}.png")
    log_in(page, quick_daphne, f"header_{size}")
    page.goto(quick_daphne + table.get_absolute_url())
    page.locator("#hand button").first.wait_for()
    header_reachable(page, ["Log out", "Friends", "Español", "Lobby"])
    page.screenshot(path=f"{ARTIFACTS}/header-table-{size}.png")
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_while_away_says_a_cante_in_the_words_of_its_button(browser, quick_daphne, size):
    username = f"kira_{size}"
    table = practice(username, variant="tute", players=2)

    def away_sang() -> int:
        game = Table.objects.get(pk=table.pk).game
        GameSeat.objects.filter(game=game, seat=0).update(while_away=[{"seat": 0, "sing": "E"}])
        return cante_value(SUITS.index("E"), game_state(game=game).trump)

    value = in_db(away_sang)
    context, page = new_page(browser, size)
    log_in(page, quick_daphne, username)
    page.goto(quick_daphne + table.get_absolute_url())
    line = page.locator("#while-away")
    line.wait_for()
    assert line.inner_text().startswith(
        f"While you were away, a robot made 1 of your decisions: Sing {value} in espadas."
    ), line.inner_text()
    page.screenshot(path=f"{ARTIFACTS}/while-away-{size}.png")
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_hint_marks_the_card_it_names_in_the_hand(browser, quick_daphne, size):
    username = f"lola_{size}"
    table = practice(username, variant="habanero", players=2)
    context, page = new_page(browser, size)
    log_in(page, quick_daphne, username)
    page.goto(quick_daphne + table.get_absolute_url())
    page.locator("#hand button.playable").first.wait_for()
    page.get_by_role("button", name="Hint").click()
    text = page.locator("#hint-text")
    text.get_by_text("The robot would play:").wait_for()
    marked = page.locator("#hand .card-btn.hinted")
    assert marked.count() == 1
    name = marked.get_attribute("aria-label")
    assert text.inner_text() == f"The robot would play: {name}"
    # Marked so that it shows: a gold outline around the card, on screen.
    assert marked.evaluate("b => getComputedStyle(b).outlineStyle") == "solid"
    box = marked.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= SIZES[size]["height"]
    page.screenshot(path=f"{ARTIFACTS}/hint-{size}.png")
    # Played, the card and its mark are gone; the words too.
    marked.click()
    until(page, "() => !document.querySelector('#hand .hinted')")
    context.close()


def test_a_provisional_rating_says_what_its_question_mark_means(browser, quick_daphne):
    users = in_db(lambda: [UserFactory(username=n) for n in ("mara", "nico")])
    options = {"variant": "tute", "players": 2, "competitive": True, "stake": 0}
    table = in_thread(lambda: seating.table_create(master=users[0], options=options))
    in_thread(lambda: seating.table_sit(table_id=table.pk, user=users[1]))
    in_thread(lambda: play.game_start(table_id=table.pk, user=users[0]))
    in_thread(lambda: finish_the_game(table.pk, dict(enumerate(users))))
    for size in SIZES:
        context, page = new_page(browser, size)
        log_in(page, quick_daphne, "mara")
        page.goto(quick_daphne + table.get_absolute_url())
        awards = page.locator("#summary-awards")
        awards.wait_for()
        text = awards.inner_text()
        assert re.search(r"mara: rating \d+\? \([+-]\d+\)", text), text
        legend = awards.locator("li.rating-legend")
        assert legend.inner_text() == "? Provisional: fewer than 10 rated games."
        assert legend.is_visible()
        page.screenshot(path=f"{ARTIFACTS}/provisional-{size}.png", full_page=True)
        context.close()
