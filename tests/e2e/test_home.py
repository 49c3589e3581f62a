import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_home_page_served_by_daphne_switches_language(page, daphne_server):
    page.goto(daphne_server + "/")
    assert page.locator("h1").inner_text() == "Play Tute online"
    assert page.locator("html").get_attribute("lang") == "en"
    # htmx, vendored and pinned, is loaded from our own static files.
    page.wait_for_function("window.htmx !== undefined")
    assert page.evaluate("htmx.version") == "2.0.11"

    page.get_by_role("button", name="Español").click()
    page.wait_for_load_state()
    assert page.locator("h1").inner_text() == "Juega al Tute en línea"
    assert page.locator("html").get_attribute("lang") == "es"

    page.get_by_role("button", name="Français").click()
    page.wait_for_load_state()
    assert page.locator("h1").inner_text() == "Jouer au Tute en ligne"


def test_home_page_fits_a_phone(page, daphne_server):
    page.set_viewport_size({"width": 375, "height": 740})
    page.goto(daphne_server + "/")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
