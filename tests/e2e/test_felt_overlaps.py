"""Nothing on the felt covers anything else, at 375×812 and at 1280×800: while a whole game
of each variant plays itself (a practice table in automatic mode, robots playing every seat
at the quick daphne's pace), the page checks after every change it draws that no
nameplate, banner ("A new game starts!", who took the trick), badge (a cante, the dealer),
score box, trump label, stock count or card of the trick overlaps another's box, and that
each lies inside the felt. The trick's own banner lies on the trick's cards by design.
No name in the score box is cut, and none in the game's summary breaks inside a word."""

import pytest

from tests.support.browser import ARTIFACTS, DESKTOP, PHONE, log_in, practice
from tests.support.felt import BROKEN, WATCH
from tests.support.waits import until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


GAMES = [
    ("tute", {"variant": "tute", "players": 2}),
    ("habanero", {"variant": "habanero", "players": 2, "points_to_win": 1}),
    ("pairs", {"variant": "tute", "players": 4, "pairs": True}),
]
# On the phone the whole games of test_table_phone.py (the pairs game, habanero and pocha,
# played by a player) are watched the same way: here, the 2-player tute they leave out.
PHONE_GAMES = GAMES[:1]


def watch_a_whole_game(browser, server: str, name: str, options: dict, viewport: dict) -> list:
    """Play a game by itself to its end, then start the next one (its banner shown), on a
    page of `viewport`'s size; what overlapped meanwhile."""
    username = f"felt_{name}_{viewport['width']}"
    table = practice(username, move_time=0, **options)
    context = browser.new_context(locale="en-US", viewport=viewport)
    context.add_init_script(WATCH)
    page = context.new_page()
    page.set_default_timeout(30_000)
    log_in(page, server, username)
    page.goto(server + table.get_absolute_url())
    until(page, "() => document.getElementById('summary').dataset.over === 'game'", timeout=60_000)
    page.screenshot(path=f"{ARTIFACTS}/felt-{name}-{viewport['width']}-over.png")
    broken = page.evaluate(BROKEN)
    page.locator("#new-game").click()
    until(page, "() => document.getElementById('notice').textContent === 'A new game starts!'")
    page.screenshot(path=f"{ARTIFACTS}/felt-{name}-{viewport['width']}-new.png")
    checks = page.evaluate("window.__checks")
    found = page.evaluate("window.__overlaps")
    # The whole game was seen: a check at (nearly) every card.
    assert checks > 20, checks
    wide = page.evaluate("document.documentElement.scrollWidth - innerWidth")
    context.close()
    assert wide <= 0, (name, wide)
    assert broken == [], broken
    return found


@pytest.mark.parametrize(("name", "options"), PHONE_GAMES, ids=[g[0] for g in PHONE_GAMES])
def test_nothing_on_the_felt_covers_anything_else_on_a_phone(browser, quick_daphne, name, options):
    found = watch_a_whole_game(browser, quick_daphne, name, options, PHONE)
    assert not found, "\n".join(found)


@pytest.mark.parametrize(("name", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_nothing_on_the_felt_covers_anything_else_on_a_desktop(
    browser, quick_daphne, name, options
):
    found = watch_a_whole_game(browser, quick_daphne, name, options, DESKTOP)
    assert not found, "\n".join(found)
