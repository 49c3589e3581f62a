"""Finding a player in a real browser: the header leads to the search, and the results
follow what is typed without reloading the page."""

import pytest
from django.db import connections
from playwright.sync_api import expect

from tests.support.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_typing_a_name_lists_the_players_in_place(page, daphne_server):
    try:
        for name in ("Rosa", "Rosendo", "Pablo"):
            UserFactory(username=name)
    finally:
        # Playwright's running loop gives this thread a connection of its own: close it.
        connections.close_all()
    page.goto(daphne_server + "/")
    page.locator(".site-nav").get_by_role("link", name="Players").click()
    expect(page.locator("h1")).to_have_text("Find a player")
    page.wait_for_function("window.htmx !== undefined")
    page.evaluate("window.searchMarker = 'same document'")

    page.get_by_label("Name").press_sequentially("ros", delay=50)

    results = page.locator("#player-results li")
    expect(results).to_have_text(["Rosa", "Rosendo"])
    assert page.evaluate("window.searchMarker") == "same document"
    expect(page).to_have_url(daphne_server + "/players/?q=ros")
    results.first.get_by_role("link").click()
    expect(page.locator("h1")).to_have_text("Rosa")
