"""Who is at a table (games/table/presence.py): a player's sockets opening and closing, a
new address, a player away and back, one who leaves on purpose, and the sockets of a
daphne process that died. What the others are pushed is checked, and what a spectator's
socket leaves untouched."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import GameSeat, ServerProcess, Table, TableSeat, TableSocket
from games.push import LOBBY_GROUP
from games.table import play, presence, seating
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db

PROCESS = "00000000-0000-4000-8000-0000000000b2"


def a_table(start: bool = True):
    users = [UserFactory(chips=1000), UserFactory(chips=1000)]
    table = seating.table_create(
        master=users[0], options={"variant": "habanero", "move_time": 60}, ip_address="10.0.0.1"
    )
    seating.table_sit(table_id=table.pk, user=users[1], ip_address="10.0.0.2")
    if start:
        play.game_start(table_id=table.pk, user=users[0])
    ServerProcess.objects.create(id=PROCESS, last_seen=timezone.now())
    return table, users


def opened(pushed, table, user, channel: str, ip: str | None = None):
    return pushed.of(
        presence.table_socket_open,
        table=Table.objects.select_related("master").get(pk=table.pk),
        user=user,
        channel_name=channel,
        process_id=PROCESS,
        ip_address=ip,
    )


def my_seat(table, seat: int) -> GameSeat:
    return GameSeat.objects.get(
        game__table=table, game=Table.objects.get(pk=table.pk).game, seat=seat
    )


def test_a_new_address_is_written_under_the_lock_and_pushed_the_same_one_is_not(pushed):
    table, users = a_table(start=False)
    assert opened(pushed, table, users[1], "a", ip="10.0.0.2") == 1
    assert pushed == []  # the address the seat already had
    opened(pushed, table, users[1], "b", ip="10.0.0.1")
    assert pushed.kinds(seat=0) == ["address"]
    assert TableSeat.objects.get(table=table, user=users[1]).ip_address == "10.0.0.1"
    assert TableSocket.objects.filter(table=table, user=users[1]).count() == 2


def test_the_last_socket_closing_makes_the_player_away_and_a_new_one_brings_them_back(pushed):
    table, users = a_table()
    opened(pushed, table, users[1], "one")
    opened(pushed, table, users[1], "two")
    pushed.of(presence.table_socket_close, channel_name="one")
    assert pushed == [] and my_seat(table, 1).away_since is None  # a socket is left
    pushed.of(presence.table_socket_close, channel_name="two")
    assert pushed.kinds(seat=0) == ["away"] and pushed.kinds(seat=1) == []
    away = my_seat(table, 1)
    assert away.away_since is not None and away.abandon_at > away.away_since
    opened(pushed, table, users[1], "three")
    assert pushed.kinds(seat=0) == ["back"]
    back = my_seat(table, 1)
    assert back.away_since is None and back.abandon_at is None and not back.abandoned


def test_a_spectators_socket_tells_the_lobby_alone(pushed):
    table, _users = a_table(start=False)
    spectator = UserFactory()
    assert opened(pushed, table, spectator, "watch") is None
    assert [group for group, _m in pushed] == [LOBBY_GROUP]
    pushed.of(presence.table_socket_close, channel_name="watch")
    assert [group for group, _m in pushed] == [LOBBY_GROUP]
    assert not TableSocket.objects.filter(user=spectator).exists()


def test_a_player_who_leaves_abandons_and_a_robot_plays_their_seat(pushed):
    table, users = a_table()
    pushed.of(presence.game_leave, table_id=table.pk, user=users[1])
    assert pushed.kinds(seat=0) == ["leave"]
    assert my_seat(table, 1).abandoned
    assert not TableSeat.objects.filter(table=table, user=users[1]).exists()
    # The game goes on: its timer is a robot's, or the player's on turn.
    assert Table.objects.get(pk=table.pk).game.deadline_at is not None


def test_the_sockets_of_a_process_that_stopped_beating_are_closed(pushed):
    table, users = a_table()
    opened(pushed, table, users[1], "dead-process")
    later = timezone.now() + timedelta(minutes=5)
    assert pushed.of(presence.server_process_sweep, now=later) == 1
    assert pushed.kinds(seat=0) == ["away"]
    assert not TableSocket.objects.filter(pk="dead-process").exists()
    assert not ServerProcess.objects.filter(pk=PROCESS).exists()
    # A process that beats is alive: nothing of it is swept.
    presence.server_process_beat(process_id=PROCESS)
    opened(pushed, table, users[1], "alive")
    assert pushed.of(presence.server_process_sweep, now=timezone.now()) == 0
