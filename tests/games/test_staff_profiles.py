"""Staff accounts are not players: until they sit at a game they have no public profile and
no place in the player search."""

import pytest

from tests.support.factories import ModeratorFactory, UserFactory
from tests.support.game_factories import GameSeatFactory

pytestmark = pytest.mark.django_db


def test_a_superuser_who_never_played_has_no_public_profile(client):
    UserFactory(username="admin", is_staff=True, is_superuser=True)
    ModeratorFactory(username="mod_eva")
    assert client.get("/players/admin/").status_code == 404
    assert client.get("/players/mod_eva/").status_code == 404
    assert client.get("/players/", {"q": "admin"}).content.decode().count("/players/admin/") == 0


def test_staff_who_played_keep_their_profile(client):
    moderator = ModeratorFactory(username="mod_juan")
    GameSeatFactory(user=moderator)
    assert client.get("/players/mod_juan/").status_code == 200
    assert "/players/mod_juan/" in client.get("/players/", {"q": "juan"}).content.decode()


def test_players_who_never_played_have_their_profile(client):
    UserFactory(username="nuevo")
    assert client.get("/players/nuevo/").status_code == 200
