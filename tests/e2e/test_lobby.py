"""The lobby in Debian's Chromium against a real daphne: each table the lobby socket pushes is
drawn in its place (a new one first, a changed one replaced, a closed one removed, one the
filters leave out left out), without asking the server for the list again, and drawn exactly
as the page draws it, in the viewer's language."""

import pytest

from games.table import seating
from tests.support.browser import ARTIFACTS, in_db, in_thread
from tests.support.factories import ModeratorFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TILES = "#lobby-tables .table-tile"


def tiles(page) -> dict[int, str]:
    """Each row on show, by table id: its text, links, and the classes and labels inside it."""
    return dict(
        page.locator(TILES).evaluate_all(
            """nodes => nodes.map(n => [Number(n.dataset.tableId), [
                 n.className,
                 n.innerText,
                 [...n.querySelectorAll('a')].map(a => a.getAttribute('href')).join(' '),
                 [...n.querySelectorAll('*')].map(
                   e => `${e.tagName}.${e.className}:${e.getAttribute('aria-label') || ''}`
                 ).join(' '),
               ].join('|')])"""
        )
    )


def test_the_lobby_draws_each_pushed_row_in_place_as_the_page_draws_it(browser, daphne_server):
    alicia, bruno, carmen, moderator = in_db(
        lambda: [
            UserFactory(username="alicia", chips=1000),
            UserFactory(username="bruno", chips=1000),
            UserFactory(username="carmen", chips=1000),
            ModeratorFactory(username="mod"),
        ]
    )
    ARTIFACTS.mkdir(exist_ok=True)
    context = browser.new_context(locale="es-ES", viewport={"width": 375, "height": 812})
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(daphne_server + "/tables/")
    page.locator("#lobby-tables .empty").wait_for()
    # From now on the page asks the server for nothing: the socket's rows are enough.
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))

    tute = in_thread(
        lambda: seating.table_create(master=alicia, options={"variant": "tute", "players": 4})
    )
    page.locator(f'{TILES}[data-table-id="{tute.pk}"]').wait_for()
    assert page.locator("#lobby-tables .empty").count() == 0
    habanero = in_thread(
        lambda: seating.table_create(
            master=bruno,
            options={"variant": "habanero", "stake": 20, "guests": False},
        )
    )
    page.locator(f'{TILES}[data-table-id="{habanero.pk}"]').wait_for()
    # Newest first.
    assert page.locator(TILES).first.get_attribute("data-table-id") == str(habanero.pk)
    in_thread(lambda: seating.table_invite(table_id=habanero.pk, user=bruno, username="carmen"))
    in_thread(lambda: seating.table_sit(table_id=habanero.pk, user=carmen))
    tile = page.locator(f'{TILES}[data-table-id="{habanero.pk}"]')
    tile.get_by_text("carmen").wait_for()
    assert "0 asientos libres" in tile.inner_text() and "Mirar" in tile.inner_text()
    in_thread(lambda: seating.table_sit(table_id=tute.pk, user=carmen))
    page.locator(f'{TILES}[data-table-id="{tute.pk}"]').get_by_text("2 asientos libres").wait_for()
    page.screenshot(path=str(ARTIFACTS / "lobby-pushed-375.png"), full_page=True)
    assert asked == []

    # Drawn as the server draws them (a reload draws the same rows).
    drawn = tiles(page)
    page.reload()
    page.locator(TILES).first.wait_for()
    # The page draws the server's rows, then the socket's: read them once drawn (under load a
    # row read while the socket's list replaced it read as bare text).
    for _ in range(100):
        if tiles(page) == drawn:
            break
        page.wait_for_timeout(100)
    assert tiles(page) == drawn
    page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=str(ARTIFACTS / "lobby-1280.png"), full_page=True)

    # With a filter on, a pushed row it leaves out is left out, and leaves if it no longer fits.
    page.locator("#filter_variant").select_option("tute")
    page.locator(f'{TILES}[data-table-id="{habanero.pk}"]').wait_for(state="detached")
    asked.clear()
    in_thread(lambda: seating.table_stand(table_id=habanero.pk, user=carmen))
    page.locator("#filter_free").select_option("3")
    page.locator(f'{TILES}[data-table-id="{tute.pk}"]').wait_for(state="detached")
    page.locator("#lobby-tables .empty").wait_for()
    asked.clear()
    in_thread(lambda: seating.table_stand(table_id=tute.pk, user=carmen))
    page.locator(f'{TILES}[data-table-id="{tute.pk}"]').wait_for()
    assert page.locator(TILES).count() == 1  # the habanero table stays out

    # A closed table leaves the lobby.
    in_thread(lambda: seating.table_close(table_id=tute.pk, moderator=moderator, reason="spam"))
    page.locator(f'{TILES}[data-table-id="{tute.pk}"]').wait_for(state="detached")
    page.locator("#lobby-tables .empty").wait_for()
    assert asked == []
    assert errors == []
    context.close()
