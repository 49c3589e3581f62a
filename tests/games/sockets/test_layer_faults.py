"""Live play when the channel layer's Redis fails (found by the fault tool, bench/tools/faults/):
a move still stands when its pushes cannot be sent; a socket whose Redis went away is closed
cleanly (code 4503, and its player counted as gone) instead of crashing; and when Redis was
unreachable or comes back empty, every socket of the process joins its groups again and reads
the whole state. On both Redis channel layers (CHANNEL_LAYER)."""

import asyncio
import weakref

import pytest
from channels.db import database_sync_to_async as sync_to_async
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer
from channels_redis.pubsub import RedisPubSubLoopLayer
from redis.exceptions import ConnectionError as RedisConnectionError

from games import push, server
from games.models import TableSocket
from games.sockets.base import CLOSE_LAYER_LOST
from games.table import play, seating
from games.table.record import game_state
from tests.support.factories import UserFactory
from tests.support.live import WAIT, game_of, table_socket
from tute_site.settings import redis_channel_layer

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def running_habanero():
    users = [UserFactory(chips=1000), UserFactory(chips=1000)]
    table = seating.table_create(master=users[0], options={"variant": "habanero"})
    seating.table_sit(table_id=table.pk, user=users[1])
    play.game_start(table_id=table.pk, user=users[0])
    return table, users


def a_legal_move(table_id: int) -> tuple[int, dict]:
    state = game_state(game=game_of(table_id))
    seat = state.to_move
    return seat, state.legal_actions()[seat][0].to_dict()


class DownLayer:
    async def group_send(self, group, message):
        raise RedisConnectionError("Connection refused")


def test_a_move_stands_when_its_pushes_cannot_be_sent(monkeypatch, caplog):
    table, users = running_habanero()
    count = game_of(table.pk).action_count
    seat, action = a_legal_move(table.pk)
    monkeypatch.setattr(push, "get_channel_layer", DownLayer)
    play.game_act(table_id=table.pk, user=users[seat], action=action, count=count)
    assert game_of(table.pk).action_count == count + 1
    assert "pushes lost" in caplog.text


def test_other_errors_of_a_push_are_not_hidden(monkeypatch):
    class BrokenLayer:
        async def group_send(self, group, message):
            raise TypeError("not serialisable")

    monkeypatch.setattr(push, "get_channel_layer", BrokenLayer)
    with pytest.raises(TypeError):
        push.send([("lobby", {"type": "lobby.frame", "frame": {}})])


@pytest.fixture(params=["pubsub", "core"])
def layer_kind(request, settings):
    """Each Redis channel layer the site may run on (CHANNEL_LAYER)."""
    settings.CHANNEL_LAYERS = {"default": redis_channel_layer(request.param)}
    return request.param


@pytest.mark.asyncio
async def test_a_socket_whose_redis_went_away_closes_cleanly_and_its_player_counts_as_gone(
    monkeypatch, layer_kind
):
    monkeypatch.setattr(server, "SOCKETS", weakref.WeakSet())  # this test's sockets only
    table, users = await sync_to_async(running_habanero)()
    socket, first = await table_socket(table.pk, users[1])
    assert first["you"]["seat"] == 1
    assert await sync_to_async(TableSocket.objects.filter(user=users[1]).count)() == 1

    async def down(self, channel):
        raise RedisConnectionError("Connection closed by server.")

    # The socket's next read from the layer fails (a push wakes its receive loop up first).
    if layer_kind == "core":
        monkeypatch.setattr(RedisChannelLayer, "receive_single", down)
    else:
        monkeypatch.setattr(RedisPubSubLoopLayer, "receive", down)
    seat, action = await sync_to_async(a_legal_move)(table.pk)
    await sync_to_async(play.game_act)(
        table_id=table.pk, user=users[seat], action=action, count=first["count"]
    )
    closed = await socket.receive_output(timeout=WAIT)
    while closed["type"] != "websocket.close":
        closed = await socket.receive_output(timeout=WAIT)
    assert closed["code"] == CLOSE_LAYER_LOST
    # Written down in the background: the player has no socket left.
    for _ in range(50):
        if not await sync_to_async(TableSocket.objects.filter(user=users[1]).exists)():
            break
        await asyncio.sleep(0.1)
    assert not await sync_to_async(TableSocket.objects.filter(user=users[1]).exists)()
    assert not server.SOCKETS
    await socket.wait(timeout=WAIT)  # the consumer has returned


async def _a_move_reaches(socket, table_id: int, users, count: int) -> None:
    seat, action = await sync_to_async(a_legal_move)(table_id)
    await sync_to_async(play.game_act)(
        table_id=table_id, user=users[seat], action=action, count=count
    )
    pushed = await socket.receive_json_from(timeout=WAIT)
    assert pushed["count"] == count + 1 and pushed["event"]["kind"] == "act"


@pytest.mark.asyncio
async def test_when_redis_comes_back_empty_every_socket_joins_its_groups_again(
    monkeypatch, settings
):
    settings.CHANNEL_LAYERS = {"default": redis_channel_layer("core")}  # its groups are in Redis
    monkeypatch.setattr(server, "SOCKETS", weakref.WeakSet())  # this test's sockets only
    table, users = await sync_to_async(running_habanero)()
    socket, _first = await table_socket(table.pk, users[0])
    monkeypatch.setattr(server, "_layer_marked", False)
    assert await server.layer_lost_data() is False  # the first look leaves the mark
    assert await server.layer_lost_data() is False
    # Redis loses everything of ours (as a restart with no disk does): groups, the mark.
    layer = get_channel_layer()
    connection = layer.connection(0)
    keys = [key async for key in connection.scan_iter(match=f"{layer.prefix}*")]
    assert keys
    await connection.delete(*keys)
    assert await server.layer_lost_data() is True
    assert await server.rejoin_all() == 1
    frame = await socket.receive_json_from(timeout=WAIT)
    assert frame["type"] == "state" and frame["event"] is None
    # Joined again: the next move's push reaches the socket.
    await _a_move_reaches(socket, table.pk, users, frame["count"])
    await socket.disconnect()


@pytest.mark.asyncio
async def test_when_redis_was_unreachable_every_socket_reads_the_state_again(
    monkeypatch, layer_kind
):
    """Pushes sent while Redis was away went nowhere: once it answers again, every socket
    gets the whole state (the pub/sub layer kept its groups, the list layer's are joined
    again)."""
    monkeypatch.setattr(server, "SOCKETS", weakref.WeakSet())  # this test's sockets only
    table, users = await sync_to_async(running_habanero)()
    socket, _first = await table_socket(table.pk, users[0])
    monkeypatch.setattr(server, "_layer_marked", False)
    monkeypatch.setattr(server, "_layer_unreachable", False)
    assert await server.layer_lost_data() is False
    real = server._layer_redis

    class Away:
        async def set(self, *args, **kwargs):
            raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379.")

    monkeypatch.setattr(server, "_layer_redis", Away)
    assert await server.layer_lost_data() is False  # nothing to do while it is away
    monkeypatch.setattr(server, "_layer_redis", real)
    assert await server.layer_lost_data() is True
    assert await server.layer_lost_data() is False  # once
    assert await server.rejoin_all() == 1
    frame = await socket.receive_json_from(timeout=WAIT)
    assert frame["type"] == "state" and frame["event"] is None
    await _a_move_reaches(socket, table.pk, users, frame["count"])
    await socket.disconnect()
