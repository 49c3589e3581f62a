"""The channel layer the site runs on Redis: channels-redis's pub/sub layer, with one thing
more, `group_send_many`.

A change at a table pushes one message to each seat's group and one to the spectators'
(games/push.py). channels-redis sends each `group_send` as a PUBLISH of its own, one after
the other behind a lock it holds for each round trip to Redis, so a move waited for five
round trips in a row, and every other table of the process waited behind them.
`group_send_many` publishes a change's messages in one pipeline: one round trip, the same
PUBLISH commands, received by the other processes exactly as before.

It reaches into the layer's shard connection (`_lock`, `_ensure_redis`, `_redis`) as
channels-redis 4.3.0 has it (pinned in requirements.txt); tests/games/sockets/test_layer_faults.py
and the socket tests run it against the real Redis.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer


class PubSubChannelLayer(RedisPubSubChannelLayer):
    async def group_send_many(self, messages: list[tuple[str, dict[str, Any]]]) -> None:
        """`group_send` of each (group, message), in order, in one round trip per shard."""
        layer = self._get_layer()
        by_shard: dict[Any, list[tuple[str, bytes]]] = defaultdict(list)
        for group, message in messages:
            channel = layer._get_group_channel_name(group)
            by_shard[layer._get_shard(channel)].append((channel, self.serialize(message)))
        for shard, published in by_shard.items():
            async with shard._lock:
                shard._ensure_redis()
                async with shard._redis.pipeline(transaction=False) as pipe:
                    for channel, data in published:
                        pipe.publish(channel, data)
                    await pipe.execute()
