"""The table socket around play: sitting, options, chat, reconnecting; and the lobby socket."""

import pytest
from channels.db import database_sync_to_async as sync_to_async

from accounts.moderators import moderators_group_sync
from games.models import GameSeat
from games.table import play, seating
from tests.support.factories import ModeratorFactory, UserFactory
from tests.support.live import WAIT, check_frame, open_socket, record_of, table_socket

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def new_table(**options):
    master = UserFactory(chips=1000)
    return seating.table_create(master=master, options=options), master


@pytest.mark.asyncio
async def test_sitting_starting_and_reconnecting_over_the_socket_show_each_player_their_hand():
    table, master = await sync_to_async(new_table)(variant="habanero")
    guest = await sync_to_async(UserFactory)(chips=1000)
    master_socket, first = await table_socket(table.pk, master)
    assert first["you"] == {"user": master.username, "seat": 0, "master": True}
    assert first["may"]["chat"] and first["may"]["options"] and not first["may"]["start"]
    guest_socket, first = await table_socket(table.pk, guest, client=("192.0.2.9", 50000))
    assert first["you"]["seat"] is None and first["table"]["free_seats"] == 1
    # The guest sits: both see it; the guest's socket now follows seat 1.
    await guest_socket.send_json_to({"type": "sit", "seat": 1})
    for socket in (master_socket, guest_socket):
        frame = await socket.receive_json_from(timeout=WAIT)
        assert frame["event"] == {"kind": "sit", "by": guest.username, "seat": 1}
        assert frame["table"]["seats"][1] == {"seat": 1, "user": guest.username, "robot": None}
    assert frame["you"]["seat"] == 1
    await guest_socket.send_json_to({"type": "start"})
    error = await guest_socket.receive_json_from(timeout=WAIT)
    assert error["code"] == "not_master"
    await master_socket.send_json_to({"type": "start"})
    frames = [await s.receive_json_from(timeout=WAIT) for s in (master_socket, guest_socket)]
    record = await record_of(table.pk)
    for seat, frame in enumerate(frames):
        check_frame(frame, record, seat)
        assert len(frame["game"]["view"]["hand"]) == 8
    # The guest's address, as their socket came, is the one the game recorded.
    seats = await sync_to_async(
        lambda: list(
            GameSeat.objects.filter(game_id=frames[0]["game"]["id"]).values_list(
                "seat", "ip_address"
            )
        )
    )()
    assert (1, "192.0.2.9") in seats
    # One move, then the guest reloads: the new socket shows exactly the current state.
    turn = frames[0]["game"]["view"]["turn"]
    mover = (master_socket, guest_socket)[turn]
    await mover.send_json_to(
        {"type": "act", "action": frames[turn]["game"]["view"]["legal_actions"][0], "count": 0}
    )
    for socket in (master_socket, guest_socket):
        assert (await socket.receive_json_from(timeout=WAIT))["count"] == 1
    await guest_socket.disconnect()
    guest_socket, again = await table_socket(table.pk, guest)
    check_frame(again, await record_of(table.pk), 1)
    assert again["event"] is None
    await guest_socket.send_json_to({"type": "sync"})
    synced = await guest_socket.receive_json_from(timeout=WAIT)
    # The same state, but for the seconds the move timer has counted down meanwhile.
    for frame in (synced, again):
        frame["game"]["deadline"].pop("seconds")
    assert synced == again
    await master_socket.disconnect()
    await guest_socket.disconnect()


