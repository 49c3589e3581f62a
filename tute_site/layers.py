"""The channel layer the site runs on Redis: channels-redis's pub/sub layer, which delivers a
push to the sockets of its own process directly and crosses Redis only for the members of a
group that live in another process.

nginx sends every socket of a table to one daphne process (`deploy/nginx/tute.conf`), the
process that applies the table's moves: its pushes used to go out to Redis and come straight
back, each one published, read back and decoded again before it reached a socket of the same
process. Now, as lila-ws keeps each room's members in memory:

- **Local members first.** A group's sockets in this process (the loop layer's `groups`) get
  the message in their queue at once, as the object it is: no encoding, no round trip.
- **Redis only where it must.** Each process keeps in Redis the set of groups it has members
  of (`<prefix>:members:<origin>`), and announces a group it joins or leaves on a control
  channel (`<prefix>:membership`). Every process keeps what the others announced (`remote`),
  and publishes a group's message to Redis only when another process has members of it: a
  change's messages for one process go in one message to that process's inbox
  (`<prefix>:to:<origin>`), and the change's publishes in one pipeline. A process that never
  joined a group (a Celery worker, a thread of its own loop) knows nothing of the others, and
  publishes everything to the groups' own channels.
- **No push lost in the gap.** Joining a group waits until every process subscribed to the
  control channel has answered the announcement (`ANSWER_SECONDS` at most), so a socket
  that reads the table's state after joining (games/sockets/table.py) gets every change
  committed after its read: the process that sends it already knows of the member.
- **Nothing twice.** What a loop layer published carries its origin, and it skips its own
  messages when Redis brings them back: its own members had them already.
- **When Redis fails.** Local members still get their pushes while Redis is away. When Redis
  comes back empty, games/server.py calls `recover`: the process publishes everything until
  it has announced its groups again and read the others' (`known`); its sockets then read
  the whole state again, as before.

When unsure, the layer publishes: a member wrongly thought remote costs a round trip, never a
lost push. A process that died stays in the others' `remote` until its groups end: the same.

It reaches into channels-redis's loop layer and shard connection (`groups`, `channels`,
`_lock`, `_ensure_redis`, `_redis`, `_receive_message`) as channels-redis 4.3.0 has them
(pinned in requirements.txt); tests/site/test_layers.py and the socket tests run it against
the real Redis, with two processes (tests/games/sockets/test_two_processes.py).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections import defaultdict
from typing import Any

import msgpack
from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close, decode_hosts

logger = logging.getLogger(__name__)

# Every published message begins with the 16 bytes of the loop layer that sent it.
ORIGIN_BYTES = 16
NO_ORIGIN = bytes(ORIGIN_BYTES)
# How long a join waits for the other processes to answer its announcement. Past it, the
# socket goes on (and says so in the log): a change in that window reaches it with the next
# frame's version gap, which makes the client read the whole state.
ANSWER_SECONDS = 2.0
# A process's set of groups outlives it by this much in Redis (refreshed by `keep_alive`).
MEMBERS_SECONDS = 60
# Control messages: a byte for the kind, the sender's origin, then what the kind carries.
JOINED, LEFT, ANSWER = b"+", b"-", b"a"
NONCE_BYTES = 32  # a hex uuid


class PubSubChannelLayer(RedisPubSubChannelLayer):
    """channels-redis's pub/sub layer, local members first (the module's docstring)."""

    def serialize(self, message: dict[str, Any]) -> bytes:
        # A loop layer's group messages carry its origin instead (`LocalFirstLoopLayer`).
        return NO_ORIGIN + super().serialize(message)

    def deserialize(self, message: bytes | dict[str, Any]) -> dict[str, Any]:
        if isinstance(message, dict):  # delivered in process, never encoded
            return message
        return super().deserialize(message[ORIGIN_BYTES:])

    def _get_layer(self) -> LocalFirstLoopLayer:
        loop = asyncio.get_running_loop()
        try:
            return self._layers[loop]
        except KeyError:
            layer = LocalFirstLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
            return layer

    async def group_send_many(self, messages: list[tuple[str, dict[str, Any]]]) -> None:
        """`group_send` of each (group, message), in order: to this process's members at once,
        and to Redis, in one round trip per shard, for those that other processes have."""
        await self._get_layer().send_many(messages)

    async def recover(self) -> None:
        """Redis lost its data: announce this process's groups again, read the others'."""
        await self._get_layer().recover()

    async def keep_alive(self) -> None:
        """Keep this process's set of groups in Redis from expiring."""
        await self._get_layer().keep_alive()


