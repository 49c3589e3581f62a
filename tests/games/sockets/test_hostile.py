"""A hostile client (issue #15): every attack gets a clear error frame or a closed socket, the
stored game record is unchanged, and afterwards the server still serves an honest player, whose
move goes through and reaches every seat. The floods and the foreign Origin go over real
sockets to a real daphne; the rest through the whole ASGI application in process."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from channels.db import database_sync_to_async as sync_to_async
from websockets.exceptions import InvalidStatus

from bench.support.client import TableClient, connect
from games.table import play, seating
from tests.support.factories import UserFactory
from tests.support.live import WAIT, check_frame, record_of, session_cookie, table_socket
from tests.support.play import close, refused, setup

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


async def honest_move_still_plays(table_id: int, sockets: list, views: list[dict]) -> None:
    """The seat on turn plays its first legal action: the record gets exactly that action and
    every seat receives the new state, its own view of it."""
    before = await record_of(table_id)
    count = sum(len(d["actions"]) for d in before["deals"])
    turn = views[0]["turn"]
    action = views[turn]["legal_actions"][0]
    await sockets[turn].send_json_to({"type": "act", "action": action, "count": count})
    frames = [await socket.receive_json_from(timeout=WAIT) for socket in sockets]
    record = await record_of(table_id)
    assert record["deals"][-1]["actions"][-1] == action
    assert sum(len(d["actions"]) for d in record["deals"]) == count + 1
    for seat, frame in enumerate(frames):
        assert frame["event"]["action"] == action
        check_frame(frame, record, seat)


@pytest.mark.asyncio
async def test_garbage_then_an_honest_player_still_plays():
    table_id, _users, sockets, views, turn = await setup()
    before = await record_of(table_id)
    socket = sockets[turn]
    await refused(socket, "{not json", "malformed")
    await refused(socket, " ", "malformed")
    await refused(socket, "null", "malformed")
    await refused(socket, '"act"', "malformed")
    await refused(socket, "[" * 5000, "too_large")
    await refused(socket, "[" * 2000 + "]" * 2000, "malformed")
    await refused(socket, json.dumps({"type": "act", "action": "x" * 4100}), "too_large")
    await socket.send_to(bytes_data=b"\xff\xfe\x00")
    frame = await socket.receive_json_from(timeout=WAIT)
    assert (frame["type"], frame["code"]) == ("error", "malformed")
    for kind in ("teleport", "ACT", 7, None, ["act"], {"act": 1}, "__init__", "calls"):
        await refused(socket, {"type": kind}, "malformed")
    await refused(socket, {"type": "act", "action": [1, 2]}, "malformed")
    await refused(socket, {"type": "act", "action": {"seat": turn, "play": ["1O"]}}, "malformed")
    await refused(socket, {"type": "act", "action": {"seat": 9, "play": "1O"}}, "malformed")
    await refused(
        socket,
        {"type": "act", "action": views[turn]["legal_actions"][0], "count": True},
        "malformed",
    )
    await refused(socket, {"type": "sit", "seat": "0"}, "malformed")
    await refused(socket, {"type": "chat", "text": {"html": "<b>"}}, "malformed")
    assert await record_of(table_id) == before
    await honest_move_still_plays(table_id, sockets, views)
    await close(*sockets)


@pytest.mark.asyncio
async def test_another_tables_actions_and_another_seats_actions_change_nothing():
    table_id, _users, sockets, views, turn = await setup()
    other_id, _other_users, other_sockets, _other_views, _ = await setup()
    before, other_before = await record_of(table_id), await record_of(other_id)
    other = 1 - turn
    action = views[turn]["legal_actions"][0]
    # This table's move, addressed to the other table over this socket.
    for table in (other_id, str(table_id), None, 0):
        await refused(
            sockets[turn], {"type": "act", "table_id": table, "action": action}, "wrong_table"
        )
    # The seat on turn's move sent by the other player, with the count right.
    await refused(sockets[other], {"type": "act", "action": action, "count": 0}, "not_your_seat")
    # A seat that is not there at all.
    await refused(sockets[other], {"type": "act", "action": {**action, "seat": 2}}, "malformed")
    assert (await record_of(table_id), await record_of(other_id)) == (before, other_before)
    await honest_move_still_plays(table_id, sockets, views)
    await close(*sockets, *other_sockets)


@pytest.mark.asyncio
async def test_an_action_replayed_is_refused_and_applied_once():
    table_id, _users, sockets, views, turn = await setup()
    action = views[turn]["legal_actions"][0]
    await sockets[turn].send_json_to({"type": "act", "action": action, "count": 0})
    for socket in sockets:
        assert (await socket.receive_json_from(timeout=WAIT))["count"] == 1
    after_one = await record_of(table_id)
    # The same message again: its count is now old.
    await refused(sockets[turn], {"type": "act", "action": action, "count": 0}, "stale")
    fresh = await sockets[turn].receive_json_from(timeout=WAIT)
    assert (fresh["type"], fresh["count"]) == ("state", 1)
    # The same action without a count: the card is no longer in that hand, or it is not
    # that seat's turn any more.
    await refused(sockets[turn], {"type": "act", "action": action}, "illegal")
    # An old count from the future, and a negative one.
    for count in (7, -1):
        await refused(sockets[turn], {"type": "act", "action": action, "count": count}, "stale")
        # A stale refusal is always followed by the fresh state.
        assert (await sockets[turn].receive_json_from(timeout=WAIT))["type"] == "state"
    record = await record_of(table_id)
    assert record == after_one
    assert sum(len(d["actions"]) for d in record["deals"]) == 1
    views = [fresh["game"]["view"] if n == turn else None for n in range(2)]
    await sockets[1 - turn].send_json_to({"type": "sync"})
    views[1 - turn] = (await sockets[1 - turn].receive_json_from(timeout=WAIT))["game"]["view"]
    await honest_move_still_plays(table_id, sockets, views)
    await close(*sockets)


@pytest.mark.asyncio
async def test_spectators_and_anonymous_sockets_cannot_act_chat_or_sit():
    table_id, _users, sockets, views, turn = await setup()
    before = await record_of(table_id)
    action = views[turn]["legal_actions"][0]
    anonymous, _ = await table_socket(table_id)
    for message in (
        {"type": "act", "action": action},
        {"type": "act", "action": action, "count": 0},
        {"type": "chat", "text": "hi"},
        {"type": "sit"},
        {"type": "sit", "seat": 0},
        {"type": "stand"},
        {"type": "start"},
        {"type": "next_deal"},
        {"type": "options", "options": {"stake": 0}},
        {"type": "invite", "username": "x"},
    ):
        await refused(anonymous, message, "login_required")
    spectator, first = await table_socket(table_id, await sync_to_async(UserFactory)())
    assert first["you"]["seat"] is None
    await refused(spectator, {"type": "act", "action": action, "count": 0}, "not_seated")
    await refused(spectator, {"type": "act", "action": {**action, "seat": 1 - turn}}, "not_seated")
    await refused(spectator, {"type": "next_deal"}, "not_seated")
    await refused(spectator, {"type": "sit"}, "invalid")  # the table is full
    await refused(spectator, {"type": "start"}, "not_master")
    assert await record_of(table_id) == before
    await honest_move_still_plays(table_id, sockets, views)
    # The spectator saw the honest move, with no hand; the anonymous socket too.
    for watcher in (spectator, anonymous):
        frame = await watcher.receive_json_from(timeout=WAIT)
        check_frame(frame, await record_of(table_id), None)
    await close(spectator, anonymous, *sockets)


def habanero_sessions() -> tuple[int, list[str]]:
    users = [UserFactory(chips=1000), UserFactory(chips=1000)]
    table = seating.table_create(master=users[0], options={"variant": "habanero"})
    seating.table_sit(table_id=table.pk, user=users[1])
    play.game_start(table_id=table.pk, user=users[0])
    return table.pk, [session_cookie(u) for u in users]


def _address_of(frame: dict, seat: int) -> bool:
    event = frame.get("event") or {}
    return event.get("kind") == "address" and event.get("seat") == seat


async def collect(client: TableClient, done, quiet: float = 0.5) -> list[dict]:
    """Every frame `client` receives until `done(frames)`, however late they come (up to
    WAIT), then every frame until it has been quiet for `quiet` seconds: one frame too many
    still shows, but a slow server no longer looks like one that sent too few."""
    frames: list[dict] = []
    try:
        async with asyncio.timeout(WAIT):
            while not done(frames):
                frames.append(await client.receive())
    except TimeoutError:
        raise AssertionError(f"only {len(frames)} frames came: {frames[-3:]}") from None
    while True:
        try:
            frames.append(await client.receive(timeout=quiet))
        except TimeoutError:
            return frames


@pytest.mark.asyncio
async def test_a_hundred_moves_a_second_from_one_client(daphne_server):
    table_id, sessions = await sync_to_async(habanero_sessions)()
    players = [await TableClient.open(daphne_server, table_id, s) for s in sessions]
    # The second player's socket noted their address (both come from here): the table says
    # so to the first before anything is played.
    await collect(players[0], lambda fs: any(_address_of(f, 1) for f in fs))
    await collect(players[1], lambda fs: True)
    turn = players[0].view["turn"]
    flooder, other = players[turn], players[1 - turn]
    legal = flooder.view["legal_actions"]
    # 100 moves in one second: the same legal action with the right count, then every other
    # legal action of that hand, with and without counts, as fast as a script can.
    started = time.monotonic()
    for n in range(100):
        action = legal[n % len(legal)]
        message = {"type": "act", "action": action}
        if n % 2 == 0:
            message["count"] = 0
        await flooder.send(message)
        await asyncio.sleep(max(0.0, started + (n + 1) / 100 - time.monotonic()))
    frames = await collect(
        flooder,
        lambda fs: (
            sum(f["type"] == "error" for f in fs) >= 99
            and any(f["type"] in ("state", "update") for f in fs)
        ),
    )
    record = await record_of(table_id)
    actions = record["deals"][-1]["actions"]
    assert len(actions) == 1, actions  # exactly one move applied, the first
    assert actions[0] == legal[0]
    errors = [f for f in frames if f["type"] == "error"]
    states = [f for f in frames if f["type"] in ("state", "update")]
    assert len(errors) == 99
    assert {f["code"] for f in errors} <= {"stale", "illegal"}
    # Every state is the position after the one move; the counts never go back.
    for frame in states:
        check_frame(frame, record, turn)
    assert [f["count"] for f in frames] == sorted(f["count"] for f in frames)
    # The other seat received exactly one push, and the honest game goes on.
    pushed = await collect(other, lambda fs: len(fs) >= 1)
    assert [f["count"] for f in pushed] == [1]
    check_frame(pushed[0], record, 1 - turn)
    player = other if other.view["legal_actions"] else flooder
    await player.act(player.view["legal_actions"][0])
    frame = await player.receive_state()
    assert frame["count"] == 2
    check_frame(frame, await record_of(table_id), frame["you"]["seat"])
    for p in players:
        await p.close()


@pytest.mark.asyncio
async def test_garbage_flood_over_a_real_socket_leaves_the_server_serving(daphne_server):
    table_id, sessions = await sync_to_async(habanero_sessions)()
    before = await record_of(table_id)
    attacker = await TableClient.open(daphne_server, table_id, sessions[0])
    for n in range(100):
        await attacker.send_raw(["{", "x" * 5000, b"\x00\xff", '{"type": 1}'][n % 4])
    frames = await collect(attacker, lambda fs: len(fs) >= 100)
    assert len(frames) == 100
    assert {f["code"] for f in frames} == {"malformed", "too_large"}
    await attacker.close()
    assert await record_of(table_id) == before
    # A fresh socket is still served the whole state.
    honest = await TableClient.open(daphne_server, table_id, sessions[1])
    assert honest.state["count"] == 0 and honest.view["hand"]
    await honest.close()


@pytest.mark.asyncio
async def test_a_socket_from_a_foreign_origin_is_refused_at_the_handshake(daphne_server):
    table_id, sessions = await sync_to_async(habanero_sessions)()
    for origin in ("http://evil.example", "http://127.0.0.1.evil.example", "null"):
        for path in (f"/ws/tables/{table_id}/", "/ws/lobby/"):
            with pytest.raises(InvalidStatus) as refusal:
                await connect(daphne_server, path, session=sessions[0], origin=origin)
            assert refusal.value.response.status_code == 403
    # The site's own origin is let in.
    client = await TableClient.open(daphne_server, table_id, sessions[0])
    assert client.state["you"]["seat"] == 0
    await client.close()
