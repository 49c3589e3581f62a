"""Error pages in Debian's Chromium against a real daphne running with DEBUG off, as
`make run` does: the styles, scripts and icon come from the collected static files."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FELT_GREEN = "rgb(31, 93, 58)"  # --felt in static/css/site.css


def test_a_missing_page_in_french_is_the_sites_styled_404(browser, daphne_server):
    context = browser.new_context(locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(10_000)
    response = page.goto(daphne_server + "/players/nobody_here/")
    assert response.status == 404
    expect(page.locator("h1")).to_have_text("Cette page n’existe pas")
    assert page.title() == "Page introuvable · Tute online"
    assert page.locator("html").get_attribute("lang") == "fr"
    # Served and applied without DEBUG: the stylesheet (green header) and htmx.
    header = page.locator(".site-header")
    assert header.evaluate("el => getComputedStyle(el).backgroundColor") == FELT_GREEN
    page.wait_for_function("window.htmx !== undefined")
    # The visitor can go on: the header's sections and the page's own links.
    expect(page.locator(".site-nav")).to_contain_text("Règles")
    page.locator(".error-links").get_by_role("link", name="Règles").click()
    expect(page).to_have_url(daphne_server + "/rules/")
    icon = page.request.get(daphne_server + "/favicon.ico")
    assert icon.status == 200 and icon.body()[:4] == b"\x00\x00\x01\x00"
    context.close()
