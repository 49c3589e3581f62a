"""An arena's places while it runs (issue 53): players none of whose games counted yet have
no place, and they no longer push back those placed after them: the places read 1, 2, 3…
among the placed players, in the arena frame and on the arena's page."""

import random
import re

import pytest

from games.arenas.frames import arena_state
from games.arenas.pairing import arena_pair
from games.arenas.scoring import arena_game_score
from tests.support.arenas import habanero_arena, joined, play_out, running_games
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def arena():
    """Two players whose game counted, four who joined and have not played yet."""
    players = [UserFactory(username=f"player{n}") for n in range(2)]
    arena = habanero_arena(name="Evening arena")
    joined(arena, players)
    arena_pair(arena_id=arena.pk)
    (game,) = running_games(arena)
    play_out(game, {p.pk: p for p in players}, random.Random(1))
    assert arena_game_score(game_id=game.pk)
    joined(arena, [UserFactory(username=f"newcomer{n}") for n in range(4)], watching=False)
    return arena


def test_the_arena_frames_places_count_only_the_placed_players(arena):
    ranks = [s["rank"] for s in arena_state(arena.pk)["standings"]]
    assert sorted(r for r in ranks if r is not None) == [1, 2]
    assert ranks.count(None) == 4


def test_the_arena_pages_standings_number_the_placed_players_without_gaps(client, arena):
    html = client.get(arena.get_absolute_url()).content.decode()
    places = re.findall(r'<tr data-user="[^"]+"[^>]*>\s*<td>([^<]*)</td>', html)
    assert sorted(p for p in places if p != "–") == ["1", "2"]
    assert places.count("–") == 4
