"""Helpers for live-play tests: players, tables, logged-in sockets, and the engine's own truth.

Sockets go through the site's whole ASGI application (origin check, session cookie, routing)
on the channel layer the settings give: Redis when REDIS_URL is set.
"""

from __future__ import annotations

import re
from typing import Any

from channels.db import database_sync_to_async as sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from games.engine import CARDS, from_record
from games.models import Game, Table
from tute_site.asgi import application

ORIGIN = b"http://127.0.0.1"
CARD_CODE = re.compile(r"^(1|2|3|4|5|6|7|10|11|12)[OCEB]$")


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


async def open_socket(
    path: str,
    user=None,
    *,
    origin: bytes = ORIGIN,
    language: str | None = None,
    client: tuple[str, int] | None = None,
    headers: list[tuple[bytes, bytes]] = (),
) -> WebsocketCommunicator:
    headers = [(b"origin", origin), (b"host", b"127.0.0.1"), *headers]
    cookies = []
    if user is not None:
        cookie = await sync_to_async(session_cookie)(user)
        cookies.append(f"{settings.SESSION_COOKIE_NAME}={cookie}")
    if language:
        cookies.append(f"{settings.LANGUAGE_COOKIE_NAME}={language}")
    if cookies:
        headers.append((b"cookie", "; ".join(cookies).encode()))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    if client is not None:
        communicator.scope["client"] = client  # as daphne gives the peer's address
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    return communicator


async def table_socket(table_id: int, user=None, **kwargs) -> tuple[WebsocketCommunicator, dict]:
    """A connected table socket and the first frame it received (the whole state)."""
    communicator = await open_socket(f"/ws/tables/{table_id}/", user, **kwargs)
    first = await communicator.receive_json_from(timeout=5)
    return communicator, first


def stored_record(table_id: int) -> dict:
    table = Table.objects.select_related("game").get(pk=table_id)
    return table.game.record if table.game else {}


async def record_of(table_id: int) -> dict:
    return await sync_to_async(stored_record)(table_id)


def card_codes(data: Any) -> set[str]:
    """Every card code anywhere in a JSON frame."""
    found: set[str] = set()
    if isinstance(data, str):
        if CARD_CODE.match(data):
            found.add(data)
    elif isinstance(data, dict):
        for value in data.values():
            found |= card_codes(value)
    elif isinstance(data, list):
        for value in data:
            found |= card_codes(value)
    return found


def hidden_from(state, seat: int | None) -> set[str]:
    """The cards `seat` may not see now: other seats' hands and the face-down stock, less the
    cards shown face up to the whole table (the trump card, and a trump card taken in an
    exchange, RULES.md §4 and §6)."""
    hidden = {str(CARDS[c]) for c in state.stock}
    for other, hand in enumerate(state.hands):
        if other != seat:
            hidden |= {str(CARDS[c]) for c in hand}
    shown = {str(CARDS[state.trump_card])} | {str(CARDS[t]) for _, _, t in state.exchanges}
    return hidden - shown


def check_frame(frame: dict, record: dict, seat: int | None) -> None:
    """`frame` is exactly the engine's view for `seat` of the stored record, and shows no
    card hidden from that seat."""
    state = from_record(record)
    count = sum(len(d["actions"]) for d in record["deals"])
    assert frame["type"] == "state"
    assert frame["count"] == count == frame["game"]["count"]
    assert frame["game"]["view"] == state.view(seat).to_dict()
    assert frame["you"]["seat"] == seat
    leaked = card_codes(frame) & hidden_from(state, seat)
    assert not leaked, f"seat {seat} was sent hidden cards {leaked}"


def game_of(table_id: int) -> Game:
    return Table.objects.select_related("game").get(pk=table_id).game
