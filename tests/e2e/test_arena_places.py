"""An arena's standings while it runs (issue 53): players whose games have not counted yet
have no place ("–"), and the players placed after them read 1, 2… with no gap. In Debian's
Chromium, on a phone and a desktop."""

import random

import pytest
from playwright.sync_api import expect

from games.arenas.pairing import arena_pair
from games.arenas.scoring import arena_game_score
from tests.support.arenas import habanero_arena, joined, play_out, running_games
from tests.support.browser import ARTIFACTS, in_thread, no_sideways_scroll
from tests.support.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def arena_with_newcomers():
    """Two players whose game counted, four who joined and have not played yet."""
    players = [UserFactory(username=f"player{n}") for n in range(2)]
    arena = habanero_arena(name="Evening arena")
    joined(arena, players)
    arena_pair(arena_id=arena.pk)
    (game,) = running_games(arena)
    play_out(game, {p.pk: p for p in players}, random.Random(1))
    assert arena_game_score(game_id=game.pk)
    joined(arena, [UserFactory(username=f"newcomer{n}") for n in range(4)], watching=False)
    return arena


@pytest.mark.parametrize(("width", "height"), [(375, 812), (1280, 800)])
def test_the_arena_standings_number_the_placed_players_without_gaps(
    browser, daphne_server, width, height
):
    arena = in_thread(arena_with_newcomers)
    context = browser.new_context(locale="en-US", viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(daphne_server + arena.get_absolute_url())
    rows = page.locator(".arena-standings tbody tr")
    expect(rows).to_have_count(6)
    places = rows.locator("td:first-child").all_inner_texts()
    assert sorted(p for p in places if p != "–") == ["1", "2"], places
    assert places.count("–") == 4, places
    for n in range(4):
        expect(page.locator(f".arena-standings tr[data-user='newcomer{n}'] td").first).to_have_text(
            "–"
        )
    assert no_sideways_scroll(page), f"the arena page is too wide at {width}px"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"arena-places-{width}.png"), full_page=True)
    context.close()
