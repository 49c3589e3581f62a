"""The daphne process is killed (SIGKILL) in the middle of a game and started again.

Everything runs as in production with Redis: a real daphne, a real Celery worker and Celery
beat queueing the timer sweep every second, and real WebSocket clients (`websockets`). While
daphne is dead the pending move timer still fires (the worker plays the timed-out move);
the clients reconnect, see the same state as the database holds, and finish the game.
"""

import asyncio
import signal
import time

import pytest
from asgiref.sync import sync_to_async
from django.db import connection

from bench.support.client import TableClient
from bench.support.processes import child_env, database_url, free_port, start_daphne, stop
from games.engine import from_record
from games.models import Game
from games.table import play
from games.table.record import game_record
from tests.support.live import WAIT, game_of, session_cookie
from tests.support.play import seated_table

pytestmark = [
    pytest.mark.services,
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
    # It times a move timer against processes it kills: one after the other with the others
    # that kill processes, under pytest-xdist.
    pytest.mark.xdist_group("alone"),
]

MOVE_TIME = 5


def record_at(record: dict, count: int) -> dict:
    """The record as it stood after `count` actions (actions are only ever appended)."""
    deals, left = [], count
    for deal in record["deals"]:
        if left < 0:
            break
        deals.append({**deal, "actions": deal["actions"][:left]})
        left -= len(deal["actions"])
    return {**record, "deals": deals}


async def connect(base_url: str, table_id: int, cookie: str, seat: int) -> TableClient:
    """A real client's table socket, tried again while the server is down; its first frame
    is the whole state of `seat`."""
    client = await TableClient.open(base_url, table_id, cookie, retry_for=30)
    assert client.first["type"] == "state" and client.seat == seat
    return client


def stored_record(table_id: int) -> dict:
    """Read from a thread of the event loop: close its connection, or it would outlive the
    test database."""
    try:
        return game_record(game=game_of(table_id))
    finally:
        connection.close()


async def check_same_state(frame: dict, table_id: int, seat: int) -> None:
    """A frame shows exactly the engine's view of the stored game at the frame's count."""
    record = await sync_to_async(stored_record)(table_id)
    assert frame["count"] <= sum(len(deal["actions"]) for deal in record["deals"])
    state = from_record(record_at(record, frame["count"]))
    assert frame["game"]["view"] == state.view(seat).to_dict()


async def play_to_the_end(client: TableClient) -> dict:
    """Send the first legal action whenever this seat may act, until the game is over."""
    acted_at = None
    while True:
        state = client.state
        if state["game"]["status"] != "playing":
            return state
        legal = state["game"]["view"]["legal_actions"]
        if legal and acted_at != state["version"]:
            acted_at = state["version"]
            await client.act(legal[0])
        await client.receive()


async def until_count(client: TableClient, count: int) -> None:
    """Read frames until the client's state has `count` actions."""
    while client.count < count:
        await client.receive(timeout=WAIT)


def test_killed_daphne_restarts_clients_reconnect_the_pending_timer_fires(celery_beat, tmp_path):
    table, users = seated_table({"variant": "tute", "players": 2, "move_time": MOVE_TIME}, 2)
    play.game_start(table_id=table.pk, user=users[0])
    cookies = [session_cookie(user) for user in users]
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    log = (tmp_path / "daphne.log").open("w")
    process = start_daphne(port, log, child_env(database_url()))
    try:

        async def first_half() -> int:
            clients = [await connect(base_url, table.pk, cookies[seat], seat) for seat in (0, 1)]
            # A few moves, each by the seat whose turn it is, straight away.
            for _ in range(4):
                mover = next(c for c in clients if c.view["legal_actions"])
                played = mover.count + 1
                await mover.act(mover.view["legal_actions"][0])
                for client in clients:
                    await until_count(client, played)
                # A timeout may have played on meanwhile: both seats see the same position.
                while len({c.state["version"] for c in clients}) > 1:
                    await min(clients, key=lambda c: c.state["version"]).receive(timeout=WAIT)
            return clients[0].count

        count = asyncio.run(first_half())
        game = game_of(table.pk)
        assert game.deadline_kind == "move" and game.deadline_count == count
        process.send_signal(signal.SIGKILL)
        process.wait(10)

        # Nobody is connected and no daphne runs: the worker still plays the timed-out move.
        deadline = time.monotonic() + MOVE_TIME + WAIT
        while game_of(table.pk).action_count == count:
            assert time.monotonic() < deadline, (tmp_path / "celery.log").read_text()[-3000:]
            time.sleep(0.2)
        played = game_record(game=game_of(table.pk))["deals"][-1]["actions"][count]
        assert played["seat"] == game.deadline_seat

        process = start_daphne(port, log, child_env(database_url()))

        async def second_half() -> list[dict]:
            clients = [await connect(base_url, table.pk, cookies[seat], seat) for seat in (0, 1)]
            for seat, client in enumerate(clients):
                assert client.first["count"] > count
                await check_same_state(client.first, table.pk, seat)
            ends = await asyncio.wait_for(
                asyncio.gather(*(play_to_the_end(client) for client in clients)), timeout=180
            )
            for client in clients:
                await client.close()
            return ends

        ends = asyncio.run(second_half())
    finally:
        stop(process, timeout=10)
        log.close()
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED
    assert from_record(game_record(game=game)).over
    assert [end["game"]["result"] for end in ends] == [{"over": True, **game.result}] * 2
