"""A moderator makes a 2-player arena in the admin, whose form starts at 4 players with "In
pairs" ticked: the arena page, at 375×812 and 1280×800, says 2 players and no pairs (issue
53, broken 1)."""

import pytest

from accounts.moderators import moderators_group_sync
from games.arenas.models import Arena
from tests.support.browser import ARTIFACTS, in_thread, no_sideways_scroll
from tests.support.browser import VIEWPORTS as SIZES
from tests.support.factories import PASSWORD, ModeratorFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_two_player_arena_from_the_admin_says_no_pairs_on_its_page(browser, daphne_server):
    def moderator():
        moderators_group_sync()
        return ModeratorFactory(username="mod_ana")

    in_thread(moderator)
    context = browser.new_context(locale="en-US", viewport=SIZES["desktop"])
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(daphne_server + "/admin/login/?next=/admin/arenas/arena/add/")
    page.fill("#id_username", "mod_ana")
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    assert page.locator("#id_pairs").is_checked()  # the form starts at 4 players, in pairs
    page.fill("#id_name", "Two by two")
    page.fill("#id_starts_at_0", "2026-12-24")
    page.fill("#id_starts_at_1", "20:00:00")
    page.locator("#id_variant").select_option("tute")
    page.fill("#id_players", "2")
    page.locator("input[name=_save]").click()
    page.locator(".messagelist").wait_for()
    arena = in_thread(lambda: Arena.objects.get(name="Two by two"))
    assert (arena.players, arena.pairs) == (2, False)
    context.close()

    for size in SIZES:
        for locale, pairs in (("en-US", "in pairs"), ("es-ES", "por parejas")):
            context = browser.new_context(locale=locale, viewport=SIZES[size])
            page = context.new_page()
            page.goto(daphne_server + arena.get_absolute_url())
            text = page.locator("main").inner_text()
            assert pairs not in text, text
            assert ("2 players" if locale == "en-US" else "2 jugadores") in text
            assert no_sideways_scroll(page)
            page.screenshot(path=f"{ARTIFACTS}/arena-two-players-{size}-{locale}.png")
            context.close()
