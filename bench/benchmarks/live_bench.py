"""Live play measured on localhost: from a card sent to the update received by every other
seat, against a real daphne, over real WebSockets; and a bare Channels echo app's fan-out in
the same run, as the baseline.

It runs on a throwaway database made like the tests' (PostgreSQL when DATABASE_URL says so,
else an SQLite file) and on the channel layer the settings give (Redis with REDIS_URL).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

PLAYERS = 4


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def figures(name: str, times: list[float]) -> dict[str, Any]:
    return {
        "bench": name,
        "moves": len(times),
        "median_ms": round(statistics.median(times) * 1000, 2),
        "p99_ms": round(percentile(times, 0.99) * 1000, 2),
    }


async def play_moves(base_url: str, table_id: int, sessions: list[str], moves: int) -> list[float]:
    """Send `moves` legal actions, each from the seat that may take it, and time how long the
    other seats take to receive the new state."""
    from bench.support.client import TableClient

    clients = [await TableClient.open(base_url, table_id, s) for s in sessions]
    rng = random.Random(1)
    times: list[float] = []
    try:
        while len(times) < moves:
            view = clients[0].view if clients[0].state["game"] else None
            if view is None or view["game_over"]:
                await clients[0].send({"type": "start"})
                await asyncio.gather(*(c.receive_state() for c in clients))
                continue
            if view["needs_deal"]:
                await clients[0].send({"type": "next_deal"})
                await asyncio.gather(*(c.receive_state() for c in clients))
                continue
            seat, action = rng.choice(
                [(n, a) for n, c in enumerate(clients) for a in c.view["legal_actions"]]
            )
            others = [c for n, c in enumerate(clients) if n != seat]
            start = time.perf_counter()
            await clients[seat].act(action)
            waiting = [asyncio.ensure_future(c.receive_state()) for c in others]
            await asyncio.gather(*waiting)
            times.append(time.perf_counter() - start)
            await clients[seat].receive_state()
    finally:
        for c in clients:
            await c.close()
    return times


async def echo_moves(base_url: str, moves: int) -> list[float]:
    """The same fan-out through the bare echo app: one socket sends, the others receive."""
    from websockets.asyncio.client import connect

    url = base_url.replace("http://", "ws://") + "/ws/echo/"
    sockets = [
        await connect(url, origin=base_url, proxy=None, compression=None) for _ in range(PLAYERS)
    ]
    times: list[float] = []
    try:
        for n in range(moves):
            sender = sockets[n % PLAYERS]
            others = [s for s in sockets if s is not sender]
            payload = json.dumps({"type": "act", "action": {"seat": n % PLAYERS, "play": "1O"}})
            start = time.perf_counter()
            await sender.send(payload)
            await asyncio.gather(*(s.recv() for s in others))
            times.append(time.perf_counter() - start)
            await sender.recv()
    finally:
        for s in sockets:
            await s.close()
    return times


@contextlib.contextmanager
def throwaway_database():
    """A database made like the tests' for the duration of the block (PostgreSQL when
    DATABASE_URL says so, else an SQLite file); dropped afterwards. Yields its work folder."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tute_site.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.db import connections
    from django.test.utils import setup_databases, teardown_databases

    workdir = Path(tempfile.mkdtemp(prefix="tute-bench-"))
    db = settings.DATABASES["default"]
    if db["ENGINE"] == "django.db.backends.sqlite3":
        db.setdefault("TEST", {})["NAME"] = str(workdir / "bench.sqlite3")
    else:
        db.setdefault("TEST", {})["NAME"] = f"bench_{db['NAME']}_{os.getpid()}"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    old = setup_databases(verbosity=0, interactive=False)
    try:
        yield workdir
    finally:
        connections.close_all()
        teardown_databases(old, verbosity=0)


def live_bench(moves: int = 200) -> list[dict[str, Any]]:
    from django.conf import settings

    with throwaway_database() as workdir:
        from bench.support.client import session_cookie
        from bench.support.players import new_player
        from bench.support.processes import child_env, database_url, running_daphne
        from games.table import seating

        users = [new_player() for _ in range(PLAYERS)]
        table = seating.table_create(
            master=users[0], options={"variant": "tute", "players": PLAYERS, "rounds": 5}
        )
        for user in users[1:]:
            seating.table_sit(table_id=table.pk, user=user)
        sessions = [session_cookie(u) for u in users]
        env = child_env(database_url())
        with running_daphne(env, workdir / "daphne.log") as site:
            live = asyncio.run(play_moves(site, table.pk, sessions, moves))
        with running_daphne(
            env, workdir / "echo.log", app="bench.support.echo_asgi:application"
        ) as echo:
            bare = asyncio.run(echo_moves(echo, moves))
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]
    live_figures = {**figures("live-play", live), "players": PLAYERS, "layer": layer}
    echo_figures = {**figures("echo-baseline", bare), "players": PLAYERS, "layer": layer}
    ratio = {
        "bench": "live-play-vs-echo",
        "median_ratio": round(live_figures["median_ms"] / echo_figures["median_ms"], 2),
        "p99_ratio": round(live_figures["p99_ms"] / echo_figures["p99_ms"], 2),
    }
    return [live_figures, echo_figures, ratio]


if __name__ == "__main__":
    for line in live_bench():
        print(json.dumps(line))
