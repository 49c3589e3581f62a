"""The arena's socket through Channels' communicator on the real Redis layer: the whole frame
on connect (as docs/protocol.md documents it), join and pause, refusals, and a push to every
socket of the arena after a change."""

import json
import re

import pytest
from channels.db import database_sync_to_async as sync_to_async

from games.arenas import services
from games.arenas.models import ArenaPlayer
from games.table.refusals import TableError
from tests.support.arenas import finished_arena, habanero_arena
from tests.support.factories import UserFactory
from tests.support.live import WAIT, open_socket
from tests.support.protocol import DOC, differences

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def documented_arena_frame() -> dict:
    section = DOC.read_text().split("## Arena socket", 1)[1]
    return json.loads(re.search(r"```json\n(.*?)```", section, flags=re.DOTALL).group(1))


@pytest.mark.asyncio
async def test_join_and_pause_over_the_arena_socket_reach_every_watcher():
    alice, bob = await sync_to_async(
        lambda: (UserFactory(username="alice", chips=100), UserFactory())
    )()
    arena = await sync_to_async(habanero_arena)(entry=10)
    path = f"/ws/arenas/{arena.pk}/"
    watcher = await open_socket(path)
    first = await watcher.receive_json_from(timeout=WAIT)
    assert first["type"] == "arena" and first["standings"] == [] and first["you"]["user"] is None
    player = await open_socket(path, alice)
    assert (await player.receive_json_from(timeout=WAIT))["you"] == {"user": "alice"}

    await watcher.send_json_to({"type": "join"})
    refusal = await watcher.receive_json_from(timeout=WAIT)
    assert (refusal["type"], refusal["code"], refusal["request"]) == (
        "error",
        "login_required",
        "join",
    )
    await player.send_json_to({"type": "join"})
    for socket in (watcher, player):
        frame = await socket.receive_json_from(timeout=WAIT)
        assert [s["user"] for s in frame["standings"]] == ["alice"]
        assert frame["arena"]["pot"] == 10 and frame["podium"] is None
    real = {**frame, "you": first["you"]}
    assert differences(documented_arena_frame(), real) == []

    await player.send_json_to({"type": "pause"})
    assert (await watcher.receive_json_from(timeout=WAIT))["standings"][0]["paused"] is True
    await player.send_json_to({"type": "hello"})
    while (frame := await player.receive_json_from(timeout=WAIT))["type"] != "error":
        pass  # the pause's push comes first
    assert frame["code"] == "malformed"
    assert await sync_to_async(lambda: ArenaPlayer.objects.get(user=alice).paused)()
    with pytest.raises(TableError):
        await sync_to_async(services.arena_pause)(arena_id=arena.pk, user=bob)
    for socket in (watcher, player):
        await socket.disconnect()


@pytest.mark.asyncio
async def test_an_unknown_arena_closes_its_socket():
    socket = await open_socket("/ws/arenas/999999/")
    assert (await socket.receive_json_from(timeout=WAIT))["code"] == "unknown_arena"
    assert (await socket.receive_output(timeout=WAIT))["code"] == 4404


@pytest.mark.asyncio
async def test_the_podium_reaches_each_player_on_their_own_socket():
    users = await sync_to_async(
        lambda: [UserFactory(username=name, chips=100) for name in ("ana", "beto", "cruz", "dani")]
    )()
    sockets = [await open_socket("/ws/me/", user) for user in users]
    for socket in sockets:
        assert (await socket.receive_json_from(timeout=WAIT))["type"] == "invitations"
    arena = await sync_to_async(finished_arena)(users)
    ranks = await sync_to_async(
        lambda: dict(ArenaPlayer.objects.filter(arena=arena).values_list("user__username", "rank"))
    )()
    podium = sorted(ranks, key=ranks.get)[:3]
    for user, socket in zip(users, sockets, strict=True):
        frame = await socket.receive_json_from(timeout=WAIT)
        assert frame["type"] == "arena_over"
        url = f"/arenas/{arena.pk}/"
        assert frame["arena"] == {"id": arena.pk, "name": "Test arena", "url": url}
        assert (frame["rank"], frame["players"]) == (ranks[user.username], 4)
        assert [(p["rank"], p["user"]) for p in frame["podium"]] == list(enumerate(podium, 1))
        # The pot of 40, less the bank's 25%, to the podium.
        assert [p["prize"] for p in frame["podium"]] == [15, 9, 6]
        await socket.disconnect()
