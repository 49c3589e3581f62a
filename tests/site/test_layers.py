"""The site's channel layer (tute_site/layers.py) on the real Redis: a push reaches the members
of its own process without Redis, the members of other processes through it, each once, and
none is lost when a process joins, leaves or Redis loses its data.

Each `PubSubChannelLayer` here stands for a daphne process: its own loop layer, origin and
groups, on one Redis and one prefix of the test's own."""

import asyncio
import uuid

import pytest
import pytest_asyncio
import redis.asyncio as aioredis
from django.conf import settings
from redis.exceptions import ConnectionError as RedisConnectionError

from tute_site import layers
from tute_site.layers import PubSubChannelLayer

pytestmark = [pytest.mark.services, pytest.mark.asyncio]

GROUP = "table-1-seat-0"
# Long enough for a message published to Redis to come back; a wait, not a measure.
QUIET_SECONDS = 0.3


@pytest.fixture
def prefix():
    return f"{settings.CHANNEL_LAYERS['default']['CONFIG']['prefix']}-{uuid.uuid4().hex[:8]}"


@pytest_asyncio.fixture
async def processes(prefix):
    made = []

    def process() -> PubSubChannelLayer:
        layer = PubSubChannelLayer(hosts=[{"address": settings.REDIS_URL}], prefix=prefix)
        made.append(layer)
        return layer

    yield process
    for layer in made:
        await layer.flush()
    client = aioredis.Redis.from_url(settings.REDIS_URL)
    keys = [key async for key in client.scan_iter(match=f"{prefix}:*")]
    if keys:
        await client.delete(*keys)
    await client.aclose()


@pytest_asyncio.fixture
async def published(prefix):
    """What reaches Redis on GROUP's channel, as another subscriber sees it."""
    client = aioredis.Redis.from_url(settings.REDIS_URL)
    pubsub = client.pubsub()
    await pubsub.subscribe(f"{prefix}__group__{GROUP}")

    yield lambda: count_messages(pubsub)
    await pubsub.aclose()
    await client.aclose()


async def count_messages(pubsub) -> int:
    """The messages a subscriber gets until it has been quiet for a while."""
    count = 0
    deadline = asyncio.get_running_loop().time() + QUIET_SECONDS
    while (left := deadline - asyncio.get_running_loop().time()) > 0:
        message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=left)
        count += message is not None
    return count


async def member(layer: PubSubChannelLayer, group: str = GROUP) -> str:
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    return channel


async def received(layer: PubSubChannelLayer, channel: str) -> list[int]:
    """Every message the channel gets until it has been quiet for a while."""
    got = []
    while True:
        try:
            message = await asyncio.wait_for(layer.receive(channel), QUIET_SECONDS)
        except TimeoutError:
            return got
        got.append(message["n"])


def frames(*numbers: int) -> list[tuple[str, dict]]:
    return [(GROUP, {"type": "table.frame", "n": n}) for n in numbers]


async def test_a_push_to_members_of_its_own_process_never_goes_through_redis(processes, published):
    here = processes()
    seat = await member(here)
    await here.group_send_many(frames(1, 2))
    assert await received(here, seat) == [1, 2]
    assert await published() == 0


async def test_members_in_another_process_get_each_push_once_and_in_order(processes, published):
    here, there = processes(), processes()
    near, also_near = await member(here), await member(here)
    far = await member(there)
    await here.group_send_many(frames(1, 2, 3))
    assert await received(there, far) == [1, 2, 3]
    # Redis brings them back to `here` too: its own members do not get them twice.
    assert await received(here, near) == [1, 2, 3]
    assert await received(here, also_near) == [1, 2, 3]
    assert await published() == 0  # to `there`'s inbox, not to the group's channel


async def test_a_push_sent_as_soon_as_another_process_joined_reaches_it(processes):
    """A socket reads the table's state once its join returns: every push sent after that
    must reach it, though the sender heard of the join only through Redis."""
    here, there = processes(), processes()
    await member(here)  # `here` hears the others' joins from now on
    for n in range(20):
        far = await member(there)
        await here.group_send_many(frames(n))
        assert await asyncio.wait_for(there.receive(far), 5) == {"type": "table.frame", "n": n}
        await there.group_discard(GROUP, far)


async def test_once_the_other_process_left_pushes_stay_in_process(processes, published):
    here, there = processes(), processes()
    near, far = await member(here), await member(there)
    await there.group_discard(GROUP, far)
    for _attempt in range(20):  # `here` hears of it through Redis, soon after
        await here.group_send_many(frames(1))
        if await published() == 0:
            break
    else:
        raise AssertionError("the pushes still went through Redis after the last member left")
    assert set(await received(here, near)) == {1}


async def test_a_process_that_joined_nothing_publishes_to_everyone(processes):
    """A Celery worker, or a thread with a loop of its own, knows nothing of the others."""
    here, there, worker = processes(), processes(), processes()
    near, far = await member(here), await member(there)
    await worker.group_send_many(frames(5))
    assert await received(here, near) == [5]
    assert await received(there, far) == [5]


async def test_members_of_its_own_process_get_their_pushes_while_redis_is_away(processes):
    here, there = processes(), processes()
    near = await member(here)
    await member(there)
    shard = here._get_layer()._get_shard(f"{here._get_layer().prefix}__group__{GROUP}")
    working, shard._redis = shard._redis, aioredis.Redis(host="127.0.0.1", port=1)  # no one
    with pytest.raises(RedisConnectionError):
        await here.group_send_many(frames(9))
    shard._redis = working
    assert await asyncio.wait_for(here.receive(near), 5) == {"type": "table.frame", "n": 9}


async def test_after_redis_lost_its_data_a_new_process_learns_the_groups_again(
    processes, prefix, monkeypatch
):
    there = processes()
    far = await member(there)
    client = aioredis.Redis.from_url(settings.REDIS_URL)
    await client.delete(there._get_layer().members_key)  # as a restart leaves it
    await client.aclose()
    await there.recover()
    newcomer = processes()
    await member(newcomer, group="lobby")  # it reads the others' groups as it joins one
    await newcomer.group_send_many(frames(4))
    assert await received(there, far) == [4]


async def test_a_join_goes_on_when_a_process_does_not_answer(processes, monkeypatch, caplog):
    monkeypatch.setattr(layers, "ANSWER_SECONDS", 0.2)
    here, there = processes(), processes()
    await member(here)
    monkeypatch.setattr(here._get_layer(), "control_message", lambda data: None)  # deaf
    await member(there)
    assert "0 of 1 processes answered a join" in caplog.text


async def test_a_changes_pushes_for_another_process_go_in_one_message(processes, published):
    here, there = processes(), processes()
    await member(here)
    seat, watcher = await member(there), await member(there, group="table-1-watch")
    inbox = aioredis.Redis.from_url(settings.REDIS_URL).pubsub()
    await inbox.subscribe(here._get_layer().inbox_of(there._get_layer().origin))
    await here.group_send_many([*frames(1), ("table-1-watch", {"type": "table.frame", "n": 2})])
    assert await received(there, seat) == [1]
    assert await received(there, watcher) == [2]
    batches = await count_messages(inbox)
    await inbox.aclose()
    assert batches == 1
    assert await published() == 0  # nothing on the groups' own channels
