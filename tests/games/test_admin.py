"""Moderators see tables and games in the admin, close a table, read its chat, and mute a
message's author."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import ModerationAction
from accounts.moderators import moderators_group_sync
from games.models import Game, Table
from games.table import chat, play, refusals, seating
from rankings.models import ChipTransfer
from rankings.selectors import chips_balance, ledger_totals
from tests.support.factories import ModeratorFactory, StaffUserFactory, UserFactory
from tests.support.moderation import messages_after

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(client):
    moderator = ModeratorFactory(username="mod")
    moderators_group_sync()
    client.force_login(moderator)
    return moderator


@pytest.fixture
def busy_table():
    master, guest = UserFactory(chips=500), UserFactory(chips=500)
    table = seating.table_create(master=master, options={"variant": "habanero", "stake": 40})
    seating.table_sit(table_id=table.pk, user=guest)
    chat.chat_post(table_id=table.pk, user=guest, text="<b>rude</b> words")
    game = play.game_start(table_id=table.pk, user=master)
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
    selected = {"action": "close_tables", "_selected_action": [table.pk]}
    # First a confirmation page asking why; nothing is closed yet.
    confirm = client.post("/admin/games/table/", selected)
    assert confirm.status_code == 200
    page = confirm.content.decode()
    assert "Reason" in page and "its running game is cancelled and every stake given back" in page
    no_reason = client.post("/admin/games/table/", {**selected, "apply": "1", "reason": " "})
    assert no_reason.status_code == 200 and "This field is required." in no_reason.content.decode()
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING

    done = client.post(
        "/admin/games/table/", {**selected, "apply": "1", "reason": "Insults in the chat"}
    )
    assert messages_after(client, done) == [f"Closed table {table.pk}; its players are told why."]
    table.refresh_from_db()
    game.refresh_from_db()
    assert table.status == Table.Status.CLOSED and game.status == Game.Status.CANCELLED
    assert table.close_reason == "Insults in the chat"
    # The stakes went back through the ledger.
    assert (chips_balance(user=master), chips_balance(user=guest)) == (500, 500)
    refunds = ChipTransfer.objects.filter(game_id=game.pk, reason="refund")
    assert refunds.count() == 1 and ledger_totals().accounted
    # In the moderation log: who, when, the table and why.
    action = ModerationAction.objects.get(kind="close")
    assert (action.moderator, action.table_id, action.reason, action.target) == (
        moderator,
        table.pk,
        "Insults in the chat",
        None,
    )
    log = client.get("/admin/accounts/moderationaction/").content.decode()
    assert f"table {table.pk}" in log and "Table closed" in log
    again = client.post(
        "/admin/games/table/", {**selected, "apply": "1", "reason": "Insults in the chat"}
    )
    assert messages_after(client, again) == ["Nothing changed: these tables were already closed."]
    assert ModerationAction.objects.filter(kind="close").count() == 1


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
    refused = pytest.raises(refusals.TableError)
    with refused:
        chat.chat_post(table_id=table.pk, user=guest, text="again")


def test_staff_without_the_rights_can_neither_see_nor_close_tables(client, busy_table):
    table, *_ = busy_table
    client.force_login(StaffUserFactory())
    assert client.get("/admin/games/table/").status_code == 403
    client.post(
        "/admin/games/table/",
        {"action": "close_tables", "_selected_action": [table.pk], "apply": "1", "reason": "x"},
    )
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
