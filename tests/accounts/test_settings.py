"""The settings page and chat rights, as the player sees them."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from accounts.selectors import can_chat
from accounts.services import user_mute
from tests.support.factories import ModeratorFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_settings_language_is_used_for_every_page_once_logged_in(client):
    player = UserFactory(username="lucia", language="en")
    assert client.get("/settings/").status_code == 302  # log in first
    client.force_login(player)
    html = client.get("/settings/").content.decode()
    assert 'value="fr"' in html and 'value="es"' in html and 'value="en"' in html
    response = client.post("/settings/", {"language": "es"})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.language == "es"
    assert "Juega al Tute en línea" in client.get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()


def test_settings_refuse_a_language_the_site_does_not_speak(client):
    player = UserFactory(language="fr")
    client.force_login(player)
    assert client.post("/settings/", {"language": "de"}).status_code == 200
    player.refresh_from_db()
    assert player.language == "fr"


def test_signing_up_in_spanish_makes_spanish_the_players_language(client):
    client.post(
        "/accounts/signup/",
        {
            "username": "pepe",
            "email": "pepe@example.com",
            "password1": "x-very-secret-1",
            "password2": "x-very-secret-1",
        },
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert User.objects.get(username="pepe").language == "es"


def test_a_muted_player_cannot_chat_until_the_mute_ends():
    player = UserFactory()
    assert can_chat(player)
    user_mute(
        user=player,
        moderator=ModeratorFactory(),
        until=timezone.now() + timedelta(hours=2),
        reason="Spam",
    )
    player.refresh_from_db()
    assert player.is_muted and not can_chat(player)
    User.objects.filter(pk=player.pk).update(muted_until=timezone.now() - timedelta(seconds=1))
    player.refresh_from_db()
    assert not player.is_muted and can_chat(player)
