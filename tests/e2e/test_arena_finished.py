"""A finished arena's page in Debian's Chromium, on a phone and a desktop (issue #39): the pot
that was paid, where it went, each player's games with the one that did not count marked,
and an arena where no game counted saying every entry went back."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.arenas import services
from games.arenas.models import Arena, ArenaPlayer
from games.arenas.pairing import arena_pair
from games.arenas.scoring import arena_game_score
from tests.support.arenas import habanero_arena, play_out, present, running_games
from tests.support.browser import ARTIFACTS, no_sideways_scroll
from tests.support.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def finished_arena(*, counted: bool) -> Arena:
    """Two players, an entry of 20: a game that counted (when `counted`), then one played
    from a shared address; then the end."""
    ana, beto = UserFactory(username="anabel", chips=500), UserFactory(username="bertin", chips=500)
    arena = habanero_arena(name="Evening arena", entry=20)
    by_id = {ana.pk: ana, beto.pk: beto}
    if counted:
        services.arena_join(arena_id=arena.pk, user=ana, ip_address="198.51.100.1")
        services.arena_join(arena_id=arena.pk, user=beto, ip_address="198.51.100.2")
    else:
        for user in (ana, beto):
            services.arena_join(arena_id=arena.pk, user=user, ip_address="203.0.113.8")
    present(arena, ana, beto)
    rounds = 2 if counted else 1
    for n in range(rounds):
        if n == 1:  # the second game from one address
            ArenaPlayer.objects.filter(arena=arena).update(ip_address="203.0.113.8")
        arena_pair(arena_id=arena.pk, now=timezone.now() + timedelta(minutes=1 + n))
        (game,) = running_games(arena)
        play_out(game, by_id, random.Random(n))
        assert arena_game_score(game_id=game.pk)
    for user in (ana, beto):
        services.arena_pause(arena_id=arena.pk, user=user)
    Arena.objects.filter(pk=arena.pk).update(starts_at=timezone.now() - timedelta(minutes=11))
    assert services.arena_tick()["finished"] == 1
    return arena


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
