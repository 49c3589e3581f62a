"""An arena in Debian's Chromium, against a real daphne run as `make run` runs it without
Redis (the arena's tick inside the server process): a player joins on a phone-wide screen,
is seated against a protocol client and sent to the table, plays the game to its end, and
a watcher's desktop-wide page sees the standings move over the arena's socket."""

import asyncio
import random
import threading
from datetime import timedelta

import pytest
from django.utils import timezone

from bench.support.arena_client import ArenaPlayer, short_arena
from bench.support.client import session_cookie
from games.arenas.models import Arena
from games.arenas.models import ArenaPlayer as Joined
from tests.support.browser import ARTIFACTS, NEXT_STEP, in_db, log_in, no_sideways_scroll, take_step
from tests.support.factories import UserFactory
from tests.support.servers import kept_daphne
from tests.support.waits import until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def proxied_embedded_daphne(transactional_db, tmp_path_factory, django_db_blocker):
    """`make run`'s daphne without Redis, behind one trusted proxy: the protocol client
    names its own address, so its game against the browser's player counts."""
    server = kept_daphne(
        "proxied_embedded_daphne",
        tmp_path_factory,
        django_db_blocker,
        REDIS_URL="",
        TRUSTED_PROXY_COUNT="1",
    )
    return server.url


def play_to_the_end(page) -> None:
    while True:
        step = until(page, NEXT_STEP)
        if step == "over":
            return
        take_step(page, step)


