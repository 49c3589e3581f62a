"""A banned player's waiting table no longer stays in the lobby with a Join nobody can
answer (issue 53): once the ban is written, the lobby a player has open drops it, and a
fresh lobby does not list it; the banned player is out of the other tables' seats. In
Debian's Chromium, on a phone and a desktop."""

import pytest
from playwright.sync_api import expect

from accounts import services as account_services
from games.models import TableSeat
from games.table import seating
from tests.support.browser import ARTIFACTS, in_thread, no_sideways_scroll
from tests.support.factories import ModeratorFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TILES = "#lobby-tables .table-tile"


@pytest.mark.parametrize(("width", "height"), [(375, 812), (1280, 800)])
def test_a_banned_players_waiting_table_leaves_the_lobby(browser, daphne_server, width, height):
    troll = UserFactory(username="trollio", chips=1000)
    theirs = seating.table_create(master=troll, options={"variant": "habanero"})
    others = seating.table_create(
        master=UserFactory(username="elena", chips=1000), options={"variant": "tute"}
    )
    seating.table_sit(table_id=others.pk, user=troll)

    context = browser.new_context(locale="en-US", viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(daphne_server + "/tables/")
    tile = page.locator(f'{TILES}[data-table-id="{theirs.pk}"]')
    expect(tile).to_be_visible()
    expect(tile.get_by_text("trollio")).to_be_visible()

    moderator = ModeratorFactory()
    in_thread(lambda: account_services.user_ban(user=troll, moderator=moderator, reason="abuse"))
    expect(tile).to_have_count(0)  # the open lobby drops it at once
    page.reload()
    expect(page.locator(f'{TILES}[data-table-id="{others.pk}"]')).to_be_visible()
    expect(page.locator(f'{TILES}[data-table-id="{theirs.pk}"]')).to_have_count(0)
    expect(page.locator(TILES).get_by_text("trollio")).to_have_count(0)
    assert not TableSeat.objects.filter(table=others, user=troll).exists()
    assert no_sideways_scroll(page), f"the lobby is too wide at {width}px"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"lobby-banned-{width}.png"), full_page=True)
    context.close()
