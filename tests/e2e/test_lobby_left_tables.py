"""A table whose game is over and whose players all left it (issue 40) no longer stays in the
lobby as "Waiting for players · 0 free seats": the lobby leaves it out at once and the
timers' sweep closes it a few minutes later; a table whose players are still there, or
still waiting for players, stays. In Debian's Chromium, on a phone and a desktop."""

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Game, ServerProcess, Table, TableSocket
from games.table import play, practice, seating
from tests.support.browser import ARTIFACTS, no_sideways_scroll
from tests.support.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS
TILES = "#lobby-tables .table-tile"


def played_table(master, other) -> Table:
    """A habanero table of two people whose game is over, as live play leaves it."""
    table = seating.table_create(master=master, options={"variant": "habanero"})
    seating.table_sit(table_id=table.pk, user=other)
    game = play.game_start(table_id=table.pk, user=master)
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED, ended_at=timezone.now(), finished_at=timezone.now()
    )
    Table.objects.filter(pk=table.pk).update(status=Table.Status.OPEN)
    return table


@pytest.mark.parametrize(("width", "height"), [(375, 812), (1280, 800)])
def test_a_finished_table_its_players_left_leaves_the_lobby_and_closes(
    browser, daphne_server, width, height
):
    ana, beto, carla, dani = (
        UserFactory(username=name, chips=1000) for name in ("anaya", "beton", "carlota", "danel")
    )
    left = played_table(ana, beto)
    stayed = played_table(carla, dani)
    process = ServerProcess.objects.create(id=uuid.uuid4(), last_seen=timezone.now())
    TableSocket.objects.create(channel_name="c1", table=stayed, user=carla, process=process)
    waiting = seating.table_create(master=UserFactory(username="elena", chips=1000), options={})

    context = browser.new_context(locale="en-US", viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(daphne_server + "/tables/")
    expect(page.locator(f'{TILES}[data-table-id="{waiting.pk}"]')).to_be_visible()
    expect(page.locator(f'{TILES}[data-table-id="{stayed.pk}"]')).to_be_visible()
    expect(page.locator(f'{TILES}[data-table-id="{left.pk}"]')).to_have_count(0)
    expect(page.get_by_text("anaya")).to_have_count(0)
    assert no_sideways_scroll(page), f"the lobby is too wide at {width}px"
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"lobby-left-{width}.png"), full_page=True)
    context.close()

    # The sweep closes it once its players have been gone a while; the others stay open.
    assert practice.practice_close_idle(now=timezone.now()) == 0
    later = timezone.now() + timedelta(seconds=practice.LEFT_SECONDS + 1)
    assert practice.practice_close_idle(now=later) == 1
    statuses = dict(Table.objects.values_list("pk", "status"))
    assert statuses[left.pk] == Table.Status.CLOSED
    assert statuses[stayed.pk] == statuses[waiting.pk] == Table.Status.OPEN
