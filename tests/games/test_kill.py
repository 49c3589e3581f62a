"""The daphne process is killed (SIGKILL) in the middle of a game and started again.

Everything runs as in production with Redis: a real daphne, a real Celery worker and Celery
beat queueing the timer sweep every second, and real WebSocket clients (`websockets`). While
daphne is dead the pending move timer still fires (the worker plays the timed-out move);
the clients reconnect, see the same state as the database holds, and finish the game.
"""

import asyncio
import json
import signal
import time

import pytest
import websockets
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection

from games import services
from games.engine import from_record
from games.models import Game
from games.selectors import action_count
from tests.conftest import _child_env, database_url_for_tests, free_port, start_daphne, stop
from tests.games.live import game_of, session_cookie
from tests.games.test_live_play import seated_table

pytestmark = [
    pytest.mark.services,
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
]

MOVE_TIME = 3


def record_at(record: dict, count: int) -> dict:
    """The record as it stood after `count` actions (actions are only ever appended)."""
    deals, left = [], count
    for deal in record["deals"]:
        if left < 0:
            break
        deals.append({**deal, "actions": deal["actions"][:left]})
        left -= len(deal["actions"])
    return {**record, "deals": deals}


async def connect(url: str, cookie: str, seat: int, retry_for: float = 30):
    """A table socket of a real client, retried while the server is down; returns the socket
    and its first frame, the whole state."""
    deadline = time.monotonic() + retry_for
    while True:
        try:
            ws = await websockets.connect(
                url,
                additional_headers={
                    "Origin": url.replace("ws://", "http://").split("/ws/")[0],
                    "Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}",
                },
            )
            break
        except (OSError, websockets.InvalidStatus):
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.2)
    first = json.loads(await ws.recv())
    assert first["type"] == "state" and first["you"]["seat"] == seat
    return ws, first


def stored_record(table_id: int) -> dict:
    """Read from a thread of the event loop: close its connection, or it would outlive the
    test database."""
    try:
        return game_of(table_id).record
    finally:
        connection.close()


async def check_same_state(frame: dict, table_id: int, seat: int) -> None:
    """A frame shows exactly the engine's view of the stored game at the frame's count."""
    record = await sync_to_async(stored_record)(table_id)
    assert frame["count"] <= action_count(record)
    state = from_record(record_at(record, frame["count"]))
    assert frame["game"]["view"] == state.view(seat).to_dict()


async def play_to_the_end(ws, seat: int, first: dict) -> dict:
    """Send the first legal action whenever this seat may act, until the game is over."""
    frame = first
    while True:
        if frame["type"] == "state":
            if frame["game"]["status"] != "playing":
                return frame
            legal = frame["game"]["view"]["legal_actions"]
            if legal:
                await ws.send(
                    json.dumps({"type": "act", "action": legal[0], "count": frame["count"]})
                )
        frame = json.loads(await ws.recv())


def test_killed_daphne_restarts_clients_reconnect_the_pending_timer_fires(celery_beat, tmp_path):
    table, users = seated_table({"variant": "tute", "players": 2, "move_time": MOVE_TIME}, 2)
    services.game_start(table_id=table.pk, user=users[0])
    cookies = [session_cookie(user) for user in users]
    port = free_port()
    url = f"ws://127.0.0.1:{port}/ws/tables/{table.pk}/"
    log = (tmp_path / "daphne.log").open("w")
    process = start_daphne(port, log, _child_env(database_url_for_tests()))
    try:

        async def first_half() -> int:
            sockets = [await connect(url, cookies[seat], seat) for seat in (0, 1)]
            frames = [first for _ws, first in sockets]
            # A few moves, each by the seat whose turn it is, straight away.
            for _ in range(4):
                seat = next(s for s in (0, 1) if frames[s]["game"]["view"]["legal_actions"])
                action = frames[seat]["game"]["view"]["legal_actions"][0]
                await sockets[seat][0].send(
                    json.dumps({"type": "act", "action": action, "count": frames[seat]["count"]})
                )
                frames = [json.loads(await ws.recv()) for ws, _first in sockets]
            return frames[0]["count"]

        count = asyncio.run(first_half())
        game = game_of(table.pk)
        assert game.deadline_kind == "move" and game.deadline_count == count
        process.send_signal(signal.SIGKILL)
        process.wait(10)

        # Nobody is connected and no daphne runs: the worker still plays the timed-out move.
        deadline = time.monotonic() + MOVE_TIME + 20
        while action_count(game_of(table.pk).record) == count:
            assert time.monotonic() < deadline, (tmp_path / "celery.log").read_text()[-3000:]
            time.sleep(0.2)
        played = game_of(table.pk).record["deals"][-1]["actions"][count]
        assert played["seat"] == game.deadline_seat

        process = start_daphne(port, log, _child_env(database_url_for_tests()))

        async def second_half() -> list[dict]:
            sockets = [await connect(url, cookies[seat], seat) for seat in (0, 1)]
            for seat, (_ws, first) in enumerate(sockets):
                assert first["count"] > count
                await check_same_state(first, table.pk, seat)
            ends = await asyncio.wait_for(
                asyncio.gather(*(play_to_the_end(ws, s, f) for s, (ws, f) in enumerate(sockets))),
                timeout=180,
            )
            for ws, _first in sockets:
                await ws.close()
            return ends

        ends = asyncio.run(second_half())
    finally:
        stop(process, timeout=10)
        log.close()
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED
    assert from_record(game.record).over
    assert [end["game"]["result"] for end in ends] == [{"over": True, **game.result}] * 2
