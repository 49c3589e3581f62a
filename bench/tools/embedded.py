"""Games played over real sockets against the embedded default, as `make run` serves it: a
fresh SQLite file, the in-memory channel layer, eager tasks and the server's own timer sweep.

Every player is a client of docs/protocol.md alone: it sits, starts, plays a random legal
action whenever it may, deals when a deal ended, and checks that each action it sent was
either pushed back to it (applied) or refused with an `error` frame. Meanwhile second tabs of
the players, spectators and a lobby socket open and close, as in an evening's traffic. At the
end each stored record must hold exactly the actions that were pushed.

`python -m bench.tools.embedded --rounds 3` plays six games (every kind of table) at once,
three times over, and prints what it saw; tests/games/sockets/test_embedded_default.py plays a
smaller set in the suite.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import fcntl
import hashlib
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from bench.support.client import merged
from bench.support.processes import ROOT, free_port, start_daphne, stop

# Every kind of table of RULES.md §3, each a game short enough to play in seconds.
EVERY_KIND = [
    {"variant": "tute", "players": 2, "stock_play": "free"},
    {"variant": "tute", "players": 3},
    {"variant": "tute", "players": 4, "pairs": False},
    {"variant": "tute", "players": 4, "pairs": True},
    {"variant": "habanero", "players": 2, "points_to_win": 1},
    {"variant": "pocha", "players": 2},
]
COMMON = {"rounds": 1, "move_time": 300, "competitive": True, "stake": 0, "guests": True}

SETUP = r"""
import json, sys
import django
django.setup()
from importlib import import_module
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from accounts.models import User
from games.table import seating

store = import_module(settings.SESSION_ENGINE).SessionStore
tables = []
for number, options in enumerate(json.loads(sys.argv[1])):
    players = []
    for seat in range(options["players"]):
        user = User.objects.create_user(f"t{number}s{seat}", f"t{number}s{seat}@example.com", "x")
        session = store()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        players.append({"username": user.username, "session": session.session_key})
    master = User.objects.get(username=players[0]["username"])
    table = seating.table_create(master=master, options=options)
    tables.append({"id": table.pk, "players": players})
print(json.dumps(tables))
"""


def environment(database: Path, secret_key_file: Path) -> dict[str, str]:
    """`make run`'s environment: SQLite, no Redis, robots without their pause."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"REDIS_URL", "DATABASE_URL", "CHANNEL_LAYER"}
    }
    env.update(
        DATABASE_URL=f"sqlite:///{database}",
        SECRET_KEY_FILE=str(secret_key_file),
        DJANGO_SETTINGS_MODULE="tute_site.settings",
        PYTHONUNBUFFERED="1",
        ROBOT_DELAY_SECONDS="0",
    )
    return env


