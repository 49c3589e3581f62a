"""An arena's table (issue 53): the game-over summary's awards say the arena points the game
earned each player (awards.json), and the table has no master's requests, so its seat 0
gets no master's panel with "Invite a player"."""

import random

import pytest

from games.arenas.pairing import arena_pair
from games.arenas.scoring import arena_game_score
from games.table import permits, play, seating
from games.table.refusals import TableError
from games.table.room import Room
from rankings.tasks import award_sweep
from tests.support.arenas import habanero_arena, joined, play_out, running_games
from tests.support.browser import finish_the_game
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def arena_game():
    ana, beto = UserFactory(username="anabel"), UserFactory(username="bertin")
    arena = habanero_arena(name="Evening arena")
    joined(arena, [ana, beto])
    arena_pair(arena_id=arena.pk)
    (game,) = running_games(arena)
    return arena, game, {ana.pk: ana, beto.pk: beto}


def test_an_arena_games_awards_say_the_arena_points_it_earned(client, arena_game):
    arena, game, users = arena_game
    play_out(game, users, random.Random(2))
    award_sweep(older_than_seconds=0)
    waiting = client.get(f"/games/{game.pk}/awards.json").json()
    assert waiting["awarded"] is False  # the arena has not scored it yet
    assert arena_game_score(game_id=game.pk)
    awards = client.get(f"/games/{game.pk}/awards.json").json()
    assert awards["awarded"] is True
    assert awards["arena"] == {"name": "Evening arena", "url": arena.get_absolute_url()}
    points = {s["user"]: s["arena"] for s in awards["seats"]}
    assert sorted(p["points"] for p in points.values()) == [0, 2]
    assert not any(p["doubled"] for p in points.values())


def test_a_games_awards_off_the_arena_have_no_arena_points(client):
    ana, beto = UserFactory(), UserFactory()
    table = seating.table_create(master=ana, options={"variant": "habanero"})
    seating.table_sit(table_id=table.pk, user=beto)
    play.game_start(table_id=table.pk, user=ana)
    game = finish_the_game(table.pk, {0: ana, 1: beto})
    awards = client.get(f"/games/{game.pk}/awards.json").json()
    assert awards["awarded"] is True and awards["arena"] is None
    assert all(s["arena"] is None for s in awards["seats"])


def test_an_arena_table_has_no_masters_requests(client, arena_game):
    _arena, game, users = arena_game
    table = game.table
    master = users[table.master_id]
    may = permits.may_for(Room(table=table), master)
    assert not (may["invite"] or may["options"] or may["start"] or may["robots"])
    with pytest.raises(TableError):
        seating.table_invite(table_id=table.pk, user=master, username="someone")
    client.force_login(master)
    page = client.get(table.get_absolute_url()).content.decode()
    assert '<section id="master-panel" class="panel" hidden>' in page
