"""Checks behind /healthz: the database, a round trip through the channel layer, the broker.

Each check returns a small JSON-safe dict with `ok`, the `service` it depends on and, when it
fails, the `error`. None of them may hang: each is bounded by TIMEOUT seconds.
"""

import asyncio
import uuid

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

TIMEOUT = 3.0


def _service_of_database() -> str:
    return connection.vendor  # "postgresql" or "sqlite"


def check_database() -> dict:
    service = _service_of_database()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means the database is down for us
        return {"ok": False, "service": service, "error": str(exc)}
    return {"ok": True, "service": service}


async def check_channel_layer() -> dict:
    layer = get_channel_layer()
    service = "redis" if "redis" in type(layer).__module__ else "in-memory"
    try:
        channel = await asyncio.wait_for(layer.new_channel("healthz."), TIMEOUT)
        token = uuid.uuid4().hex
        await asyncio.wait_for(layer.send(channel, {"type": "healthz", "token": token}), TIMEOUT)
        message = await asyncio.wait_for(layer.receive(channel), TIMEOUT)
        if message.get("token") != token:
            return {"ok": False, "service": service, "error": "wrong message came back"}
    except Exception as exc:
        return {"ok": False, "service": service, "error": str(exc) or type(exc).__name__}
    return {"ok": True, "service": service}


def check_broker() -> dict:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"ok": True, "service": "eager", "detail": "tasks run in the web process"}
    from tute_site.celery import app

    service = settings.CELERY_BROKER_URL.split(":", 1)[0]
    try:
        # A fresh connection to the configured URL: the check shares no pool with the tasks.
        with app.connection_for_write(settings.CELERY_BROKER_URL) as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, timeout=TIMEOUT)
    except Exception as exc:
        return {"ok": False, "service": service, "error": str(exc) or type(exc).__name__}
    return {"ok": True, "service": service}


async def run_checks() -> dict:
    database, channel_layer, broker = await asyncio.gather(
        sync_to_async(check_database)(),
        check_channel_layer(),
        sync_to_async(check_broker, thread_sensitive=False)(),
    )
    checks = {"database": database, "channel_layer": channel_layer, "broker": broker}
    down = sorted({check["service"] for check in checks.values() if not check["ok"]})
    return {"status": "ok" if not down else "down", "down": down, "checks": checks}