def migrated(env: dict[str, str], database: Path) -> None:
    """`database`, a new SQLite file with every migration applied: a copy of one migrated
    once for these migrations (about ten seconds of CPU each time saved), made by the first
    process that needs it while the others wait on a lock."""
    migrations = sorted(ROOT.glob("*/migrations/*.py")) + sorted(ROOT.glob("*/*/migrations/*.py"))
    digest = hashlib.sha256(b"".join(path.read_bytes() for path in migrations)).hexdigest()
    template = Path(tempfile.gettempdir()) / f"tute-migrated-{digest[:16]}.sqlite3"
    with template.with_suffix(".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not template.exists():
            building = template.with_suffix(".building")
            building.unlink(missing_ok=True)
            subprocess.run(
                [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                cwd=ROOT,
                env={**env, "DATABASE_URL": f"sqlite:///{building}"},
                check=True,
            )
            # Everything in the one file: its write-ahead log would not follow the rename.
            with contextlib.closing(sqlite3.connect(building)) as db:
                db.execute("PRAGMA journal_mode=DELETE")
            building.rename(template)
    with (
        contextlib.closing(sqlite3.connect(template)) as source,
        contextlib.closing(sqlite3.connect(database)) as copy,
    ):
        source.backup(copy)


def prepare(env: dict[str, str], kinds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Migrate the database and open one table per kind, with its players and sessions."""
    python = sys.executable
    migrated(env, Path(env["DATABASE_URL"].removeprefix("sqlite:///")))
    options = json.dumps([{**COMMON, **kind} for kind in kinds])
    out = subprocess.run(
        [python, "-c", SETUP, options],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


@contextlib.contextmanager
def daphne(env: dict[str, str], log_path: Path):
    """A daphne serving the site as `make run` does, on a free port. Yields its base URL."""
    port = free_port()
    with log_path.open("w") as log:
        process = start_daphne(port, log, env)
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            stop(process, timeout=10)


@dataclass
class Seen:
    """What the clients saw, for the checks."""

    applied: dict[int, int] = field(default_factory=dict)  # table id -> actions pushed back
    refused: int = 0
    unanswered: list[str] = field(default_factory=list)
    server_closes: list[int] = field(default_factory=list)  # close codes the server chose
    finished: set[int] = field(default_factory=set)
    version_gaps: int = 0
    frames: int = 0
    timed_out: bool = False


async def _socket(base: str, path: str, session: str | None):
    headers = {"Cookie": f"sessionid={session}"} if session else {}
    return await connect(
        base.replace("http://", "ws://") + path,
        origin=base,
        additional_headers=headers,
        proxy=None,
        compression=None,
        open_timeout=30,
    )


async def _player(
    base: str, table: dict[str, Any], seat: int, seen: Seen, rng: random.Random
) -> None:
    """One seated player's tab: sit, start (the master), play until the game is over."""
    me = table["players"][seat]
    ws = await _socket(base, f"/ws/tables/{table['id']}/", me["session"])
    pending: dict[str, Any] | None = None
    state: dict[str, Any] | None = None  # the last state, with the updates since merged
    started = asked_to_sit = False
    try:
        while True:
            try:
                frame = json.loads(await asyncio.wait_for(ws.recv(), 60))
            except TimeoutError:
                if pending is not None:
                    seen.unanswered.append(f"{me['username']}: {pending}")
                return
            seen.frames += 1
            if frame["type"] == "error":
                if frame["request"] == "act" and pending is not None:
                    seen.refused += 1
                    pending = None
                    if frame["code"] != "stale":  # a fresh state follows a stale refusal
                        await ws.send(json.dumps({"type": "sync"}))
                continue
            if frame["type"] == "state":
                if state is not None and frame["version"] < state["version"]:
                    continue
                state = frame
            elif frame["type"] == "update":
                if state is None or frame["version"] <= state["version"]:
                    continue
                if frame["version"] > state["version"] + 1:
                    # A push was lost: the whole state, as docs/protocol.md says.
                    seen.version_gaps += 1
                    await ws.send(json.dumps({"type": "sync"}))
                    continue
                state = merged(state, frame)
            else:
                continue
            event = frame["event"] or {}
            if (
                pending is not None
                and event.get("kind") in {"act", "end"}
                and event.get("by") == me["username"]
                and event.get("action") == pending
            ):
                seen.applied[table["id"]] = seen.applied.get(table["id"], 0) + 1
                pending = None
            if state["you"]["seat"] is None:
                if not asked_to_sit:
                    asked_to_sit = True
                    await ws.send(json.dumps({"type": "sit", "seat": seat}))
                continue
            game = state["game"]
            seats = state["table"]["seats"]
            if game is None or (game["status"] != "playing" and not started):
                if seat == 0 and all(seats) and not started:
                    started = True
                    await ws.send(json.dumps({"type": "start"}))
                continue
            started = True
            if game["status"] != "playing":
                seen.finished.add(table["id"])
                if pending is None:
                    return
                continue
            view = game["view"]
            if pending is not None:
                continue
            if view["needs_deal"]:
                if seat == 0:  # any seated player may deal; one is enough
                    await ws.send(json.dumps({"type": "next_deal"}))
            elif view["legal_actions"]:
                pending = rng.choice(view["legal_actions"])
                message = {"type": "act", "action": pending, "count": state["count"]}
                await ws.send(json.dumps(message))
    except ConnectionClosed as closed:
        if closed.rcvd is not None:
            seen.server_closes.append(closed.rcvd.code)
    finally:
        await ws.close()


async def _churn(base: str, path: str, session: str | None, stop: asyncio.Event, seen: Seen):
    """A tab that opens, reads its first frame and closes, again and again."""
    rng = random.Random(path + str(session))
    while not stop.is_set():
        try:
            ws = await _socket(base, path, session)
            try:
                await asyncio.wait_for(ws.recv(), 30)
                await asyncio.sleep(rng.uniform(0, 0.3))
            finally:
                await ws.close()
        except ConnectionClosed as closed:
            if closed.rcvd is not None:
                seen.server_closes.append(closed.rcvd.code)
        await asyncio.sleep(rng.uniform(0, 0.2))


async def play(base: str, tables: list[dict[str, Any]], seed: int, timeout: float) -> Seen:
    """Every table's players play their game while other tabs come and go."""
    seen = Seen()
    rng = random.Random(seed)
    stop = asyncio.Event()
    churn = [asyncio.create_task(_churn(base, "/ws/lobby/", None, stop, seen))]
    for table in tables:
        path = f"/ws/tables/{table['id']}/"
        churn.append(asyncio.create_task(_churn(base, path, None, stop, seen)))
        for player in table["players"][:2]:
            churn.append(asyncio.create_task(_churn(base, path, player["session"], stop, seen)))
    players = [
        _player(base, table, seat, seen, random.Random(rng.random()))
        for table in tables
        for seat in range(len(table["players"]))
    ]
    try:
        await asyncio.wait_for(asyncio.gather(*players), timeout)
    except TimeoutError:
        seen.timed_out = True
    finally:
        stop.set()
        await asyncio.gather(*churn, return_exceptions=True)
    return seen


def stored_actions(database: Path) -> dict[int, tuple[int, str]]:
    """Each table's game: (its number of actions, its status), read from the database file."""
    with contextlib.closing(sqlite3.connect(database)) as db:
        rows = db.execute(
            "select t.id, g.action_count, g.status from games_table t join games_game g"
            " on g.id = t.game_id"
        ).fetchall()
    return {table_id: (count, status) for table_id, count, status in rows}


def run(
    kinds: list[dict[str, Any]], workdir: Path, seed: int = 1, timeout: float = 240
) -> dict[str, Any]:
    """One round: a fresh database, a daphne, every table played. Returns the figures."""
    database = workdir / "db.sqlite3"
    env = environment(database, workdir / "secret_key")
    tables = prepare(env, kinds)
    log_path = workdir / "daphne.log"
    started = time.monotonic()
    with daphne(env, log_path) as base:
        seen = asyncio.run(play(base, tables, seed, timeout))
    log = log_path.read_text()
    stored = stored_actions(database)
    return {
        "tables": len(tables),
        "seconds": round(time.monotonic() - started, 1),
        "finished": len(seen.finished),
        "applied": sum(seen.applied.values()),
        "refused": seen.refused,
        "frames": seen.frames,
        "version_gaps": seen.version_gaps,
        "timed_out": seen.timed_out,
        "unanswered": seen.unanswered,
        "server_closes": seen.server_closes,
        "lost_or_extra": {
            table["id"]: (stored.get(table["id"], (0, ""))[0], seen.applied.get(table["id"], 0))
            for table in tables
            if stored.get(table["id"], (0, ""))[0] != seen.applied.get(table["id"], 0)
        },
        "tracebacks": log.count("Traceback"),
        # Transactions that waited longer than SQLite's timeout for the lock, and ran again.
        "lock_retries": log.count("database is locked; trying again"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=900, help="seconds a round may take")
    args = parser.parse_args()
    for round_ in range(args.rounds):
        with tempfile.TemporaryDirectory() as workdir:
            figures = run(EVERY_KIND, Path(workdir), args.seed + round_, args.timeout)
        print(json.dumps({"bench": "embedded", "round": round_ + 1, **figures}), flush=True)


if __name__ == "__main__":
    main()
