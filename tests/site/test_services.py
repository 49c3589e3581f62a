"""The suite really runs on PostgreSQL, Redis and a real Celery worker when they are given."""

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
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
    assert type(layer).__module__.startswith("channels_redis")

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
