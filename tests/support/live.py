"""Helpers for live-play tests: players, tables, logged-in sockets, and the engine's own truth.

Sockets go through the site's whole ASGI application (origin check, session cookie, routing)
on the channel layer the settings give (Redis when REDIS_URL is set), opened by the one
protocol client (bench/support/client.py).
"""

from __future__ import annotations

from channels.db import database_sync_to_async as sync_to_async
from channels.testing import WebsocketCommunicator

from bench.support.client import ORIGIN, TableClient, connect_in_process, session_cookie
from games.engine import CARDS, from_record
from games.models import Game, Table
from games.table import robots
from games.table.record import game_record
from tests.support.engine import card_codes
from tute_site.asgi import application

# How long a test waits for a frame it expects: a bound, not a measure. The frame comes as
# soon as it is sent; the bound only turns a lost one into a failure. Under a full run's
# load on two shared cores a push took more than the 5 s the tests used to allow.
WAIT = 60


async def _session_of(user) -> str | None:
    return await sync_to_async(session_cookie)(user) if user is not None else None


async def open_socket(
    path: str,
    user=None,
    *,
    origin: str = ORIGIN,
    language: str | None = None,
    client: tuple[str, int] | None = None,
    headers: tuple[tuple[bytes, bytes], ...] = (),
) -> WebsocketCommunicator:
    """A connected socket on `path` (as `user`, if any), through the whole ASGI application."""
    return await connect_in_process(
        application,
        path,
        session=await _session_of(user),
        origin=origin,
        language=language,
        client=client,
        headers=headers,
    )


async def table_client(table_id: int, user=None, **handshake) -> TableClient:
    """The protocol client on a table, as `user` (if any), through the whole ASGI application."""
    return await TableClient.in_process(application, table_id, await _session_of(user), **handshake)


async def table_socket(table_id: int, user=None, **handshake) -> tuple[WebsocketCommunicator, dict]:
    """A connected table socket and the first frame it received (the whole state)."""
    client = await table_client(table_id, user, **handshake)
    return client.socket, client.first


def stored_record(table_id: int) -> dict:
    table = Table.objects.select_related("game").get(pk=table_id)
    return game_record(game=table.game) if table.game else {}


async def record_of(table_id: int) -> dict:
    return await sync_to_async(stored_record)(table_id)


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
    assert frame["type"] in ("state", "update")
    assert frame["count"] == count == frame["game"]["count"]
    assert frame["game"]["view"] == state.view(seat).to_dict()
    if "you" in frame:  # an update that leaves the table as it was does not say it again
        assert frame["you"]["seat"] == seat
    leaked = card_codes(frame) & hidden_from(state, seat)
    assert not leaked, f"seat {seat} was sent hidden cards {leaked}"


def game_of(table_id: int) -> Game:
    return Table.objects.select_related("game").get(pk=table_id).game


def robots_play_first(table_id: int) -> None:
    """The robots of a practice table play until it is the player's turn (no sweeper runs
    here: their timers are fired now, each at its own time)."""
    for _ in range(10):
        game = Table.objects.get(pk=table_id).game
        if game.deadline_kind != "robot":
            return
        robots.game_timer_fire(game_id=game.pk, count=game.action_count, now=game.deadline_at)
