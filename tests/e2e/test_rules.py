"""The rules pages in a real browser: htmx swaps language and page in place; without
JavaScript the same links are plain navigation."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SPANISH_LEAD = "El Habanero es el Tute para dos"
FRENCH_LEAD = "Le Habanero, c’est le Tute à deux"


def open_page(browser, url, **context_options):
    context = browser.new_context(locale="es-ES", **context_options)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(url)
    return context, page


def test_switching_language_swaps_the_page_in_place(browser, daphne_server):
    context, page = open_page(browser, daphne_server + "/rules/habanero/?lang=es")
    page.wait_for_function("window.htmx !== undefined")
    expect(page.locator("#rules-page .lead")).to_contain_text(SPANISH_LEAD)
    assert page.locator("html").get_attribute("lang") == "es"
    expect(page.locator(".site-nav")).to_contain_text("Reglas")
    expect(page.locator(".site-footer")).to_contain_text("el juego de cartas español")
    # A marker on window survives only if the page was not reloaded.
    page.evaluate("window.rulesMarker = 'same document'")

    page.get_by_role("link", name="Français", exact=True).click()

    expect(page.locator("#rules-page .lead")).to_contain_text(FRENCH_LEAD)
    expect(page).to_have_url(daphne_server + "/rules/habanero/?lang=fr")
    assert page.evaluate("window.rulesMarker") == "same document"
    assert page.evaluate("window.scrollY") == 0
    page.wait_for_function("document.activeElement.tagName === 'H1'")
    # The header followed: its labels, the document's language and title.
    expect(page.locator(".site-nav")).to_contain_text("Règles")
    # And the footer: nothing on the page stays in the old language.
    expect(page.locator(".site-footer")).to_have_text(
        "Tute en ligne : le jeu de cartes espagnol, joué en direct."
    )
    assert page.locator(".site-footer .wrap").count() == 1
    page.wait_for_function("document.documentElement.lang === 'fr'")
    assert page.title().startswith("Habanero")
    assert page.locator("h2#toc-title").text_content() == "Sur cette page"
    # The header swapped in by htmx switches again, the same way.
    page.get_by_role("link", name="Español", exact=True).click()
    expect(page.locator("#rules-page .lead")).to_contain_text(SPANISH_LEAD)
    expect(page).to_have_url(daphne_server + "/rules/habanero/?lang=es")
    assert page.evaluate("window.rulesMarker") == "same document"
    page.get_by_role("link", name="Français", exact=True).click()
    expect(page.locator("#rules-page .lead")).to_contain_text(FRENCH_LEAD)
    # The rest of the site follows the choice.
    cookies = {c["name"]: c["value"] for c in context.cookies()}
    assert cookies["django_language"] == "fr"
    page.goto(daphne_server + "/")
    assert page.locator("html").get_attribute("lang") == "fr"
    context.close()


def test_following_a_link_further_down_swaps_the_page_and_returns_to_the_top(
    browser, daphne_server
):
    context, page = open_page(browser, daphne_server + "/rules/pocha/?lang=en")
    page.wait_for_function("window.htmx !== undefined")
    page.evaluate("window.rulesMarker = 'same document'")
    # The link to the Tute page in the middle of the Pocha rules.
    link = page.locator(".rules-prose p a[href='/rules/tute/?lang=en']").first
    link.scroll_into_view_if_needed()
    assert page.evaluate("window.scrollY") > 300

    link.click()

    expect(page.locator("#rules-page h1")).to_have_text("Tute")
    expect(page).to_have_url(daphne_server + "/rules/tute/?lang=en")
    assert page.evaluate("window.rulesMarker") == "same document"
    page.wait_for_function("window.scrollY === 0")
    expect(page.locator(".rules-tabs a[aria-current='page']")).to_have_text("Tute")

    # Back returns to Pocha, restored by htmx from its history.
    page.go_back()
    expect(page.locator("#rules-page h1")).to_have_text("Pocha")
    context.close()


def test_without_javascript_the_language_link_is_a_normal_link(browser, daphne_server):
    context, page = open_page(
        browser, daphne_server + "/rules/habanero/?lang=es", java_script_enabled=False
    )
    expect(page.locator("#rules-page .lead")).to_contain_text(SPANISH_LEAD)

    page.get_by_role("link", name="Français", exact=True).click()

    page.wait_for_url(daphne_server + "/rules/habanero/?lang=fr")
    expect(page.locator("#rules-page .lead")).to_contain_text(FRENCH_LEAD)
    assert page.locator("html").get_attribute("lang") == "fr"
    expect(page.locator(".site-nav")).to_contain_text("Règles")
    page.get_by_role("link", name="Pocha", exact=True).click()
    page.wait_for_url(daphne_server + "/rules/pocha/?lang=fr")
    expect(page.locator("#rules-page h1")).to_have_text("Pocha")
    context.close()


@pytest.mark.parametrize("width", [375, 1280])
def test_rules_pages_fit_a_phone_and_a_desktop(browser, daphne_server, width):
    context = browser.new_context(viewport={"width": width, "height": 800}, locale="en-US")
    page = context.new_page()
    for path in (
        "/rules/",
        "/rules/tute/",
        "/rules/habanero/",
        "/rules/pocha/",
        "/rules/rankings/",
        "/rules/tables/",
    ):
        page.goto(daphne_server + path + "?lang=es")
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{path} is {overflow}px too wide at {width}px"
    context.close()
