"""The moderators' admin in Debian's Chromium at a desktop width: the player list shows every
column, "Banned at" and "Muted until" included, without scrolling sideways. The screenshot
is kept in test-artifacts/ for a person to look at."""

from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connections
from django.utils import timezone
from playwright.sync_api import expect

from accounts.services import user_ban, user_mute
from tests.support.factories import PASSWORD, ModeratorFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def test_the_player_list_fits_1280_pixels(browser, daphne_server):
    try:
        moderator = ModeratorFactory(username="mod_ana")
        for n in range(6):
            UserFactory(username=f"jugador_con_nombre_{n}"[:20], chips=1000 + n)
        user_ban(
            user=UserFactory(username="tramposo_del_bar", email="tramposo@example.com"),
            moderator=moderator,
            reason="Collusion",
        )
        user_mute(
            user=UserFactory(username="insultos_frecuentes", email="largo.correo@example.com"),
            moderator=moderator,
            until=timezone.now() + timedelta(days=3),
            reason="Insults",
        )
    finally:
        connections.close_all()
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(daphne_server + "/admin/login/?next=/admin/accounts/user/")
    page.fill("#id_username", "mod_ana")
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("#site-name")).to_have_text("Tute online: moderation")
    table = page.locator("#result_list")
    expect(table).to_be_visible()

    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "admin-players-1280.png"), full_page=True)

    for header in ("Banned at", "Muted until"):
        cell = table.locator("thead th", has_text=header)
        box = cell.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 1280, header
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    assert page.evaluate(
        "(() => { const t = document.getElementById('result_list');"
        " return t.parentElement.scrollWidth <= t.parentElement.clientWidth; })()"
    )
    banned = table.locator("tr", has_text="tramposo_del_bar")
    expect(banned).to_contain_text("UTC")
    context.close()