def test_join_an_arena_play_its_game_and_see_the_standings_move(browser, proxied_embedded_daphne):
    base = proxied_embedded_daphne
    alicia, bruno, _carla = in_db(
        lambda: [UserFactory(username=name, chips=100) for name in ("alicia", "bruno", "carla")]
    )
    arena = in_db(
        lambda: short_arena(
            seconds=600,
            starts_in=0,
            name="Habanero at noon",
            entry=10,
            move_time=30,
            pairing_wait=timedelta(seconds=60),
        )
    )
    bruno_session = in_db(lambda: session_cookie(bruno))
    watcher = browser.new_context(
        locale="en-US", viewport={"width": 1280, "height": 800}
    ).new_page()
    phone = browser.new_context(locale="en-US", viewport={"width": 375, "height": 812}).new_page()
    for page, name in ((watcher, "carla"), (phone, "alicia")):
        page.set_default_timeout(20_000)
        log_in(page, base, name)

    # Carla finds the arena from the header's Arenas and watches it.
    watcher.goto(base + "/")
    watcher.get_by_role("navigation", name="Main").get_by_role("link", name="Arenas").click()
    watcher.get_by_role("link", name="Habanero at noon").click()
    watcher.get_by_text("Nobody has joined yet.").wait_for()
    watcher.get_by_text("Time left").wait_for()

    # Alicia joins on her phone: both pages show her in the standings.
    phone.goto(base + arena.get_absolute_url())
    phone.get_by_role("button", name="Join").click()
    phone.get_by_text("Waiting for a table…").wait_for()
    watcher.locator(".arena-standings tr[data-user='alicia']").wait_for()
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "arena-375.png"), full_page=True)
    assert no_sideways_scroll(phone)

    # Bruno, a protocol client, joins: the arena seats them and sends alicia to the table.
    bruno_player = ArenaPlayer(
        [base],
        arena.pk,
        session=bruno_session,
        username="bruno",
        rng=random.Random(3),
        forwarded_for="198.51.100.7",
        max_tables=1,
    )
    thread = threading.Thread(target=lambda: asyncio.run(bruno_player.run()), daemon=True)
    thread.start()
    phone.wait_for_url(f"{base}/tables/*/", timeout=30_000)
    # The table of an arena's game leads back to the arena.
    back = phone.locator("#arena-back")
    assert back.inner_text() == "← Arena" and back.get_attribute("href") == arena.get_absolute_url()
    assert back.get_attribute("title") == "Back to the arena Habanero at noon"
    phone.locator("#hand button").first.wait_for()
    phone.screenshot(path=str(ARTIFACTS / "arena-table-375.png"))
    assert no_sideways_scroll(phone)
    watch = watcher.locator(".arena-tables a")
    watch.wait_for()
    assert sorted(watch.inner_text().removeprefix("Watch ").split(" – ")) == ["alicia", "bruno"]
    play_to_the_end(phone)
    thread.join(timeout=30)
    assert not thread.is_alive()

    # The game counted: the watcher's page moved by itself, one game each, 2 to the winner.
    # (Scored in the background once the game ended: the standings' push says when.)
    watcher.locator(".arena-standings .arena-score").get_by_text("2", exact=True).wait_for()
    joined = in_db(lambda: {p.user.username: p for p in Joined.objects.select_related("user")})
    assert joined["alicia"].games == joined["bruno"].games == 1
    winner = "alicia" if joined["alicia"].score else "bruno"
    assert joined[winner].score == 2 and sum(p.score for p in joined.values()) == 2
    row = watcher.locator(f".arena-standings tr[data-user='{winner}']")
    row.locator(".arena-score").get_by_text("2", exact=True).wait_for()
    assert watcher.locator(".arena-standings tbody tr").first.get_attribute("data-user") == winner
    assert watcher.get_by_text("No game is running.").is_visible()
    watcher.screenshot(path=str(ARTIFACTS / "arena-1280.png"), full_page=True)
    assert no_sideways_scroll(watcher)
    # Alicia goes back to the arena: her game is in her row, and she may pause.
    phone.goto(base + arena.get_absolute_url())
    phone.locator(".arena-standings tr.me .arena-points .pt").wait_for()
    phone.get_by_role("button", name="Pause").click()
    phone.get_by_role("button", name="Play again").wait_for()
    assert in_db(lambda: Joined.objects.get(user=alicia).paused)
    phone.screenshot(path=str(ARTIFACTS / "arena-after-375.png"), full_page=True)
    assert no_sideways_scroll(phone)

    # The time is up while alicia reads the rankings: the podium reaches her there, and
    # both arena pages show it, with its prizes and trophies.
    phone.goto(base + "/rankings/")
    in_db(
        lambda: Arena.objects.filter(pk=arena.pk).update(
            starts_at=timezone.now() - timedelta(minutes=11)
        )
    )
    loser = "bruno" if winner == "alicia" else "alicia"
    notice = phone.locator("#arena-over")
    notice.wait_for(timeout=30_000)
    place = 1 if winner == "alicia" else 2
    assert notice.inner_text() == (
        f"The arena Habanero at noon is over: you finished #{place} of 2. "
        f"Podium: 1. {winner}, 2. {loser}. See the arena"
    )
    phone.screenshot(path=str(ARTIFACTS / "arena-over-notice-375.png"), full_page=True)
    assert no_sideways_scroll(phone)
    notice.get_by_role("link", name="See the arena").click()
    phone.wait_for_url(base + arena.get_absolute_url())
    for page in (watcher, phone):
        podium = page.locator(".arena-podium")
        podium.locator(".place-1").get_by_text(winner).wait_for()
        assert "Arena champion" in podium.locator(".place-1").inner_text()
        assert "Arena podium" in podium.locator(".place-2").inner_text()
        assert loser in podium.locator(".place-2").inner_text()
    # 20 chips in the pot: the bank keeps 25% and a chip that does not divide; 9 and 5.
    assert "9 chips" in watcher.locator(".place-1").inner_text()
    assert "5 chips" in watcher.locator(".place-2").inner_text()
    phone.get_by_text("You finished #").wait_for()
    watcher.screenshot(path=str(ARTIFACTS / "arena-podium-1280.png"), full_page=True)
    phone.screenshot(path=str(ARTIFACTS / "arena-podium-375.png"), full_page=True)
    assert no_sideways_scroll(phone) and no_sideways_scroll(watcher)