class LocalFirstShard(RedisSingleShardConnection):
    """A shard connection that hands control messages to its layer and skips the messages
    its own layer published (their members here have them already)."""

    def _receive_message(self, message: dict[str, Any] | None) -> None:
        if message is None:
            return
        layer = self.channel_layer
        name = message["channel"]
        if isinstance(name, bytes):
            name = name.decode()
        data = message["data"]
        if name == layer.inbox:
            layer.inbox_message(data)
        elif name == layer.control:
            layer.control_message(data)
        elif not (name in layer.groups and data[:ORIGIN_BYTES] == layer.origin):
            super()._receive_message(message)


class LocalFirstLoopLayer(RedisPubSubLoopLayer):
    """The layer of one event loop: its sockets' queues and groups (channels-redis's), and
    which groups the other processes have members of."""

    def __init__(self, hosts=None, prefix="asgi", **kwargs) -> None:
        super().__init__(hosts=hosts, prefix=prefix, **kwargs)
        self._shards = [LocalFirstShard(host, self) for host in decode_hosts(hosts)]
        self.origin = uuid.uuid4().bytes
        self.control = f"{prefix}:membership"
        self.inbox = self.inbox_of(self.origin)
        self.members_key = f"{prefix}:members:{self.origin.hex()}"
        # group channel -> the origins of the other processes with members of it
        self.remote: dict[str, set[bytes]] = defaultdict(set)
        # Whether `remote` is whole: the control channel heard, the others' sets read.
        self.known = False
        self._listening: asyncio.Task | None = None
        self._joining: dict[str, asyncio.Future] = {}
        # nonce -> [answers heard, answers awaited (None: not yet known), future]
        self._answers: dict[bytes, list[Any]] = {}
        self._background: set[asyncio.Task] = set()

    # --- Sending ------------------------------------------------------------------------

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await self.send_many([(group, message)])

    async def send_many(self, messages: list[tuple[str, dict[str, Any]]]) -> None:
        published: dict[Any, list[tuple[str, bytes]]] = defaultdict(list)
        serialize = self.channel_layer._serializer.serialize
        batches: dict[bytes, list[tuple[str, bytes]]] = defaultdict(list)
        for group, message in messages:
            group_channel = self._get_group_channel_name(group)
            for channel in self.groups.get(group_channel, ()):
                queue = self.channels.get(channel)
                if queue is not None:
                    queue.put_nowait(dict(message))
            if not self.known:
                data = self.origin + serialize(message)
                published[self._get_shard(group_channel)].append((group_channel, data))
            elif origins := self.remote.get(group_channel):
                data = self.origin + serialize(message)
                for origin in origins:
                    batches[origin].append((group_channel, data))
        for origin, batch in batches.items():
            # One message a process for the whole change, to that process's inbox.
            inbox = self.inbox_of(origin)
            published[self._get_shard(inbox)].append((inbox, msgpack.packb(batch)))
        for shard, pairs in published.items():
            async with shard._lock:
                shard._ensure_redis()
                async with shard._redis.pipeline(transaction=False) as pipe:
                    for group_channel, data in pairs:
                        pipe.publish(group_channel, data)
                    await pipe.execute()

    def inbox_of(self, origin: bytes) -> str:
        """The channel where process `origin` takes the pushes of its groups' members."""
        return f"{self.prefix}:to:{origin.hex()}"

    def inbox_message(self, data: bytes) -> None:
        """A change's messages from another process, each to this process's members of its
        group, in the order they were sent."""
        for group_channel, message in msgpack.unpackb(data):
            for channel in self.groups.get(group_channel, ()):
                queue = self.channels.get(channel)
                if queue is not None:
                    queue.put_nowait(message)

    # --- Joining and leaving ------------------------------------------------------------

    async def group_add(self, group: str, channel: str) -> None:
        group_channel = self._get_group_channel_name(group)
        first = group_channel not in self.groups
        await super().group_add(group, channel)
        if first:
            joining = asyncio.ensure_future(self._announce([group_channel]))
            self._joining[group_channel] = joining
            try:
                await joining
            finally:
                if self._joining.get(group_channel) is joining:
                    del self._joining[group_channel]
        elif group_channel in self._joining:
            # Another socket of this process is joining the group: wait for its answers.
            await asyncio.shield(self._joining[group_channel])

    async def group_discard(self, group: str, channel: str) -> None:
        group_channel = self._get_group_channel_name(group)
        last = self.groups.get(group_channel) == {channel}
        await super().group_discard(group, channel)
        if last and group_channel not in self.groups:
            await self._pipeline(
                lambda pipe: (
                    pipe.srem(self.members_key, group_channel),
                    pipe.publish(self.control, LEFT + self.origin + group_channel.encode()),
                )
            )

    async def _announce(self, group_channels: list[str]) -> None:
        """Note in Redis that this process has members of these groups, tell the others, and
        wait until each of them has answered (it then sends these groups' pushes here)."""
        await self._listen()
        nonce = uuid.uuid4().hex.encode()
        waiting = [0, None, asyncio.get_running_loop().create_future()]
        self._answers[nonce] = waiting
        payload = JOINED + self.origin + nonce + "\n".join(group_channels).encode()
        try:
            results = await self._pipeline(
                lambda pipe: (
                    pipe.sadd(self.members_key, *group_channels),
                    pipe.expire(self.members_key, MEMBERS_SECONDS),
                    pipe.publish(self.control, payload),
                )
            )
            waiting[1] = max(results[-1] - 1, 0)  # every listener but this one answers
            if waiting[0] < waiting[1]:
                try:
                    await asyncio.wait_for(asyncio.shield(waiting[2]), ANSWER_SECONDS)
                except TimeoutError:
                    logger.warning(
                        "%d of %d processes answered a join within %.0f s; going on",
                        waiting[0],
                        waiting[1],
                        ANSWER_SECONDS,
                    )
        finally:
            self._answers.pop(nonce, None)

    async def _listen(self) -> None:
        """Once per loop layer: hear the control channel, then read the others' groups."""
        if self._listening is None:
            self._listening = asyncio.ensure_future(self._read_others())
        try:
            await asyncio.shield(self._listening)
        except Exception:
            self._listening = None  # Redis failed: the next join tries again
            raise

    async def _read_others(self) -> None:
        await self._get_shard(self.inbox).subscribe(self.inbox)
        shard = self._get_shard(self.control)
        await shard.subscribe(self.control)
        # Announcements from here on are heard; those before are in the sets read now.
        async with shard._lock:
            shard._ensure_redis()
            client = shard._redis
            keys = [key async for key in client.scan_iter(match=f"{self.prefix}:members:*")]
            mine = self.members_key.encode()
            others = [key for key in keys if key != mine]
            if others:
                async with client.pipeline(transaction=False) as pipe:
                    for key in others:
                        pipe.smembers(key)
                    sets = await pipe.execute()
            else:
                sets = []
        for key, group_channels in zip(others, sets, strict=True):
            origin = bytes.fromhex(key.decode().rsplit(":", 1)[1])
            for group_channel in group_channels:
                self.remote[group_channel.decode()].add(origin)
        self.known = True

    async def _pipeline(self, commands) -> list[Any]:
        shard = self._get_shard(self.control)
        async with shard._lock:
            shard._ensure_redis()
            async with shard._redis.pipeline(transaction=False) as pipe:
                commands(pipe)
                return await pipe.execute()

    def control_message(self, data: bytes) -> None:
        """What another process announced, or an answer to this one's announcement."""
        kind, origin, rest = data[:1], data[1 : 1 + ORIGIN_BYTES], data[1 + ORIGIN_BYTES :]
        if origin == self.origin:
            return
        if kind == JOINED:
            nonce, names = rest[:NONCE_BYTES], rest[NONCE_BYTES:]
            for name in names.decode().split("\n"):
                self.remote[name].add(origin)
            # From now on this process sends those groups' pushes to Redis: say so.
            self._spawn(
                self._pipeline(
                    lambda pipe: pipe.publish(self.control, ANSWER + self.origin + nonce)
                )
            )
        elif kind == LEFT:
            name = rest.decode()
            members = self.remote.get(name)
            if members is not None:
                members.discard(origin)
                if not members:
                    del self.remote[name]
        elif kind == ANSWER:
            waiting = self._answers.get(rest)
            if waiting is not None:
                waiting[0] += 1
                whole = waiting[1] is not None and waiting[0] >= waiting[1]
                if whole and not waiting[2].done():
                    waiting[2].set_result(None)

    def _spawn(self, coroutine) -> None:
        task = asyncio.ensure_future(coroutine)
        self._background.add(task)
        task.add_done_callback(self._answered)

    def _answered(self, task: asyncio.Task) -> None:
        self._background.discard(task)
        if not task.cancelled() and task.exception() is not None:
            logger.warning("an answer to a join could not be sent: %r", task.exception())

    # --- Redis's failures ---------------------------------------------------------------

    async def recover(self) -> None:
        """Redis came back empty: publish everything until this process's groups are
        announced again and the others' read again."""
        self.known = False
        self._listening = None
        if self.groups:
            await self._announce(list(self.groups))
        elif self.remote or self._joining:
            await self._listen()

    async def keep_alive(self) -> None:
        if self.groups:
            await self._pipeline(lambda pipe: pipe.expire(self.members_key, MEMBERS_SECONDS))

    async def flush(self) -> None:
        for task in self._background:
            task.cancel()
        self.remote.clear()
        self.known = False
        self._listening = None
        self._joining.clear()
        self._answers.clear()
        await super().flush()
