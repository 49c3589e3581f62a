"""A room holds what its call said it reads, and its properties never read the database: a
part nobody loaded is refused out loud (`NotLoaded`), not read behind the service's back."""

import pytest
from django.db import transaction

from games.models import Table
from games.table import play, seating
from games.table.room import NOTHING, NotLoaded, Part, Room, locked_room
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db

PROPERTIES = {
    Part.SEATS: ("seats",),
    Part.GAME: ("game", "game_seats", "proposal", "playing"),
    Part.STATE: ("state",),
}


def a_game() -> tuple[Table, list]:
    users = [UserFactory(), UserFactory()]
    table = seating.table_create(master=users[0], options={"variant": "habanero"})
    seating.table_sit(table_id=table.pk, user=users[1])
    play.game_start(table_id=table.pk, user=users[0])
    return Table.objects.get(pk=table.pk), users


def test_a_property_of_a_part_not_loaded_refuses_and_reads_nothing(django_assert_num_queries):
    table, _users = a_game()
    room = Room(table=table)
    for names in PROPERTIES.values():
        for name in names:
            with django_assert_num_queries(0), pytest.raises(NotLoaded, match="without its"):
                getattr(room, name)


def test_the_parts_loaded_are_read_once_and_then_cost_nothing(django_assert_num_queries):
    table, users = a_game()
    room = Room(table=table)
    # The seats in one statement; the game with its seats, proposal and state in another.
    with django_assert_num_queries(2):
        room.load(Part.SEATS | Part.STATE)
    assert room.loaded == Part.SEATS | Part.GAME | Part.STATE
    with django_assert_num_queries(0):
        room.load(Part.SEATS | Part.GAME | Part.STATE)
        assert [s.user for s in room.seats] == users
        assert room.playing and room.game.pk == table.game_id
        assert [gs.seat for gs in room.game_seats] == [0, 1]
        assert room.proposal is None
        assert room.state.to_move in (0, 1)


def test_locked_room_reads_only_what_its_call_says(django_assert_num_queries):
    table, _users = a_game()
    with transaction.atomic():
        with django_assert_num_queries(1):  # the lock and the table's row
            room = locked_room(table.pk, load=NOTHING)
        with pytest.raises(NotLoaded):
            _ = room.seats
        with django_assert_num_queries(2):  # the lock, then the seats
            room = locked_room(table.pk, load=Part.SEATS)
        with pytest.raises(NotLoaded):
            _ = room.game


def test_a_state_handed_over_must_be_loaded_again():
    table, _users = a_game()
    room = Room(table=table).load(Part.STATE)
    room.hand_over_state()
    with pytest.raises(NotLoaded):
        _ = room.state
    assert room.load(Part.STATE).state.deal_index == 0
