"""The rules pages: one per game and topic, each in three languages, swapped in place by htmx."""

import pytest

from games.rules.pages import PAGES
from tests.support.factories import UserFactory
from tests.support.html import find

pytestmark = pytest.mark.django_db

LANGUAGES = ("fr", "es", "en")
SLUGS = [page.slug for page in PAGES]
HEADINGS = {"fr": "Les règles", "es": "Las reglas", "en": "The rules"}
NAV_RULES = {"fr": "Règles", "es": "Reglas", "en": "Rules"}


def url(slug: str, lang: str | None = None) -> str:
    path = "/rules/" if slug == "index" else f"/rules/{slug}/"
    return f"{path}?lang={lang}" if lang else path


def test_rules_index_is_named_rules_and_appears_in_the_site_nav(client):
    from django.urls import reverse

    assert reverse("rules") == "/rules/"
    html = client.get("/").content.decode()
    assert any(a.attrs.get("href") == "/rules/" for a in find(html, "a"))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("slug", SLUGS)
def test_each_page_exists_in_each_language_with_a_table_of_contents(client, slug, lang):
    response = client.get(url(slug, lang))
    assert response.status_code == 200
    assert response["Content-Language"] == lang
    html = response.content.decode()
    assert find(html, "html", lang=lang)
    toc = [a.attrs["href"][1:] for a in find(html, "a") if a.attrs.get("href", "").startswith("#")]
    headings = [h.attrs["id"] for h in find(html, "h2", id=True) if h.attrs["id"] != "toc-title"]
    assert len(headings) >= 4
    # The table of contents lists every section heading of the prose, in order.
    assert [t for t in toc if t in headings] == headings
    assert "glossary" in headings


@pytest.mark.parametrize("slug", SLUGS)
def test_sections_are_the_same_in_every_language(client, slug):
    ids = {}
    for lang in LANGUAGES:
        html = client.get(url(slug, lang)).content.decode()
        ids[lang] = [h.attrs["id"] for h in find(html, "h2", id=True)]
    assert ids["fr"] == ids["es"] == ids["en"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_glossary_explains_the_spanish_terms(client, lang):
    html = client.get(url("tute", lang)).content.decode()
    terms = " ".join(dt.text for dt in find(html, "dt"))
    for term in ("baza", "arrastre", "cante", "las cuarenta", "diez de últimas", "capote"):
        assert term in terms
    assert "mano de vuelta" in terms


def test_points_are_counted_in_each_language_with_its_plurals(client):
    assert "11 puntos" in client.get(url("tute", "es")).content.decode()
    assert "11 points" in client.get(url("tute", "fr")).content.decode()
    assert "0 puntos" in client.get(url("tute", "es")).content.decode()


def test_prose_differs_by_language(client):
    bodies = {lang: client.get(url("habanero", lang)).content.decode() for lang in LANGUAGES}
    assert "Le Habanero, c’est le Tute à deux" in bodies["fr"]
    assert "El Habanero es el Tute para dos" in bodies["es"]
    assert "Habanero is Tute for two" in bodies["en"]


def test_language_in_the_address_sets_the_cookie_for_the_whole_site(client):
    response = client.get(url("habanero", "fr"), HTTP_ACCEPT_LANGUAGE="es")
    assert response.cookies["django_language"].value == "fr"
    assert find(response.content.decode(), "html", lang="fr")
    # The rest of the site now follows, with no language in its address.
    assert "Jouer au Tute en ligne" in client.get("/", HTTP_ACCEPT_LANGUAGE="es").content.decode()


def test_a_page_without_language_follows_the_browser_then_the_cookie(client):
    html = client.get(url("index"), HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9").content.decode()
    assert find(html, "h1")[0].text == HEADINGS["es"]
    client.cookies["django_language"] = "fr"
    html = client.get(url("index"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert find(html, "h1")[0].text == HEADINGS["fr"]
    assert find(html, "html", lang="fr")


def test_a_players_own_setting_wins_over_cookie_and_browser(client):
    user = UserFactory(username="rosa", language="es")
    client.force_login(user)
    client.cookies["django_language"] = "fr"
    html = client.get(url("index"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert find(html, "h1")[0].text == HEADINGS["es"]


def test_following_a_language_link_saves_a_logged_in_players_setting(client):
    user = UserFactory(username="tomas", language="es")
    client.force_login(user)
    client.get(url("pocha", "fr"))
    user.refresh_from_db()
    assert user.language == "fr"
    assert find(client.get("/").content.decode(), "html", lang="fr")


def test_an_unknown_language_is_ignored(client):
    response = client.get("/rules/tute/?lang=de", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "django_language" not in response.cookies
    assert find(response.content.decode(), "html", lang="en")


def test_language_links_carry_the_language_in_the_address_with_htmx(client):
    html = client.get(url("habanero", "es")).content.decode()
    switcher = find(html, "nav", class_="language-switcher")
    assert switcher, "the header switcher becomes links on a rules page"
    links = {a.attrs["hreflang"]: a for a in find(html, "a", hreflang=True)}
    assert set(links) == set(LANGUAGES)
    for lang, link in links.items():
        assert link.attrs["href"] == f"/rules/habanero/?lang={lang}"
        assert link.attrs["hx-get"] == link.attrs["href"]
    assert links["es"].attrs.get("aria-current") == "true"


def test_page_tabs_are_real_links_that_htmx_also_follows(client):
    html = client.get(url("tute", "en")).content.decode()
    tabs = [a for a in find(html, "a", hx_get=True) if a.attrs["href"].startswith("/rules/")]
    hrefs = {a.attrs["href"] for a in tabs}
    for slug in SLUGS:
        assert url(slug, "en") in hrefs
    container = find(html, "div", id="rules-page")[0]
    assert container.attrs["hx-target"] == "#rules-page"
    assert container.attrs["hx-push-url"] == "true"
    assert "show:window:top" in container.attrs["hx-swap"]


def test_htmx_gets_the_fragment_with_the_header_out_of_band(client):
    response = client.get(url("habanero", "fr"), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert "<html" not in html and "<body" not in html
    assert find(html, "div", id="rules-page", lang="fr")
    assert find(html, "title")[0].text.startswith("Habanero")
    oob = find(html, "div", hx_swap_oob="innerHTML:.site-header")
    assert oob and NAV_RULES["fr"] in oob[0].text
    # The footer is translated too: it follows the same way.
    footer = find(html, "div", hx_swap_oob="innerHTML:.site-footer")
    assert footer and "le jeu de cartes espagnol" in footer[0].text
    assert "HX-Request" in response["Vary"]
    assert response.cookies["django_language"].value == "fr"


def test_htmx_history_restore_gets_the_whole_page(client):
    response = client.get(
        url("tute", "es"), HTTP_HX_REQUEST="true", HTTP_HX_HISTORY_RESTORE_REQUEST="true"
    )
    assert "<html" in response.content.decode()


def test_unknown_page_is_404_and_index_has_one_address(client):
    assert client.get("/rules/chinchon/").status_code == 404
    response = client.get("/rules/index/")
    assert response.status_code == 301 and response["Location"] == "/rules/"


@pytest.mark.parametrize(
    ("lang", "label"),
    [("es", "Rey de oros"), ("en", "King of oros"), ("fr", "Roi d’oros")],
)
def test_card_images_are_named_in_the_page_language(client, lang, label):
    html = client.get(url("tute", lang)).content.decode()
    labels = {svg.attrs["aria-label"] for svg in find(html, "svg", role="img")}
    assert label in labels
    for svg in find(html, "svg", data_card=True):
        assert svg.attrs["aria-label"], "every card image is named"
