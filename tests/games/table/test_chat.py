"""The chat at a table (games/table/chat.py): a line reaches every seat, and the
spectators where the table admits guests; a line nobody may post changes nothing."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import ChatMessage
from games.table import chat, seating
from games.table.refusals import TableError
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db


def a_table(guests: bool = False):
    users = [UserFactory(), UserFactory()]
    table = seating.table_create(master=users[0], options={"variant": "habanero", "guests": guests})
    seating.table_sit(table_id=table.pk, user=users[1])
    return table, users


def refused(pushed, code: str, **kwargs) -> None:
    before = ChatMessage.objects.count()
    with pytest.raises(TableError) as error:
        pushed.of(chat.chat_post, **kwargs)
    assert error.value.code == code and str(error.value.message)
    assert ChatMessage.objects.count() == before and pushed == []


def test_a_players_line_reaches_every_seat_and_no_spectator(pushed):
    table, users = a_table()
    pushed.of(chat.chat_post, table_id=table.pk, user=users[1], text="  ¡Buena mano!  ")
    lines = pushed.chat()
    assert sorted(group for group, _frame in lines) == [
        f"table-{table.pk}-seat-0",
        f"table-{table.pk}-seat-1",
    ]
    message = lines[0][1]["message"]
    assert message["text"] == "¡Buena mano!" and message["user"] == users[1].username


def test_at_a_table_for_guests_the_spectators_read_it_too(pushed):
    table, users = a_table(guests=True)
    pushed.of(chat.chat_post, table_id=table.pk, user=users[0], text="hola")
    assert f"table-{table.pk}-watch" in [group for group, _frame in pushed.chat()]
    spectator = UserFactory()
    pushed.of(chat.chat_post, table_id=table.pk, user=spectator, text="¡suerte!")
    assert {frame["message"]["text"] for _g, frame in pushed.chat()} == {"¡suerte!"}


def test_a_spectator_may_not_chat_where_the_table_admits_no_guests(pushed):
    table, _users = a_table()
    refused(pushed, "not_seated", table_id=table.pk, user=UserFactory(), text="hola")


@pytest.mark.parametrize("text", ["", "   ", "x" * (ChatMessage.MAX_LENGTH + 1), None])
def test_an_empty_or_overlong_line_is_refused(pushed, text):
    table, users = a_table()
    refused(pushed, "invalid", table_id=table.pk, user=users[0], text=text)


def test_the_sixth_line_in_ten_seconds_waits(pushed):
    table, users = a_table()
    for n in range(5):
        pushed.of(chat.chat_post, table_id=table.pk, user=users[0], text=f"line {n}")
    refused(pushed, "rate_limited", table_id=table.pk, user=users[0], text="one more")
    # The other player's lines are their own to count.
    pushed.of(chat.chat_post, table_id=table.pk, user=users[1], text="mine")
    assert len(pushed.chat()) == 2


def test_a_muted_player_is_refused_until_the_mute_ends(pushed):
    table, users = a_table()
    users[1].muted_until = timezone.now() + timedelta(minutes=5)
    users[1].save(update_fields=["muted_until"])
    refused(pushed, "muted", table_id=table.pk, user=users[1], text="hola")
    users[1].muted_until = timezone.now() - timedelta(seconds=1)
    users[1].save(update_fields=["muted_until"])
    pushed.of(chat.chat_post, table_id=table.pk, user=users[1], text="hola")
    assert len(pushed.chat()) == 2


def test_an_unknown_table_is_refused(pushed):
    refused(pushed, "unknown_table", table_id=999_999, user=UserFactory(), text="hola")
