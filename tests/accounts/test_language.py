"""Language and the account: the language of the signup is kept, a logged-in player's
pick is saved, and logging in keeps the language the visitor just picked."""

import re

import pytest

from accounts.models import User
from tests.support.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def heading(client, url="/", **headers) -> str:
    html = client.get(url, **headers).content.decode()
    return re.search(r"<h1>(.*?)</h1>", html, re.S).group(1).strip()


def sign_up(client, username, **headers):
    return client.post(
        "/accounts/signup/",
        {
            "username": username,
            "email": f"{username}@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        **headers,
    )


def test_the_language_of_the_signup_page_becomes_the_accounts(client):
    assert sign_up(client, "amelie", HTTP_ACCEPT_LANGUAGE="fr").status_code == 302
    assert User.objects.get(username="amelie").language == "fr"


def test_a_language_picked_before_signing_up_becomes_the_accounts(client):
    client.post("/i18n/setlang/", {"language": "es", "next": "/"}, HTTP_ACCEPT_LANGUAGE="en")
    assert sign_up(client, "carmen", HTTP_ACCEPT_LANGUAGE="en").status_code == 302
    assert User.objects.get(username="carmen").language == "es"
    assert heading(client, HTTP_ACCEPT_LANGUAGE="en") == "Juega al Tute en línea"


def test_a_logged_in_players_pick_is_saved_and_kept_on_the_next_login(client):
    player = UserFactory(username="pablo", language="en")
    client.force_login(player)
    client.post("/i18n/setlang/", {"language": "fr", "next": "/"})
    player.refresh_from_db()
    assert player.language == "fr"
    client.logout()
    client.cookies.clear()
    client.post("/accounts/login/", {"login": "pablo", "password": PASSWORD})
    assert heading(client, HTTP_ACCEPT_LANGUAGE="en") == "Jouer au Tute en ligne"


def test_logging_in_keeps_the_language_the_visitor_just_picked(client):
    """The case seen: a French page, an account saved in English. The page stays French."""
    player = UserFactory(username="lucie", language="en")
    client.post("/i18n/setlang/", {"language": "fr", "next": "/"})
    assert heading(client) == "Jouer au Tute en ligne"
    response = client.post("/accounts/login/", {"login": "lucie", "password": PASSWORD})
    assert response.status_code == 302
    assert heading(client) == "Jouer au Tute en ligne"
    player.refresh_from_db()
    assert player.language == "fr"  # and it is their setting from now on


def test_a_rules_page_language_link_followed_before_logging_in_counts_as_a_pick(client):
    player = UserFactory(username="jordi", language="en")
    client.get("/rules/tute/?lang=es")
    client.post("/accounts/login/", {"login": "jordi", "password": PASSWORD})
    player.refresh_from_db()
    assert player.language == "es"


def test_without_a_pick_logging_in_shows_the_accounts_own_language(client):
    """The browser's language is no choice: the player's saved setting applies."""
    UserFactory(username="ines", language="es")
    assert heading(client, HTTP_ACCEPT_LANGUAGE="fr") == "Jouer au Tute en ligne"
    client.post(
        "/accounts/login/", {"login": "ines", "password": PASSWORD}, HTTP_ACCEPT_LANGUAGE="fr"
    )
    assert heading(client, HTTP_ACCEPT_LANGUAGE="fr") == "Juega al Tute en línea"
    assert User.objects.get(username="ines").language == "es"


def test_a_pick_made_for_one_login_does_not_follow_to_the_next_account(client):
    UserFactory(username="ana", language="en")
    UserFactory(username="bea", language="es")
    client.post("/i18n/setlang/", {"language": "fr", "next": "/"})
    client.post("/accounts/login/", {"login": "ana", "password": PASSWORD})
    client.post("/accounts/logout/")
    client.post("/accounts/login/", {"login": "bea", "password": PASSWORD})
    assert User.objects.get(username="bea").language == "es"
