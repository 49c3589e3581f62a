"""Registration, email confirmation, login, throttling and bans, through allauth's own pages."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.db import IntegrityError
from django.test import override_settings

from accounts.models import KnownIP, User
from accounts.services import user_ban
from rankings.selectors import chips_balance
from tests.support.factories import PASSWORD, ModeratorFactory, UserFactory

pytestmark = pytest.mark.django_db

CONFIRM_LINK = re.compile(r"http://testserver(/accounts/confirm-email/[^/\s]+/)")


def signup(client, username, email=None, password=PASSWORD, **headers):
    return client.post(
        "/accounts/signup/",
        {
            "username": username,
            "email": email or f"{username.lower()}@example.com",
            "password1": password,
            "password2": password,
        },
        **headers,
    )


def logged_in_username(client) -> str | None:
    html = client.get("/").content.decode()
    match = re.search(r'class="who"[^>]*>([^<]+)<', html)
    return match.group(1) if match else None


def test_signup_confirm_email_then_log_in_with_the_new_account(client):
    response = signup(client, "Lucia_7", email="lucia@example.com")
    assert response.status_code == 302
    user = User.objects.get(username="Lucia_7")
    assert chips_balance(user=user) == 1000  # the starting grant

    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["lucia@example.com"]
    link = CONFIRM_LINK.search(message.body).group(1)
    assert "Confirm" in client.get(link).content.decode()
    client.post(link)
    assert EmailAddress.objects.get(user=user, email="lucia@example.com").verified

    client.post("/accounts/logout/")
    assert logged_in_username(client) is None
    response = client.post("/accounts/login/", {"login": "Lucia_7", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/"
    assert logged_in_username(client) == "Lucia_7"


@override_settings(ACCOUNT_EMAIL_VERIFICATION="mandatory")
def test_with_mandatory_verification_login_waits_for_the_emailed_link(client):
    response = signup(client, "pablo")
    assert response["Location"] == "/accounts/confirm-email/"
    assert logged_in_username(client) is None
    response = client.post("/accounts/login/", {"login": "pablo", "password": PASSWORD})
    assert response["Location"] == "/accounts/confirm-email/"
    assert logged_in_username(client) is None

    link = CONFIRM_LINK.search(mail.outbox[-1].body).group(1)
    client.post(link)
    response = client.post("/accounts/login/", {"login": "pablo", "password": PASSWORD})
    assert response["Location"] == "/"
    assert logged_in_username(client) == "pablo"


def test_log_in_by_username_in_another_case(client):
    UserFactory(username="Carmen")
    client.post("/accounts/login/", {"login": "carmen", "password": PASSWORD})
    assert logged_in_username(client) == "Carmen"


@pytest.mark.parametrize(
    "taken,wanted", [("Lucia", "lucia"), ("pablo", "PABLO"), ("Ana-1", "aNA-1")]
)
def test_signup_refuses_a_username_taken_in_any_case(client, taken, wanted):
    UserFactory(username=taken)
    response = signup(client, wanted)
    assert response.status_code == 200
    assert "A player with that username already exists." in response.content.decode()
    assert User.objects.filter(username__iexact=taken).count() == 1


def test_database_refuses_usernames_differing_only_in_case():
    User.objects.create_user("Rosa", password=PASSWORD)
    with pytest.raises(IntegrityError):
        User.objects.create_user("ROSA", password=PASSWORD)


@pytest.mark.parametrize("username", ["ab", "a" * 21, "has space", "dot.name", "ñandú", "at@sign"])
def test_signup_explains_the_username_rule(client, username):
    response = signup(client, username, email="someone@example.com")
    assert response.status_code == 200
    assert "Use 3 to 20 characters: letters, digits, _ and -." in response.content.decode()
    assert not User.objects.filter(email="someone@example.com").exists()


@pytest.mark.parametrize("username", ["abc", "a" * 20, "Under_score", "da-sh", "007"])
def test_signup_accepts_usernames_within_the_rule(client, username):
    assert signup(client, username).status_code == 302
    assert User.objects.filter(username=username).exists()


def test_signup_pages_use_the_site_layout(client):
    html = client.get("/accounts/signup/").content.decode()
    assert 'class="site-header"' in html and "/static/vendor/htmx/htmx-2.0.11.min." in html
    title = re.search(r"<title>(.*?)</title>", html, re.S).group(1)
    assert " ".join(title.split()) == "Sign up · Tute online"
    assert "3 to 20 characters: letters, digits, _ and -." in html  # the rule, before typing


def test_banned_player_is_refused_at_login_and_told_why(client):
    player = UserFactory(username="cheater")
    user_ban(user=player, moderator=ModeratorFactory(), reason="Collusion at table 12")
    response = client.post("/accounts/login/", {"login": "cheater", "password": PASSWORD})
    assert response.status_code == 403
    html = response.content.decode()
    assert "This account is banned" in html
    assert "Collusion at table 12" in html
    assert logged_in_username(client) is None


def test_a_ban_ends_the_players_open_session(client):
    player = UserFactory(username="rude")
    client.force_login(player)
    assert logged_in_username(client) == "rude"
    user_ban(user=player, moderator=ModeratorFactory(), reason="Insults")
    assert logged_in_username(client) is None


def test_login_records_the_players_address(client):
    player = UserFactory(username="traveller")
    for _login in range(2):
        client.post(
            "/accounts/login/",
            {"login": "traveller", "password": PASSWORD},
            REMOTE_ADDR="203.0.113.7",
        )
        client.post("/accounts/logout/")
    client.post(
        "/accounts/login/", {"login": "traveller", "password": PASSWORD}, REMOTE_ADDR="2001:db8::1"
    )
    ips = {known.ip_address: known.logins for known in KnownIP.objects.filter(user=player)}
    assert ips == {"203.0.113.7": 2, "2001:db8::1": 1}


@pytest.mark.parametrize(
    ("language", "hello", "thanks"),
    [
        ("en", "Hello from Tute online!", "Thank you for using Tute online!"),
        ("es", "¡Hola de parte de Tute online!", "¡Gracias por usar Tute online!"),
    ],
)
def test_account_emails_name_the_site(client, language, hello, thanks):
    signup(client, "Nombre", email="nombre@example.com", HTTP_ACCEPT_LANGUAGE=language)
    message = mail.outbox[-1]
    assert message.body.startswith(hello)
    assert thanks in message.body and "testserver" in message.body  # the real domain
    assert "Tute online" in message.from_email
    assert message.subject.startswith("[Tute online] ")
