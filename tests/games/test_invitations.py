"""Invitations and friends: an invitation reaches the invited player's own socket and lobby at
once; declined, it tells the master; accepted, it seats; the friends list says who is online
and where; robots chosen beforehand fill the seats after the wait."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.utils import timezone

from accounts.services import friend_accept, friend_request
from games.models import Invitation, Table
from games.table import matchmaking, people, seating
from tests.support.factories import UserFactory
from tests.support.live import WAIT, open_socket, table_socket
from tests.support.play import two_players

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


# --- Invitations and friends ---------------------------------------------------------------


@pytest.mark.asyncio
async def test_an_invitation_reaches_the_invited_players_own_socket_at_once():
    alicia, bruno = await sync_to_async(
        lambda: (UserFactory(chips=1000), UserFactory(chips=1000))
    )()
    me = await open_socket("/ws/me/", bruno)
    assert await me.receive_json_from(timeout=WAIT) == {"type": "invitations", "count": 0}
    table = await sync_to_async(seating.table_create)(
        master=alicia, options={"variant": "habanero", "private": True}
    )
    await sync_to_async(seating.table_invite)(
        table_id=table.pk, user=alicia, username=bruno.username
    )
    assert await me.receive_json_from(timeout=WAIT) == {"type": "invitations", "count": 1}
    await sync_to_async(seating.table_sit)(table_id=table.pk, user=bruno)
    assert await me.receive_json_from(timeout=WAIT) == {"type": "invitations", "count": 0}
    rows = await sync_to_async(
        lambda: people.table_invitations(table=table, seats=list(table.seats.all()))
    )()
    assert rows == [{"user": bruno.username, "state": "accepted"}]
    await me.disconnect()


def test_declining_an_invitation_tells_the_master_and_accepting_seats(client):
    alicia, bruno, carmen = (UserFactory(chips=1000) for _ in range(3))
    table = seating.table_create(master=alicia, options={"variant": "tute", "players": 3})
    for name in (bruno.username, carmen.username):
        seating.table_invite(table_id=table.pk, user=alicia, username=name)
    client.force_login(bruno)
    page = client.get("/invitations/").content.decode()
    assert "Accept and sit down" in page
    invitation = Invitation.objects.get(user=bruno)
    response = client.post("/invitations/", {"invitation": invitation.pk, "answer": "accept"})
    assert response["Location"] == table.get_absolute_url()
    client.force_login(carmen)
    other = Invitation.objects.get(user=carmen)
    client.post("/invitations/", {"invitation": other.pk, "answer": "decline"})
    assert people.table_invitations(table=table, seats=list(table.seats.all())) == [
        {"user": bruno.username, "state": "accepted"},
        {"user": carmen.username, "state": "declined"},
    ]
    assert "No invitation is waiting" in client.get("/invitations/").content.decode()
    # The master's table page reads the list again from its own address: hers alone.
    url = f"/tables/{table.pk}/invited/"
    assert client.get(url).status_code == 403
    client.force_login(alicia)
    listed = client.get(url).content.decode()
    assert f"{bruno.username}: accepted" in listed and f"{carmen.username}: declined" in listed
    client.logout()
    assert client.get(url).status_code == 302
    client.force_login(alicia)
    assert client.get("/tables/999999/invited/").status_code == 404


def test_the_friends_list_says_who_is_online_and_at_which_table(client):
    alicia, bruno, carmen = (UserFactory(chips=1000) for _ in range(3))
    for friend in (bruno, carmen):
        friend_request(from_user=alicia, to_user=friend)
        friend_accept(user=friend, requester=alicia)
    table = seating.table_create(master=bruno, options={"variant": "habanero"})
    from games.models import ServerProcess, UserSocket

    process = ServerProcess.objects.create(
        id="00000000-0000-0000-0000-000000000024", last_seen=timezone.now()
    )
    UserSocket.objects.create(channel_name="me-1", user=bruno, process=process)
    rows = {row["user"].username: row for row in people.friends_status(user=alicia)}
    assert rows[bruno.username]["online"] and rows[bruno.username]["table_id"] == table.pk
    assert not rows[carmen.username]["online"] and rows[carmen.username]["table_id"] is None
    mine = seating.table_create(master=alicia, options={"variant": "habanero"})
    client.force_login(alicia)
    page = client.get("/friends/").content.decode()
    assert f'action="/tables/{mine.pk}/request/"' in page and "Watch" in page
    assert "online" in page and "offline" in page


@pytest.mark.asyncio
async def test_the_lobby_is_told_as_someone_starts_and_stops_watching():
    alicia, bruno = await sync_to_async(two_players)()
    table = await sync_to_async(seating.table_create)(
        master=alicia, options={"variant": "habanero"}
    )
    lobby = await open_socket("/ws/lobby/")
    assert (await lobby.receive_json_from(timeout=WAIT))["tables"][0]["watchers"] == 0
    watcher = (await table_socket(table.pk, bruno))[0]
    frame = await lobby.receive_json_from(timeout=WAIT)
    assert frame["type"] == "table" and frame["table"]["watchers"] == 1
    await watcher.disconnect()
    frame = await lobby.receive_json_from(timeout=WAIT)
    assert frame["type"] == "table" and frame["table"]["watchers"] == 0
    # The player seated there is no watcher.
    player = (await table_socket(table.pk, alicia))[0]
    await player.disconnect()
    assert await lobby.receive_nothing(timeout=1)
    await lobby.disconnect()


@pytest.mark.asyncio
async def test_the_invited_players_lobby_marks_the_table_at_once():
    alicia, bruno = await sync_to_async(two_players)()
    table = await sync_to_async(seating.table_create)(
        master=alicia, options={"variant": "habanero", "private": True}
    )
    lobby = await open_socket("/ws/lobby/", bruno)
    assert (await lobby.receive_json_from(timeout=WAIT))["tables"] == []  # not theirs to see
    invite = sync_to_async(seating.table_invite)
    await invite(table_id=table.pk, user=alicia, username=bruno.username)
    frame = await lobby.receive_json_from(timeout=WAIT)
    assert frame["type"] == "table" and frame["table"]["id"] == table.pk
    assert frame["table"]["invited"] is True
    await lobby.disconnect()


def test_robots_chosen_beforehand_fill_the_seats_after_the_wait():
    alicia, bruno = two_players()
    table = matchmaking.play_now(user=alicia, variant="tute", robots=True)
    matchmaking.play_now(user=bruno, variant="tute")
    table.refresh_from_db()
    assert table.robots_at is not None and table.status == Table.Status.OPEN
    from games import timers

    early = table.robots_at - timedelta(seconds=1)
    assert timers.sweep(now=early)["filled"] == 0
    assert timers.sweep(now=table.robots_at)["filled"] == 1
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and not table.competitive
    assert sorted(table.seats.exclude(robot="").values_list("seat", flat=True)) == [2, 3]
    assert table.game.seats.filter(user__isnull=False).count() == 2
