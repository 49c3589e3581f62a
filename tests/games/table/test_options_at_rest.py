"""Options that do not apply are at rest wherever a table, an arena or a record is made: a
2-player arena made in the admin (whose form starts at 4 players, "In pairs" ticked) is not
"in pairs", and a 2-player practice game's record says no pairs."""

import importlib
import json

import pytest
from django.apps import apps
from django.utils import translation

from accounts.moderators import moderators_group_sync
from games.arenas.models import Arena
from games.models import Table
from games.options import DEFAULT_OPTIONS
from games.table import play, seating
from tests.support.arenas import habanero_arena
from tests.support.factories import ModeratorFactory, UserFactory
from tests.support.play import finish

pytestmark = pytest.mark.django_db

ARENA_FORM = {
    "name": "Two by two",
    "starts_at_0": "2026-12-04",
    "starts_at_1": "20:00:00",
    "length": "01:00:00",
    "recurrence": "",
    "variant": "tute",
    "players": "2",
    "pairs": "on",  # ticked, as the form starts at 4 players
    "rounds": "1",
    "points_to_win": "4",
    "allow_tute": "on",
    "stock_play": "free",
    "move_time": "30",
    "entry": "0",
    "rating_min": "",
    "rating_max": "",
    "closing": "00:03:00",
    "pairing_wait": "00:01:00",
    "players_joined-TOTAL_FORMS": "0",
    "players_joined-INITIAL_FORMS": "0",
}


def test_a_two_player_arena_made_in_the_admin_is_not_in_pairs(client):
    moderators_group_sync()
    client.force_login(ModeratorFactory(username="mod"))
    response = client.post("/admin/arenas/arena/add/", ARENA_FORM)
    assert response.status_code == 302
    arena = Arena.objects.get()
    assert (arena.players, arena.pairs) == (2, False)
    page = client.get(arena.get_absolute_url()).content.decode()
    assert "2 players" in page and "in pairs" not in page
    with translation.override("es"):
        page = client.get(arena.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "por parejas" not in page


def test_a_two_player_arena_changed_in_the_admin_drops_its_pairs(client):
    moderators_group_sync()
    client.force_login(ModeratorFactory(username="mod"))
    client.post("/admin/arenas/arena/add/", {**ARENA_FORM, "players": "4"})
    arena = Arena.objects.get()
    assert arena.pairs
    url = f"/admin/arenas/arena/{arena.pk}/change/"
    response = client.post(url, {**ARENA_FORM, "status": arena.status})
    assert response.status_code == 302
    arena.refresh_from_db()
    assert (arena.players, arena.pairs) == (2, False)


def test_a_two_player_practice_games_record_is_not_in_pairs(client):
    player = UserFactory()
    client.force_login(player)
    response = client.post(
        "/tables/practice/",
        {"variant": "tute", "players": "2", "pairs": "on", "robot_level": "easy"},
    )
    assert response.status_code == 302
    table = Table.objects.get()
    finish(table.pk, player)
    record = json.loads(client.get(f"/games/{table.game.pk}/record.json").content)
    assert record["options"]["players"] == 2
    assert record["options"]["pairs"] is False


def test_a_table_seated_for_players_and_its_record_are_not_in_pairs_at_two():
    """An arena's table, made from the arena's options as they were stored."""
    options = {**DEFAULT_OPTIONS, "players": 2, "pairs": True}
    room = seating.table_for_players(
        options=options, players=[(UserFactory(), None), (UserFactory(), None)]
    )
    room.table.refresh_from_db()
    assert room.table.pairs is False
    assert room.table.game.record["options"]["pairs"] is False


def test_a_record_of_a_table_stored_in_pairs_at_two_is_not_in_pairs():
    master, guest = UserFactory(), UserFactory()
    table = Table.objects.create(master=master, variant="tute", players=2, pairs=True)
    seating.table_sit(table_id=table.pk, user=master)
    seating.table_sit(table_id=table.pk, user=guest)
    game = play.game_start(table_id=table.pk, user=master)
    assert game.record["options"]["pairs"] is False
    assert game.options["pairs"] is False


def test_arenas_stored_in_pairs_at_two_are_brought_to_rest_by_the_migration():
    arena = habanero_arena()
    Arena.objects.filter(pk=arena.pk).update(variant="tute", players=2, pairs=True)
    migration = importlib.import_module(
        "games.arenas.migrations.0004_arenas_store_only_what_applies"
    )
    migration.normalise(apps, None)
    arena.refresh_from_db()
    assert (arena.players, arena.pairs) == (2, False)
