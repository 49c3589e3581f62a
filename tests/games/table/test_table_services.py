"""The table services: options of RULES.md §10, seats, chips, privacy, stakes, chat limits."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.services import friend_accept, friend_request, user_mute
from games.models import ChatMessage, Game, Invitation, Table
from games.table import chat, play, seating
from games.table.refusals import TableError
from rankings.models import ChipAccount
from rankings.selectors import chips_balance
from tests.support.factories import ModeratorFactory, UserFactory

pytestmark = pytest.mark.django_db


def refused(code: str, call, **kwargs) -> TableError:
    with pytest.raises(TableError) as error:
        call(**kwargs)
    assert error.value.code == code, error.value.message
    return error.value


def options_refused(table: Table, user, options: dict, code: str = "invalid") -> TableError:
    return refused(code, seating.table_set_options, table_id=table.pk, user=user, options=options)


def full_table(options: dict, chips: int = 1000) -> tuple[Table, list]:
    players = options.get("players", 2 if options.get("variant") == "habanero" else 4)
    users = [UserFactory(chips=chips) for _ in range(players)]
    table = seating.table_create(master=users[0], options=options)
    for user in users[1:]:
        seating.table_sit(table_id=table.pk, user=user)
    return table, users


def test_a_new_table_has_the_defaults_of_section_10_and_its_master_in_the_first_seat():
    master = UserFactory()
    table = seating.table_create(master=master, options={})
    assert (table.variant, table.players, table.pairs, table.rounds) == ("tute", 4, True, 1)
    assert (table.points_to_win, table.move_time, table.competitive, table.stake) == (
        4,
        30,
        True,
        0,
    )
    assert (table.private, table.guests, table.allow_tute, table.stock_play) == (
        False,
        True,
        True,
        "free",
    )
    assert list(table.seats.values_list("seat", "user")) == [(0, master.pk)]
    assert table.master == master and table.status == Table.Status.OPEN
    assert seating.table_create(master=UserFactory(), options={"variant": "habanero"}).players == 2


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"variant": "bridge"}, "variant"),
        ({"variant": "habanero", "players": 4}, "players"),
        ({"players": 5}, "players"),
        ({"pairs": "yes"}, "pairs"),
        ({"rounds": 6}, "rounds"),
        ({"points_to_win": 0}, "points_to_win"),
        ({"move_time": -1}, "move_time"),
        ({"stake": -5}, "stake"),
        ({"competitive": False, "stake": 10}, "stake"),
        ({"stock_play": "loose"}, "stock_play"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_an_option_out_of_section_10_is_refused_naming_its_field(options, field):
    error = refused(
        "invalid", seating.table_create, master=UserFactory(chips=1000), options=options
    )
    assert error.field == field
    assert not Table.objects.exists()


def test_a_stake_needs_the_chips_to_create_and_to_sit():
    poor = UserFactory(chips=50)
    error = refused("invalid", seating.table_create, master=poor, options={"stake": 100})
    assert error.field == "stake"
    table = seating.table_create(master=UserFactory(chips=500), options={"stake": 100})
    refused("invalid", seating.table_sit, table_id=table.pk, user=poor)
    seating.table_sit(table_id=table.pk, user=UserFactory(chips=100))
    assert table.seats.count() == 2


def test_a_private_table_seats_the_invited_and_the_masters_friends_only():
    master, friend, guest, stranger = UserFactory(), UserFactory(), UserFactory(), UserFactory()
    friend_request(from_user=master, to_user=friend)
    friend_accept(user=friend, requester=master)
    table = seating.table_create(master=master, options={"private": True})
    refused("invalid", seating.table_sit, table_id=table.pk, user=stranger)
    refused(
        "not_master", seating.table_invite, table_id=table.pk, user=friend, username=guest.username
    )
    refused("invalid", seating.table_invite, table_id=table.pk, user=master, username="nobody-here")
    seating.table_invite(table_id=table.pk, user=master, username=guest.username.upper())
    assert Invitation.objects.filter(table=table, user=guest, invited_by=master).exists()
    seating.table_sit(table_id=table.pk, user=guest)
    seating.table_sit(table_id=table.pk, user=friend)
    assert sorted(table.seats.values_list("user", flat=True)) == sorted(
        [master.pk, guest.pk, friend.pk]
    )


def test_seats_taken_twice_or_out_of_range_are_refused():
    table = seating.table_create(master=UserFactory(), options={"players": 3})
    user = UserFactory()
    refused("invalid", seating.table_sit, table_id=table.pk, user=user, seat=0)
    refused("invalid", seating.table_sit, table_id=table.pk, user=user, seat=3)
    seating.table_sit(table_id=table.pk, user=user, seat=2)
    refused("invalid", seating.table_sit, table_id=table.pk, user=user, seat=1)
    refused("unknown_table", seating.table_sit, table_id=987654, user=user)


def test_standing_is_allowed_before_the_game_only_and_the_master_passes_on():
    table, users = full_table({"variant": "habanero"})
    seating.table_stand(table_id=table.pk, user=users[0])
    table.refresh_from_db()
    assert table.master == users[1]
    seating.table_sit(table_id=table.pk, user=users[0])
    play.game_start(table_id=table.pk, user=users[1])
    refused("invalid", seating.table_stand, table_id=table.pk, user=users[0])
    refused("invalid", seating.table_sit, table_id=table.pk, user=UserFactory())


def test_the_last_player_to_stand_closes_the_table():
    master = UserFactory()
    table = seating.table_create(master=master, options={})
    seating.table_stand(table_id=table.pk, user=master)
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED and table.closed_at is not None


def test_only_the_master_changes_options_and_only_between_games():
    table, users = full_table({"variant": "habanero", "stake": 10})
    refused(
        "not_master",
        seating.table_set_options,
        table_id=table.pk,
        user=users[1],
        options={"rounds": 2},
    )
    seating.table_set_options(table_id=table.pk, user=users[0], options={"points_to_win": 2})
    table.refresh_from_db()
    assert table.points_to_win == 2
    error = options_refused(table, users[0], {"stake": 5000})
    assert error.field == "stake"
    options_refused(table, users[0], {"variant": "tute", "players": 4, "pairs": 1})
    play.game_start(table_id=table.pk, user=users[0])
    options_refused(table, users[0], {"rounds": 3})


def test_a_table_cannot_shrink_under_a_seated_player():
    table, users = full_table({"players": 3})
    error = options_refused(table, users[0], {"players": 2})
    assert error.field == "players"


def test_the_game_starts_with_every_seat_taken_and_puts_each_stake_in_the_pot():
    master = UserFactory(chips=1000)
    table = seating.table_create(master=master, options={"variant": "habanero", "stake": 100})
    refused("invalid", play.game_start, table_id=table.pk, user=master)
    other = UserFactory(chips=300)
    seating.table_sit(table_id=table.pk, user=other, ip_address="192.0.2.7")
    refused("not_master", play.game_start, table_id=table.pk, user=other)
    game = play.game_start(table_id=table.pk, user=master)
    assert (chips_balance(user=master), chips_balance(user=other)) == (900, 200)
    assert ChipAccount.objects.get(game_id=game.pk).balance == 200
    assert game.started_at is not None and game.status == Game.Status.PLAYING
    assert list(game.seats.values_list("seat", "user", "ip_address")) == [
        (0, master.pk, None),
        (1, other.pk, "192.0.2.7"),
    ]
    assert len(game.record["deals"]) == 1
    refused("invalid", play.game_start, table_id=table.pk, user=master)


def test_a_player_who_spent_the_stake_since_sitting_stops_the_start_and_nothing_moves():
    master = UserFactory(chips=1000)
    table = seating.table_create(master=master, options={"variant": "habanero", "stake": 100})
    other = UserFactory(chips=100)
    seating.table_sit(table_id=table.pk, user=other)
    ChipAccount.objects.filter(user=other).update(balance=10)  # as if spent at another table
    refused("invalid", play.game_start, table_id=table.pk, user=master)
    assert chips_balance(user=master) == 1000
    assert not Game.objects.exists()


def test_a_practice_game_moves_no_chips():
    table, users = full_table({"variant": "habanero", "competitive": False})
    game = play.game_start(table_id=table.pk, user=users[0])
    assert [chips_balance(user=u) for u in users] == [1000, 1000]
    assert not ChipAccount.objects.filter(game_id=game.pk).exists()


def test_a_moderator_closing_a_table_cancels_its_game_and_gives_the_stakes_back():
    table, users = full_table({"variant": "habanero", "stake": 100})
    game = play.game_start(table_id=table.pk, user=users[0])
    refused("not_master", seating.table_close, table_id=table.pk, moderator=users[0])
    moderator = ModeratorFactory()
    from accounts.moderators import moderators_group_sync

    moderators_group_sync()
    moderator = type(moderator).objects.get(pk=moderator.pk)  # fresh permission cache
    seating.table_close(table_id=table.pk, moderator=moderator)
    game.refresh_from_db()
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED
    assert game.status == Game.Status.CANCELLED
    assert [chips_balance(user=u) for u in users] == [1000, 1000]
    refused("invalid", seating.table_sit, table_id=table.pk, user=UserFactory())


def test_chat_is_limited_to_five_messages_in_ten_seconds_per_player():
    table, users = full_table({"variant": "habanero"})
    for n in range(5):
        chat.chat_post(table_id=table.pk, user=users[1], text=f"hello {n}")
    refused("rate_limited", chat.chat_post, table_id=table.pk, user=users[1], text="one more")
    chat.chat_post(table_id=table.pk, user=users[0], text="others still may")
    ChatMessage.objects.filter(user=users[1]).update(
        created_at=timezone.now() - timedelta(seconds=11)
    )
    chat.chat_post(table_id=table.pk, user=users[1], text="and later again")
    assert ChatMessage.objects.filter(user=users[1]).count() == 6


def test_muted_players_and_empty_or_long_messages_are_refused():
    table, users = full_table({"variant": "habanero"})
    moderator = ModeratorFactory()
    user_mute(
        user=users[1], moderator=moderator, until=timezone.now() + timedelta(hours=1), reason="spam"
    )
    refused("muted", chat.chat_post, table_id=table.pk, user=users[1], text="hi")
    refused("invalid", chat.chat_post, table_id=table.pk, user=users[0], text="   ")
    refused("invalid", chat.chat_post, table_id=table.pk, user=users[0], text="x" * 301)
    assert not ChatMessage.objects.exists()


def test_spectators_chat_only_while_guests_are_welcome():
    table, users = full_table({"variant": "habanero", "guests": False})
    refused("not_seated", chat.chat_post, table_id=table.pk, user=UserFactory(), text="hi")
    seating.table_set_options(table_id=table.pk, user=users[0], options={"guests": True})
    chat.chat_post(table_id=table.pk, user=UserFactory(), text="hi")
