"""The suite really runs on PostgreSQL, Redis and a real Celery worker when they are given."""

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.db import connection

pytestmark = pytest.mark.services


@pytest.mark.django_db
def test_database_is_postgresql():
    # Only PostgreSQL answers this: SQLite has neither version() nor the :: cast.
    with connection.cursor() as cursor:
        cursor.execute("SELECT version(), '42'::int + 1")
        version, answer = cursor.fetchone()
    assert version.startswith("PostgreSQL")
    assert answer == 43


def test_message_goes_through_the_redis_channel_layer():
    layer = get_channel_layer()
    # channels-redis's pub/sub layer, or the site's one (tute_site/layers.py) built on it.
    assert isinstance(layer, RedisPubSubChannelLayer)

    async def round_trip():
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "test.message", "text": "hola"})
        return await layer.receive(channel)

    assert async_to_sync(round_trip)() == {"type": "test.message", "text": "hola"}


def test_group_message_reaches_every_member_through_redis():
    layer = get_channel_layer()

    async def fan_out():
        a, b = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("table-test", a)
        await layer.group_add("table-test", b)
        await layer.group_send("table-test", {"type": "table.update", "n": 7})
        got = [await layer.receive(a), await layer.receive(b)]
        await layer.group_discard("table-test", a)
        await layer.group_discard("table-test", b)
        return got

    assert async_to_sync(fan_out)() == [{"type": "table.update", "n": 7}] * 2


@pytest.mark.celery_worker
def test_real_celery_worker_runs_a_task(celery_worker):
    from tute_site.celery import ping

    assert ping.delay().get(timeout=30) == "pong"


def test_a_changes_pushes_reach_their_groups_in_order_in_one_round_trip():
    """`group_send_many` (tute_site/layers.py): each message to its own group's members, in
    the order given, through the real Redis."""
    layer = get_channel_layer()

    async def pushes():
        seat, watcher = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("table-test-seat-0", seat)
        await layer.group_add("table-test-watch", watcher)
        await layer.group_send_many(
            [
                ("table-test-seat-0", {"type": "table.frame", "n": 1}),
                ("table-test-watch", {"type": "table.frame", "n": 2}),
                ("table-test-seat-0", {"type": "table.frame", "n": 3}),
            ]
        )
        got = [await layer.receive(seat), await layer.receive(seat), await layer.receive(watcher)]
        await layer.group_discard("table-test-seat-0", seat)
        await layer.group_discard("table-test-watch", watcher)
        return [message["n"] for message in got]

    assert async_to_sync(pushes)() == [1, 3, 2]
