"""The login lock: failed logins are counted per account, however it is typed, with a far
larger allowance per address; the lock says how long it lasts, and it ends."""

import math
import re
import time
from unittest import mock

import pytest
from allauth.core.internal.ratelimit import parse_rates
from django.conf import settings

from tests.support.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

WRONG = "wrong-guess"


def log_in(client, login, password, ip="203.0.113.7"):
    response = client.post(
        "/accounts/login/", {"login": login, "password": password}, REMOTE_ADDR=ip
    )
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))
    return response, text


def logged_in(response) -> bool:
    return response.status_code == 302


def test_five_failures_lock_the_account_however_it_is_typed_and_say_for_how_long(client):
    UserFactory(username="Victim", email="victim@example.com")
    for login in ["victim", "VICTIM", "victim@example.com", "Victim@Example.com", "Victim"]:
        response, text = log_in(client, login, WRONG)
        assert "The username and/or password you specified are not correct." in text or (
            "The email address and/or password you specified are not correct." in text
        )
    response, text = log_in(client, "Victim", PASSWORD)
    assert not logged_in(response)
    assert "Too many failed login attempts. Try again in 5 minutes." in text


def test_the_lock_counts_down_and_ends(client):
    UserFactory(username="patient")
    start = time.time()
    with mock.patch("time.time", return_value=start):
        for _attempt in range(5):
            log_in(client, "patient", WRONG)
    with mock.patch("time.time", return_value=start + 4 * 60 + 30):
        response, text = log_in(client, "patient", PASSWORD)
        assert "Try again in 1 minute." in text and not logged_in(response)
    with mock.patch("time.time", return_value=start + 5 * 60 + 1):
        response, _text = log_in(client, "patient", PASSWORD)
        assert logged_in(response)


def test_a_locked_account_does_not_lock_out_others_behind_the_same_address(client):
    UserFactory(username="victim")
    UserFactory(username="neighbour")
    for _attempt in range(6):
        log_in(client, "victim", WRONG)
    response, text = log_in(client, "neighbour", PASSWORD)
    assert logged_in(response), text


def test_a_few_failed_logins_do_not_lock_the_account(client):
    UserFactory(username="forgetful")
    for _attempt in range(4):
        log_in(client, "forgetful", WRONG)
    response, _text = log_in(client, "forgetful", PASSWORD)
    assert logged_in(response)


def test_one_address_trying_many_accounts_is_stopped(client):
    """Password spraying: a much larger allowance per address, but an allowance."""
    rates = {rate.per: rate for rate in parse_rates(settings.ACCOUNT_RATE_LIMITS["login_failed"])}
    assert rates["ip"].amount >= 10 * rates["key"].amount
    sprayed = UserFactory.create_batch(rates["ip"].amount // 2)
    UserFactory(username="cafe_regular")
    start = time.time()
    # Spread out, as allauth also caps every login, good or bad, per address and minute.
    step = rates["ip"].duration / (rates["ip"].amount + 10)
    now = start
    for player in sprayed:
        for _attempt in range(2):  # under each account's own limit
            with mock.patch("time.time", return_value=now):
                log_in(client, player.username, WRONG, ip="198.51.100.9")
            now += step
    with mock.patch("time.time", return_value=now):
        response, text = log_in(client, "cafe_regular", PASSWORD, ip="198.51.100.9")
        assert not logged_in(response)
        minutes = math.ceil((start + rates["ip"].duration - now) / 60)
        assert f"Too many failed login attempts. Try again in {minutes} minutes." in text
        # From another address the account itself is fine.
        response, _text = log_in(client, "cafe_regular", PASSWORD, ip="192.0.2.44")
        assert logged_in(response)


def test_the_lock_speaks_the_visitors_language(client):
    UserFactory(username="lucas")
    for _attempt in range(5):
        log_in(client, "lucas", WRONG)
    response = client.post(
        "/accounts/login/",
        {"login": "lucas", "password": PASSWORD},
        REMOTE_ADDR="203.0.113.7",
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert "Vuelve a intentarlo dentro de 5 minutos." in response.content.decode()
