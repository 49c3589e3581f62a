"""An arena whose players shared an address (issue 40): every game scored 0 and said nothing,
then told a player "you finished #1 of 2". Now the arena page and each game's summary say
that such a game scores nothing and why, and a tie at zero is nobody's place. In Debian's
Chromium, on a phone and a desktop."""

from urllib.parse import urlparse

import pytest
from django.conf import settings
from playwright.sync_api import expect

from bench.support.client import session_cookie
from games.arenas.frames import arena_over_messages
from games.arenas.models import ArenaGame, ArenaPlayer
from tests.support.browser import ARTIFACTS, finished_arena, no_sideways_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS


@pytest.mark.parametrize(("width", "height"), [(375, 812), (1280, 800)])
def test_an_arena_of_one_address_says_its_games_scored_nothing_and_ranks_nobody(
    browser, daphne_server, width, height
):
    arena = finished_arena(counted=False)
    anabel = ArenaPlayer.objects.get(arena=arena, user__username="anabel").user
    # Nobody is told they finished anywhere: no place, not "#1 of 2".
    frames = [message["frame"] for _group, message in arena_over_messages(arena.pk)]
    assert len(frames) == 2 and all(frame["rank"] is None for frame in frames), frames

    context = browser.new_context(locale="en-US", viewport={"width": width, "height": height})
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": session_cookie(anabel),
                "domain": urlparse(daphne_server).hostname,
                "path": "/",
            }
        ]
    )
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(daphne_server + arena.get_absolute_url())
    for name in ("anabel", "bertin"):
        row = page.locator(f".arena-standings tr[data-user='{name}']")
        expect(row.locator("td").first).to_have_text("–")
    expect(page.locator("#arena-shared")).to_contain_text(
        "shared an internet address scored nothing"
    )
    expect(page.locator("#arena-shared")).to_contain_text("Two browsers on one machine share one")
    expect(page.get_by_text("You finished #")).to_have_count(0)
    expect(page.locator(".arena-podium")).to_contain_text("nobody is on the podium")
    assert no_sideways_scroll(page), f"the arena page is too wide at {width}px"
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"arena-shared-{width}.png"), full_page=True)

    # The game's own summary says it scored nothing in the arena, and why.
    game = ArenaGame.objects.get(arena=arena).game
    page.goto(daphne_server + game.get_absolute_url())
    said = page.locator("#game-arena-shared")
    expect(said).to_contain_text(f"In the arena {arena.name} this game scored nothing")
    expect(said).to_contain_text("played from the same internet address")
    assert no_sideways_scroll(page), f"the game page is too wide at {width}px"
    page.screenshot(path=str(SHOTS / f"arena-shared-game-{width}.png"))
    context.close()
