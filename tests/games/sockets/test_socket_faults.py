"""A failing service never kills a socket, and every push is a numbered version of the table,
so a client that missed one can tell (docs/protocol.md, "Resynchronising")."""

import sqlite3

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.db import OperationalError

from games import push
from games.table import play, seating
from tests.support.factories import UserFactory
from tests.support.live import WAIT, record_of, table_socket
from tests.support.play import current, move, next_push

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def two_player_table(**options):
    master, guest = UserFactory(chips=1000), UserFactory(chips=1000)
    table = seating.table_create(master=master, options={"variant": "habanero", **options})
    return table, master, guest


async def started_game():
    table, master, guest = await sync_to_async(two_player_table)()
    master_socket, _ = await table_socket(table.pk, master)
    guest_socket, _ = await table_socket(table.pk, guest)
    await guest_socket.send_json_to({"type": "sit", "seat": 1})
    for socket in (master_socket, guest_socket):
        await socket.receive_json_from(timeout=WAIT)
    await master_socket.send_json_to({"type": "start"})
    frames = [await s.receive_json_from(timeout=WAIT) for s in (master_socket, guest_socket)]
    return table, (master_socket, guest_socket), frames


@pytest.mark.asyncio
async def test_a_service_that_fails_answers_busy_keeps_the_socket_open_and_changes_nothing(
    monkeypatch,
):
    table, sockets, frames = await started_game()
    turn = frames[0]["game"]["view"]["turn"]
    mover, frame = sockets[turn], frames[turn]
    before = await record_of(table.pk)

    def broken(*args, **kwargs):
        raise RuntimeError("a bug in the middle of a move")

    monkeypatch.setattr(play, "apply", broken)
    action = frame["game"]["view"]["legal_actions"][0]
    await mover.send_json_to({"type": "act", "action": action, "count": frame["count"]})
    error = await mover.receive_json_from(timeout=WAIT)
    assert error["type"] == "error" and error["code"] == "busy" and error["request"] == "act"
    assert "try again" in error["message"]
    assert error["version"] == frame["version"] and error["count"] == frame["count"]
    assert await record_of(table.pk) == before
    assert await sockets[1 - turn].receive_nothing(timeout=0.3)
    # The socket is still open and the same move goes through once the fault is gone.
    monkeypatch.undo()
    await mover.send_json_to({"type": "act", "action": action, "count": frame["count"]})
    for socket in sockets:
        pushed = await socket.receive_json_from(timeout=WAIT)
        assert pushed["event"]["action"] == action and pushed["count"] == frame["count"] + 1
        assert pushed["version"] == frame["version"] + 1
    for socket in sockets:
        await socket.disconnect()


def database_error(kind: str) -> OperationalError:
    """The error Django raises for each fault, with the driver's own as its cause."""
    import psycopg.errors

    cause = {
        "sqlite_locked": sqlite3.OperationalError("database is locked"),
        "serialization": psycopg.errors.SerializationFailure("could not serialize access"),
        "deadlock": psycopg.errors.DeadlockDetected("deadlock detected"),
        "dropped": psycopg.OperationalError("server closed the connection unexpectedly"),
    }[kind]
    error = OperationalError(str(cause))
    error.__cause__ = cause
    return error


@pytest.mark.parametrize(
    "fault, retried",
    [("sqlite_locked", True), ("serialization", True), ("deadlock", True), ("dropped", False)],
)
@pytest.mark.asyncio
async def test_a_database_fault_is_tried_again_or_refused_never_half_done(
    monkeypatch, fault, retried
):
    table, sockets, frames = await started_game()
    turn = frames[0]["game"]["view"]["turn"]
    mover, frame = sockets[turn], frames[turn]
    real_apply = play.apply
    failures = []

    def failing_once(*args, **kwargs):
        if not failures:
            failures.append(fault)
            raise database_error(fault)
        return real_apply(*args, **kwargs)

    monkeypatch.setattr(play, "apply", failing_once)
    action = frame["game"]["view"]["legal_actions"][0]
    await mover.send_json_to({"type": "act", "action": action, "count": frame["count"]})
    answer = await mover.receive_json_from(timeout=WAIT)
    record = await record_of(table.pk)
    applied = sum(len(deal["actions"]) for deal in record["deals"])
    if retried:
        # Rolled back, run again: applied once, pushed once.
        assert answer["type"] == "update" and answer["event"]["action"] == action
        assert applied == 1
    else:
        # It may have dropped during the commit: refused, and the player sends it again.
        assert answer["type"] == "error" and answer["code"] == "busy" and applied == 0
        await mover.send_json_to({"type": "act", "action": action, "count": frame["count"]})
        assert (await mover.receive_json_from(timeout=WAIT))["event"]["action"] == action
    for socket in sockets:
        await socket.disconnect()


@pytest.mark.parametrize("dropped", ["sit", "start", "deal"])
@pytest.mark.asyncio
async def test_a_lost_push_shows_as_a_gap_in_the_next_frames_version(monkeypatch, dropped):
    table, master, guest = await sync_to_async(two_player_table)(points_to_win=2, allow_tute=False)
    master_socket, first = await table_socket(table.pk, master)
    guest_socket, _ = await table_socket(table.pk, guest)
    sockets = (master_socket, guest_socket)
    real_send = push.send

    def losing(messages):
        # The channel layer loses every message of the push whose event is `dropped`.
        if any((m.get("event") or {}).get("kind") == dropped for _, m in messages):
            return None
        return real_send(messages)

    monkeypatch.setattr(push, "send", losing)
    seen = first["version"]
    await guest_socket.send_json_to({"type": "sit", "seat": 1})
    if dropped != "sit":
        seen = (await next_push(master_socket))["version"]
    # The guest's socket joins its seat's group when it learns it sat: from the sit's push,
    # or (that push lost) from its next answer, a socket's messages being answered in order.
    # The start comes after that, or its push could reach the seat's group before the guest.
    await current(guest_socket)
    await master_socket.send_json_to({"type": "start"})
    if dropped == "deal":
        seen = (await next_push(master_socket))["version"]
        await next_push(guest_socket)
        while not (await current(master_socket))["game"]["view"]["needs_deal"]:
            seen = (await move(sockets))[0]["version"]
        await master_socket.send_json_to({"type": "next_deal"})
    if dropped == "sit":
        frame = await next_push(master_socket)
    else:
        # The players read the state afresh (as a client does on a gap) and play on.
        frame = (await move(sockets))[0]
    assert frame["event"]["kind"] == ("start" if dropped == "sit" else "act")
    # One push went missing: the next one is two versions on, and the client can tell.
    assert frame["version"] == seen + 2
    for socket in sockets:
        await socket.disconnect()
