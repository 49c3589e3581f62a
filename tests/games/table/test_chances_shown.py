"""Each side's chance of winning is shown only before a game that will count: not once the
game is over for the same players (its summary is up, issue 53 P6), and never where two
players sit from one address (the game will count for no ranking, confusing 6)."""

import pytest

from games.models import Table
from games.table import seating
from games.table.frames import state_frames
from games.table.room import Room
from tests.support.factories import UserFactory
from tests.support.play import play_to_the_end, seated_table

pytestmark = pytest.mark.django_db


def frame(table: Table) -> dict:
    return state_frames(Room(Table.objects.get(pk=table.pk)))[0]


def test_the_chances_go_once_the_game_is_over_and_come_back_for_new_players():
    table, users = seated_table({"variant": "habanero"}, 2)
    before = frame(table)
    assert [c["seats"] for c in before["chances"]] == [[0], [1]]
    assert not before["table"]["same_address"]

    play_to_the_end(table, users, seed=3)
    assert frame(table)["chances"] is None

    # Another player takes the second seat: the next game is a new one, with its chances.
    seating.table_stand(table_id=table.pk, user=users[1])
    seating.table_sit(
        table_id=table.pk, user=UserFactory(chips=1000), seat=1, ip_address="10.9.9.9"
    )
    assert frame(table)["chances"] is not None


def test_a_same_address_table_has_no_chances_and_says_so_in_its_summary():
    sofia, diego = UserFactory(chips=1000), UserFactory(chips=1000)
    table = seating.table_create(
        master=sofia, options={"variant": "habanero"}, ip_address="192.0.2.7"
    )
    seating.table_sit(table_id=table.pk, user=diego, seat=1, ip_address="192.0.2.7")
    shown = frame(table)
    assert shown["chances"] is None
    assert shown["table"]["same_address"] is True
