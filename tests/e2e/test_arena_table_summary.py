"""An arena's table (issue 53): its seat 0 sees no master's panel ("Invite a player") while
the arena's game runs, and the game-over summary says the arena points the game earned each
player. In Debian's Chromium, on a phone and a desktop."""

import random
from urllib.parse import urlparse

import pytest
from django.conf import settings
from playwright.sync_api import expect

from bench.support.client import session_cookie
from games.arenas.models import ArenaPlayer
from games.arenas.pairing import arena_pair
from games.arenas.scoring import arena_game_score
from rankings.tasks import award_sweep
from tests.support.arenas import habanero_arena, joined, play_out, running_games
from tests.support.browser import ARTIFACTS, in_thread, no_sideways_scroll
from tests.support.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("width", "height"), [(375, 812), (1280, 800)])
def test_an_arena_table_has_no_master_panel_and_its_summary_says_the_arena_points(
    browser, daphne_server, width, height
):
    ana, beto = UserFactory(username="anabel"), UserFactory(username="bertin")
    arena = habanero_arena(name="Evening arena")
    joined(arena, [ana, beto])
    arena_pair(arena_id=arena.pk)
    (game,) = running_games(arena)
    master = game.table.master

    context = browser.new_context(locale="en-US", viewport={"width": width, "height": height})
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": session_cookie(master),
                "domain": urlparse(daphne_server).hostname,
                "path": "/",
            }
        ]
    )
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(daphne_server + game.table.get_absolute_url())
    page.locator("#hand button").first.wait_for()
    expect(page.locator("#master-panel")).to_be_hidden()
    expect(page.get_by_role("button", name="Invite")).to_have_count(0)
    expect(page.get_by_text("Table master")).to_be_hidden()
    assert no_sideways_scroll(page), f"the arena's table is too wide at {width}px"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"arena-table-master-{width}.png"))

    def finish() -> None:
        play_out(game, {ana.pk: ana, beto.pk: beto}, random.Random(5))
        award_sweep(older_than_seconds=0)
        arena_game_score(game_id=game.pk)

    in_thread(finish)
    scores = {p.user.username: p.score for p in ArenaPlayer.objects.select_related("user")}
    winner = max(scores, key=scores.get)
    loser = min(scores, key=scores.get)
    awards = page.locator("#summary-awards")
    expect(awards.locator("li.arena-points")).to_have_count(2)
    expect(awards).to_contain_text(f"{winner}: +2 points in the arena Evening arena.")
    expect(awards).to_contain_text(f"{loser}: +0 points in the arena Evening arena.")
    expect(page.locator("#master-panel")).to_be_hidden()
    assert no_sideways_scroll(page), f"the summary is too wide at {width}px"
    page.screenshot(path=str(ARTIFACTS / f"arena-table-summary-{width}.png"), full_page=True)
    context.close()
