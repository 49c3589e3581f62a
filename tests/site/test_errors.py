"""What a visitor meets when something is wrong: the site's own error pages, in their
language, never Django's debug page; and the small things browsers ask for on their own."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client, override_settings

from tests.support.game_factories import GameFactory

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
NOT_FOUND = ["/no-such-page/", "/games/999999/", "/players/nobody_here/", "/rules/brisca/"]


def text_of(response) -> str:
    html = response.content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize("url", NOT_FOUND)
def test_missing_pages_are_the_sites_own_404_in_the_visitors_language(client, url):
    GameFactory()  # a game exists, just not that one
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 404
    html = response.content.decode()
    assert 'class="site-header"' in html and '<html lang="fr">' in html
    assert "<title>Page introuvable · Tute online</title>" in html
    assert "Cette page n’existe pas" in text_of(response)
    assert 'href="/rules/"' in html  # somewhere to go on from here
    # Nothing about the site's insides: no URL patterns, no exception text.
    assert "urlpatterns" not in html and "Http404" not in html and "Not Found" not in html


def test_404_in_spanish_and_english(client):
    assert "Esta página no existe" in text_of(
        client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="es")
    )
    assert "This page does not exist" in text_of(client.get("/no-such-page/"))


@override_settings(ROOT_URLCONF="tests.site.error_urls")
@pytest.mark.parametrize(
    ("url", "status", "french", "english"),
    [
        ("/test-errors/403/", 403, "Vous ne pouvez pas ouvrir cette page", "You may not open"),
        ("/test-errors/400/", 400, "Cette demande n’a pas pu être comprise", "could not be"),
        ("/test-errors/500/", 500, "Un problème est survenu de notre côté", "went wrong"),
    ],
)
def test_other_errors_have_styled_translated_pages(url, status, french, english):
    client = Client(raise_request_exception=False)
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == status
    html = response.content.decode()
    assert 'class="site-header"' in html and "/static/css/site." in html
    assert french in text_of(response)
    assert "a bug" not in html and "tampered" not in html
    assert english in text_of(client.get(url))


def test_an_expired_form_gets_a_page_that_says_what_to_do():
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        "/i18n/setlang/", {"language": "fr", "next": "/"}, HTTP_ACCEPT_LANGUAGE="es"
    )
    assert response.status_code == 403
    assert "Este formulario ha caducado" in text_of(response)
    assert "recarga la página" in text_of(response)
    assert "CSRF verification" not in response.content.decode()


def test_favicon_ico_is_the_sites_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] in {"image/x-icon", "image/vnd.microsoft.icon"}
    body = b"".join(response.streaming_content)
    assert body[:4] == b"\x00\x00\x01\x00"  # an icon resource
    assert body == (ROOT / "public" / "favicon.ico").read_bytes()


def test_the_footer_links_no_machine_only_json(client):
    html = client.get("/").content.decode()
    footer = html[html.index('<footer class="site-footer">') :]
    assert "/healthz" not in footer and "Service status" not in footer


def _settings_of(env: dict, tmp_path: Path) -> list[str]:
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.DEBUG, s.SECRET_KEY, s.SESSION_COOKIE_SECURE, s.SECURE_SSL_REDIRECT)"
    )
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "SECRET_KEY", "SECRET_KEY_FILE", "HTTPS"}
    }
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "tute_site.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_make_run_defaults_to_production_with_a_key_generated_once_and_kept(tmp_path):
    key_file = tmp_path / "keys" / "secret_key"
    first = _settings_of({"SECRET_KEY_FILE": str(key_file)}, tmp_path)
    # DEBUG off; plain HTTP on the local machine, so no secure-only cookies or redirect.
    assert first[0] == "False" and first[2:] == ["False", "False"]
    assert len(first[1]) >= 50 and not first[1].startswith("dev-")
    assert key_file.read_text().strip() == first[1]
    assert key_file.stat().st_mode & 0o777 == 0o600  # only its owner reads it
    second = _settings_of({"SECRET_KEY_FILE": str(key_file)}, tmp_path)
    assert second[1] == first[1]  # kept: sessions survive a restart
    assert ".secret_key" in (ROOT / ".gitignore").read_text().split()


def test_debug_1_is_for_development(tmp_path):
    env = {"SECRET_KEY_FILE": str(tmp_path / "key"), "DEBUG": "1"}
    assert _settings_of(env, tmp_path)[0] == "True"


def test_a_deployment_with_its_own_key_is_https_only(tmp_path):
    values = _settings_of({"SECRET_KEY": "k" * 60}, tmp_path)
    assert values == ["False", "k" * 60, "True", "True"]
