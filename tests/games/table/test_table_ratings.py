"""The ratings at a table: the chance of winning before a competitive game, a finished game's
rating changes and trophies for its summary, and no rating moved by a cancelled game."""

import pytest

from games.table import cancel, play
from rankings.models import Rating, RatingChange, TrophyAward
from rankings.services import game_result_award
from rankings.tasks import award_sweep
from tests.support.awards import finish_game
from tests.support.play import first_state, play_to_the_end, seated_table

pytestmark = pytest.mark.django_db


def test_a_full_competitive_table_shows_each_sides_chance_before_the_game_only():
    table, users = seated_table({"variant": "tute", "players": 2}, 2)
    # users[0] won three games against users[1] already: the favourite.
    for _game in range(3):
        game_result_award(game_id=finish_game(users, winner_side=0, stake=0).game_id)
    chances = first_state(table_id=table.pk, user=users[1])["chances"]
    assert [side["seats"] for side in chances] == [[0], [1]]
    assert chances[0]["percent"] > 50 > chances[1]["percent"]
    assert sum(side["percent"] for side in chances) in (99, 100, 101)
    play.game_start(table_id=table.pk, user=users[0])
    assert first_state(table_id=table.pk, user=users[1])["chances"] is None


def test_pairs_are_given_one_chance_per_side_and_a_table_with_a_free_seat_none():
    table, users = seated_table({"variant": "tute", "players": 4}, 3)
    assert first_state(table_id=table.pk, user=users[0])["chances"] is None
    table, users = seated_table({"variant": "tute", "players": 4}, 4)
    chances = first_state(table_id=table.pk, user=users[0])["chances"]
    assert [side["seats"] for side in chances] == [[0, 2], [1, 3]]
    assert [side["percent"] for side in chances] == [50, 50]  # nobody rated yet


def test_a_practice_table_shows_no_chance():
    table, users = seated_table({"variant": "tute", "players": 2, "competitive": False}, 2)
    assert first_state(table_id=table.pk, user=users[0])["chances"] is None


def test_the_summary_gets_each_players_rating_change_and_new_trophy_once_awarded(client):
    table, users = seated_table({"variant": "habanero"}, 2)
    game = play_to_the_end(table, users, seed=5)
    waiting = client.get(f"/games/{game.pk}/awards.json").json()
    assert waiting["awarded"] is False
    assert all(seat["rating"] is None for seat in waiting["seats"])
    award_sweep(older_than_seconds=0)
    data = client.get(f"/games/{game.pk}/awards.json").json()
    assert data["awarded"] is True
    by_user = {seat["user"]: seat for seat in data["seats"]}
    winner = users[game.result["winner"]]
    loser = next(user for user in users if user != winner)
    assert by_user[winner.username]["rating"]["change"].startswith("+")
    assert by_user[loser.username]["rating"]["change"].startswith("-")
    assert by_user[winner.username]["rating"]["shown"].endswith("?")  # provisional
    # The deal is shuffled at random: a cante may have earned "Las cuarenta" too. The summary
    # names exactly the trophies this game earned each player, the first win among them.
    assert "First win: habanero" in by_user[winner.username]["trophies"]
    for user in users:
        earned = TrophyAward.objects.filter(user=user, game_id=game.pk).count()
        assert len(by_user[user.username]["trophies"]) == earned
    assert "First win: habanero" not in by_user[loser.username]["trophies"]


def test_a_cancelled_game_moves_no_rating():
    table, users = seated_table({"variant": "tute", "players": 2}, 2)
    play.game_start(table_id=table.pk, user=users[0])
    cancel.game_cancel_propose(table_id=table.pk, user=users[0])
    cancel.game_cancel_answer(table_id=table.pk, user=users[1], accept=True)
    award_sweep(older_than_seconds=0)
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    assert not TrophyAward.objects.exists()
