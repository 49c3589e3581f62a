"""A banned player leaves every table whose game has not started (issue 53): the tables they
master that wait for players close and leave the lobby, and they stand up from the seats
they hold at others' waiting tables. A running game is left to its own end."""

import pytest

from accounts import services as account_services
from accounts.models import User
from games.models import Game, Table, TableSeat
from games.selectors import lobby_tables
from games.table import play, seating
from rankings.selectors import chips_balance
from tests.support.factories import ModeratorFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def troll() -> User:
    return UserFactory(username="troll", chips=500)


def ban(user: User) -> None:
    account_services.user_ban(user=user, moderator=ModeratorFactory(), reason="abuse")


def test_a_banned_players_waiting_table_closes_and_leaves_the_lobby(troll):
    guest = UserFactory(chips=500)
    table = seating.table_create(master=troll, options={"variant": "habanero", "players": 2})
    other = seating.table_create(master=UserFactory(), options={"variant": "tute", "players": 4})
    seating.table_sit(table_id=other.pk, user=troll)
    seating.table_sit(table_id=other.pk, user=guest)
    ban(troll)
    table.refresh_from_db()
    other.refresh_from_db()
    assert table.status == Table.Status.CLOSED
    assert other.status == Table.Status.OPEN
    assert not TableSeat.objects.filter(table=other, user=troll).exists()
    assert TableSeat.objects.filter(table=other, user=guest).exists()
    listed = [row["id"] for row in lobby_tables()]
    assert table.pk not in listed and other.pk in listed


def test_a_banned_master_of_a_waiting_table_with_others_seated_closes_it(troll):
    guest = UserFactory(chips=500)
    table = seating.table_create(master=troll, options={"variant": "tute", "players": 4})
    seating.table_sit(table_id=table.pk, user=guest)
    ban(troll)
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED


def test_a_banned_players_running_game_is_left_alone(troll):
    guest = UserFactory(chips=500)
    table = seating.table_create(master=troll, options={"variant": "habanero", "stake": 40})
    seating.table_sit(table_id=table.pk, user=guest)
    game = play.game_start(table_id=table.pk, user=troll)
    ban(troll)
    table.refresh_from_db()
    game.refresh_from_db()
    assert table.status == Table.Status.PLAYING and game.status == Game.Status.PLAYING
    assert chips_balance(user=guest) == 460
