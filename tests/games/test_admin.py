"""Moderators see tables and games in the admin, close a table, read its chat, and mute a
message's author."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import ModerationAction
from games import services
from games.models import Game, Table
from games.moderators import games_moderators_sync
from tests.accounts.factories import ModeratorFactory, StaffUserFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(client):
    moderator = ModeratorFactory(username="mod")
    games_moderators_sync()  # until accounts' list holds the games rights
    client.force_login(moderator)
    return moderator


@pytest.fixture
def busy_table():
    master, guest = UserFactory(chips=500), UserFactory(chips=500)
    table = services.table_create(master=master, options={"variant": "habanero", "stake": 40})
    services.table_sit(table_id=table.pk, user=guest)
    services.chat_post(table_id=table.pk, user=guest, text="<b>rude</b> words")
    game = services.game_start(table_id=table.pk, user=master)
    return table, game, master, guest


def test_moderators_see_tables_games_and_a_tables_chat_escaped(client, moderator, busy_table):
    table, game, master, guest = busy_table
    tables = client.get("/admin/games/table/")
    assert tables.status_code == 200 and master.username in tables.content.decode()
    games = client.get("/admin/games/game/")
    assert games.status_code == 200 and f"/admin/games/game/{game.pk}/" in games.content.decode()
    assert client.get(f"/admin/games/game/{game.pk}/change/").status_code == 200
    page = client.get(f"/admin/games/table/{table.pk}/change/").content.decode()
    assert "&lt;b&gt;rude&lt;/b&gt; words" in page and "<b>rude</b>" not in page
    assert guest.username in page


def test_a_moderator_closes_a_table_and_its_stakes_go_back(client, moderator, busy_table):
    table, game, master, guest = busy_table
    response = client.post(
        "/admin/games/table/", {"action": "close_tables", "_selected_action": [table.pk]}
    )
    assert response.status_code == 302
    table.refresh_from_db()
    game.refresh_from_db()
    assert table.status == Table.Status.CLOSED and game.status == Game.Status.CANCELLED
    from rankings.selectors import chips_balance

    assert (chips_balance(user=master), chips_balance(user=guest)) == (500, 500)


def test_a_moderator_mutes_the_author_of_a_chat_message(client, moderator, busy_table):
    table, _game, _master, guest = busy_table
    message = table.chat_messages.get()
    selected = {"action": "mute_authors", "_selected_action": [message.pk]}
    form = client.post("/admin/games/chatmessage/", selected)
    assert form.status_code == 200 and guest.username in form.content.decode()
    until = (timezone.now() + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M")
    done = client.post(
        "/admin/games/chatmessage/", {**selected, "apply": "1", "until": until, "reason": "insults"}
    )
    assert done.status_code == 302
    guest.refresh_from_db()
    assert guest.is_muted
    assert ModerationAction.objects.get(target=guest).reason == "insults"
    refused = pytest.raises(services.TableError)
    with refused:
        services.chat_post(table_id=table.pk, user=guest, text="again")


def test_staff_without_the_rights_can_neither_see_nor_close_tables(client, busy_table):
    table, *_ = busy_table
    client.force_login(StaffUserFactory())
    assert client.get("/admin/games/table/").status_code == 403
    client.post("/admin/games/table/", {"action": "close_tables", "_selected_action": [table.pk]})
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
