"""Pushes to the sockets of a table and of the lobby, through the channel layer.

Each seat of a table has its own group and the spectators one more, so a message meant for a
seat holds that seat's view alone: no message with another seat's hand ever reaches a socket.
Services call these only from `transaction.on_commit`, with frames built inside the
transaction, so a push always describes a committed state.

A push is best effort: when the channel layer's Redis is down, the push is lost (and
logged), never the change that was already committed. The next frame's version shows the
gap, and sockets read the whole state again when they come back (docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Iterator
from typing import Any

import orjson
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
# What the channel layer raises when its Redis is unreachable or was restarted under it.
LAYER_ERRORS = (RedisError, OSError, asyncio.TimeoutError)
# In a background lane's process (tute_site/lanes.py), pushes are collected here instead, and
# sent by the daphne process whose channel layer reaches the sockets.
RELAY: list[tuple[str, dict[str, Any]]] | None = None
# A socket's request on the database threads (games/server.py `database`): its pushes are kept
# here, and the event loop sends them once the request returns, without a hop back to it.
_collecting = threading.local()


def seat_group(table_id: int, seat: int) -> str:
    return f"table-{table_id}-seat-{seat}"


def watch_group(table_id: int) -> str:
    return f"table-{table_id}-watch"


def frame_group(table_id: int, seat: int | None) -> str:
    return watch_group(table_id) if seat is None else seat_group(table_id, seat)


async def _send_all(messages: list[tuple[str, dict[str, Any]]]) -> list[BaseException]:
    """Send every message; returns the errors of those that failed."""
    layer = get_channel_layer()
    if hasattr(layer, "group_send_many"):  # Redis: one round trip (tute_site/layers.py)
        try:
            await layer.group_send_many(messages)
        except LAYER_ERRORS as error:
            return [error] * len(messages)
        return []
    results = await asyncio.gather(
        *(layer.group_send(group, message) for group, message in messages),
        return_exceptions=True,
    )
    return [result for result in results if isinstance(result, BaseException)]


def send(messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Send (group, message) pairs at once, from sync code. With the channel layer down
    they are lost, logged in one line: the caller's change stands (it is committed)."""
    if not messages:
        return
    if RELAY is not None:
        RELAY.extend(messages)
        return
    outbox = getattr(_collecting, "outbox", None)
    if outbox is not None:
        outbox.extend(messages)
        return
    _raise_or_log(async_to_sync(_send_all)(messages), len(messages))


@contextlib.contextmanager
def collected() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """Inside the block, `send` in this thread keeps its messages in the list it yields
    instead of sending them: the caller sends them from the event loop (`send_async`)."""
    previous = getattr(_collecting, "outbox", None)
    _collecting.outbox = outbox = []
    try:
        yield outbox
    finally:
        _collecting.outbox = previous


async def send_async(messages: list[tuple[str, dict[str, Any]]]) -> None:
    """`send`, from the event loop (a lane's pushes, sent once its job is done)."""
    if messages:
        _raise_or_log(await _send_all(messages), len(messages))


def _raise_or_log(errors: list[BaseException], sent: int) -> None:
    for error in errors:
        if not isinstance(error, LAYER_ERRORS):
            raise error
    if errors:
        logger.warning("channel layer down, %d of %d pushes lost: %r", len(errors), sent, errors[0])


def encode(frame: dict[str, Any]) -> str:
    """A frame as the JSON text a socket sends."""
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()


def table_messages(
    table_id: int, frames: dict[int | None, dict[str, Any]]
) -> list[tuple[str, dict[str, Any]]]:
    """One `table.frame` message per group: each seat's own frame, the spectators' frame,
    encoded once here, so that each socket sends its text as it is (games/sockets/).

    Besides the text, a message says which group it was sent to (`seat`), the event, the
    version and count (which the socket's error frames repeat), and,
    when the frame carries the table's summary, who sits where and who is master: what a
    socket needs to add `you` to it, or to see that it sits elsewhere now and must read its
    own frame instead."""
    messages = []
    for seat, frame in frames.items():
        summary = frame.get("table")
        table = None
        if summary is not None:
            table = {
                "master": summary["master"],
                "seated": {e["user"]: e["seat"] for e in summary["seats"] if e and e["user"]},
            }
        message = {
            "type": "table.frame",
            "seat": seat,
            "text": encode(frame),
            "event": frame.get("event"),
            "version": frame["version"],
            "count": frame["count"],
            "table": table,
        }
        messages.append((frame_group(table_id, seat), message))
    return messages


def user_group(user_id: int) -> str:
    """A player's own group: the site sockets of their open pages (`/ws/me/`)."""
    return f"user-{user_id}"


def user_message(user_id: int, frame: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return user_group(user_id), {"type": "user.frame", "frame": frame}


def lobby_message(summary: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    if summary["status"] == "closed":
        payload = {"type": "table_closed", "table_id": summary["id"]}
    else:
        payload = {"type": "table", "table": summary}
    return LOBBY_GROUP, {"type": "lobby.frame", "frame": payload}


def utc(moment: Any) -> str:
    """A moment as frames write it: ISO 8601 in UTC, with a Z."""
    return moment.isoformat().replace("+00:00", "Z")
