"""A table where two players sit from one address says, before the game starts, that its game
will count for no ranking: at the table (instead of each side's chance of winning) and in the
lobby (issue 53, confusing 6), at 375×812 and 1280×800."""

import pytest

from games.table import seating
from tests.support.browser import ARTIFACTS, in_thread, log_in, no_sideways_scroll
from tests.support.browser import VIEWPORTS as SIZES
from tests.support.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NOTE = "the game will count for no ranking"


def shared_table():
    # Both at the address the browser comes from: the table socket records it again.

    sofia, diego, watcher = (
        UserFactory(username=n, chips=1000) for n in ("sofia", "diego", "vera")
    )
    table = seating.table_create(
        master=sofia, options={"variant": "habanero", "stake": 20}, ip_address="127.0.0.1"
    )
    seating.table_sit(table_id=table.pk, user=diego, seat=1, ip_address="127.0.0.1")
    return table, sofia, watcher


@pytest.mark.parametrize("size", SIZES)
def test_a_same_address_table_says_it_counts_for_no_ranking_before_the_start(
    browser, quick_daphne, size
):
    table, sofia, watcher = in_thread(shared_table)
    context = browser.new_context(locale="en-US", viewport=SIZES[size])
    page = context.new_page()
    page.set_default_timeout(20_000)
    log_in(page, quick_daphne, sofia.username)
    page.goto(quick_daphne + table.get_absolute_url())
    page.locator("#same-address").get_by_text(NOTE).wait_for()
    page.get_by_text("Every seat is taken").first.wait_for()
    assert page.get_by_text("Chance of winning").count() == 0
    assert no_sideways_scroll(page)
    page.screenshot(path=f"{ARTIFACTS}/same-address-table-{size}.png")
    context.close()

    context = browser.new_context(locale="en-US", viewport=SIZES[size])
    page = context.new_page()
    page.set_default_timeout(20_000)
    log_in(page, quick_daphne, watcher.username)
    page.goto(quick_daphne + "/tables/")
    tile = page.locator(f'[data-table-id="{table.pk}"]')
    badge = tile.locator(".badge-unranked")
    badge.wait_for()
    assert badge.inner_text() == "Counts for no ranking"
    assert NOTE in badge.get_attribute("title")
    assert no_sideways_scroll(page)
    page.screenshot(path=f"{ARTIFACTS}/same-address-lobby-{size}.png")
    context.close()