@pytest.mark.asyncio
async def test_everyone_at_the_table_is_told_at_once_when_an_option_changes():
    table, master = await sync_to_async(new_table)(variant="tute", players=3)
    spectator = await sync_to_async(UserFactory)()
    master_socket, _ = await table_socket(table.pk, master)
    watcher, _ = await table_socket(table.pk, spectator)
    await master_socket.send_json_to({"type": "options", "options": {"rounds": 3, "stake": 20}})
    for socket in (master_socket, watcher):
        frame = await socket.receive_json_from(timeout=WAIT)
        assert frame["event"] == {
            "kind": "options",
            "by": master.username,
            "changed": ["rounds", "stake"],
        }
        assert (frame["table"]["options"]["rounds"], frame["table"]["options"]["stake"]) == (3, 20)
    await master_socket.send_json_to({"type": "options", "options": {"rounds": 9}})
    error = await master_socket.receive_json_from(timeout=WAIT)
    assert (error["code"], error["field"]) == ("invalid", "rounds")
    await watcher.send_json_to({"type": "options", "options": {"rounds": 2}})
    assert (await watcher.receive_json_from(timeout=WAIT))["code"] == "not_master"
    await master_socket.disconnect()
    await watcher.disconnect()


@pytest.mark.asyncio
async def test_chat_reaches_players_and_spectators_as_typed_and_is_limited():
    table, master = await sync_to_async(new_table)(variant="habanero")
    spectator = await sync_to_async(UserFactory)(language="fr")
    master_socket, _ = await table_socket(table.pk, master)
    watcher, _ = await table_socket(table.pk, spectator)
    text = "<script>alert(1)</script> & hi"
    await watcher.send_json_to({"type": "chat", "text": text})
    for socket in (master_socket, watcher):
        frame = await socket.receive_json_from(timeout=WAIT)
        assert frame["type"] == "chat" and frame["count"] == 0
        assert (frame["message"]["user"], frame["message"]["text"]) == (spectator.username, text)
    for n in range(4):
        await watcher.send_json_to({"type": "chat", "text": f"again {n}"})
        await watcher.receive_json_from(timeout=WAIT)
        await master_socket.receive_json_from(timeout=WAIT)
    await watcher.send_json_to({"type": "chat", "text": "one too many"})
    error = await watcher.receive_json_from(timeout=WAIT)
    assert error["code"] == "rate_limited"
    assert error["message"] == "Pas si vite\u00a0: 5 messages au plus en 10 secondes."
    # The history in a fresh state holds the messages too.
    again, first = await table_socket(table.pk, master)
    assert next(m["text"] for m in first["chat"]) == text and len(first["chat"]) == 5
    for socket in (master_socket, watcher, again):
        await socket.disconnect()


@pytest.mark.asyncio
async def test_the_lobby_hears_when_a_table_opens_fills_starts_and_closes():
    lobby = await open_socket("/ws/lobby/")
    first = await lobby.receive_json_from(timeout=WAIT)
    assert first == {"type": "tables", "tables": []}
    table, master = await sync_to_async(new_table)(variant="habanero", stake=10)
    opened = await lobby.receive_json_from(timeout=WAIT)
    assert opened["type"] == "table" and opened["table"]["id"] == table.pk
    assert opened["table"]["free_seats"] == 1 and opened["table"]["options"]["stake"] == 10
    guest = await sync_to_async(UserFactory)(chips=100)
    await sync_to_async(seating.table_sit)(table_id=table.pk, user=guest)
    filled = await lobby.receive_json_from(timeout=WAIT)
    assert filled["table"]["free_seats"] == 0
    await sync_to_async(play.game_start)(table_id=table.pk, user=master)
    started = await lobby.receive_json_from(timeout=WAIT)
    assert started["table"]["status"] == "playing" and started["table"]["game_id"]

    def close():
        moderator = ModeratorFactory()
        moderators_group_sync()
        moderator = type(moderator).objects.get(pk=moderator.pk)
        seating.table_close(table_id=table.pk, moderator=moderator)

    await sync_to_async(close)()
    assert await lobby.receive_json_from(timeout=WAIT) == {
        "type": "table_closed",
        "table_id": table.pk,
    }
    await lobby.send_json_to({"type": "sync"})
    assert await lobby.receive_json_from(timeout=WAIT) == {"type": "tables", "tables": []}
    await lobby.disconnect()
