"""A finished arena's page in Debian's Chromium, on a phone and a desktop (issue #39): the pot
that was paid, where it went, each player's games with the one that did not count marked,
and an arena where no game counted saying every entry went back."""

import pytest
from playwright.sync_api import expect

from tests.support.browser import ARTIFACTS, finished_arena, no_sideways_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("width", "height"), [(375, 812), (1280, 800)])
def test_a_finished_arena_shows_its_pot_where_it_went_and_every_game(
    browser, daphne_server, width, height
):
    arena = finished_arena(counted=True)
    context = browser.new_context(locale="en-US", viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(daphne_server + arena.get_absolute_url())
    expect(page.locator(".arena-pot")).to_have_text("Pot: 40 chips")
    expect(page.locator(".arena-paid")).to_have_text(
        "Of the pot, 29 chips went to the podium and 11 to the bank."
    )
    expect(page.locator(".arena-podium li")).to_have_count(2)
    for name in ("anabel", "bertin"):
        row = page.locator(f".arena-standings tr[data-user='{name}']")
        expect(row.locator(".pt")).to_have_count(2)  # both games, the second not counted
        expect(row.locator(".pt-none")).to_have_attribute("title", "This game did not count")
    assert no_sideways_scroll(page), f"the arena page is too wide at {width}px"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"arena-finished-{width}.png"), full_page=True)
    context.close()


def test_an_arena_where_no_game_counted_says_every_entry_went_back(browser, daphne_server):
    arena = finished_arena(counted=False)
    context = browser.new_context(locale="en-US", viewport={"width": 375, "height": 812})
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(daphne_server + arena.get_absolute_url())
    expect(page.locator(".arena-paid")).to_have_text(
        "No game counted in this arena: nobody is on the podium. Every entry was given back "
        "to its player (40 chips); the bank took nothing."
    )
    expect(page.locator(".arena-pot")).to_have_text("Pot: 40 chips")
    assert no_sideways_scroll(page)
    page.screenshot(path=str(ARTIFACTS / "arena-no-game-counted-375.png"), full_page=True)
    context.close()
