"""One register on every page: Spanish says "tú", French says "vous", allauth's pages too."""

import re

import pytest

from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db

ANONYMOUS_PAGES = [
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password/reset/",
    "/accounts/password/reset/done/",
    "/accounts/confirm-email/",
    "/accounts/confirm-email/not-a-key/",
    "/accounts/password/reset/key/1-bad-key/",
    "/accounts/inactive/",
]
PLAYER_PAGES = ["/accounts/logout/", "/accounts/password/change/", "/accounts/email/", "/settings/"]

# Forms of "usted" (and its verbs) that a "tú" page never uses.
USTED = re.compile(
    r"\b(usted|ustedes|su contraseña|su cuenta|su correo|su dirección|¿ya tiene|"
    r"¿ha olvidado|desea|introduzca|inténtelo|regístrese|inicie sesión|haga clic|"
    r"compruebe|póngase|le hemos)\b",
    re.IGNORECASE,
)
TU = re.compile(r"\b(tu|tus|toi|ton|ta|tes)\b")


def visible_text(html: str) -> str:
    html = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def pages(client):
    for url in ANONYMOUS_PAGES:
        yield url, client
    client.force_login(UserFactory(username="registro", language=""))
    for url in PLAYER_PAGES:
        yield url, client


def test_spanish_pages_say_tu_never_usted(client):
    seen = 0
    for url, browser in pages(client):
        response = browser.get(url, HTTP_ACCEPT_LANGUAGE="es", follow=True)
        text = visible_text(response.content.decode())
        assert '<html lang="es">' in response.content.decode(), url
        assert not USTED.search(text), f"{url}: {USTED.search(text).group(0)!r} in {text[:400]}"
        seen += 1
    assert seen == len(ANONYMOUS_PAGES) + len(PLAYER_PAGES)


def test_the_login_page_speaks_to_the_player_as_tu(client):
    text = visible_text(client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="es").content.decode())
    assert "¿Has olvidado tu contraseña?" in text


def test_french_pages_say_vous_never_tu(client):
    for url, browser in pages(client):
        response = browser.get(url, HTTP_ACCEPT_LANGUAGE="fr", follow=True)
        text = visible_text(response.content.decode())
        assert not TU.search(text), f"{url}: {TU.search(text).group(0)!r} in {text[:400]}"
