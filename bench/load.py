"""The load tool (issue #15): many real 4-player tables of robots, each seat a WebSocket client
following docs/protocol.md, against a real daphne on PostgreSQL and Redis with a real Celery
worker; and, in the same run, a bare Channels echo consumer under the same load as baseline.

    python -m bench.load [--tables N[,N...]] [--seconds S] [--rate MOVES_PER_S_PER_TABLE]
                         [--daphnes N] [--route table|spread] [--profile DIR]

Each seat logs in with its own session cookie and keeps the latest `state`; when its view has
legal actions, the project's `random` robot picks one of `view.legal_actions` (any seat with a
legal action may send it: a cante moment is open to several seats). Each table makes about
`--rate` moves a second. It reports tables, moves per second, the median and 99th percentile
of the time from a move sent to the new state received by all four seats, errors (error
frames, timeouts, closed sockets), and the CPU and memory of each process (read from /proc).
The echo baseline has the same number of groups of four sockets, at the same pace: one sends,
all four receive. Everything is bounded by --seconds and listens on 127.0.0.1 only.

With `--daphnes N`, N daphne processes serve the site behind the one Redis, as the site grows
past one machine. A table's sockets connect as the shipped nginx routes them
(deploy/nginx/tute.conf): all to one process, chosen by the table (`--route table`); with
`--route spread` the four seats of a table connect to different processes where N allows, so
every move also crosses processes through the channel layer. With `--tables 25,50,100`, it
plays 25 tables, then 50, then 100, each for --seconds, and reports the most moves a second
it sustained, once every table moves, with a 99th percentile under 250 ms, no error and no
update missed (`load-capacity`).

It runs on a throwaway PostgreSQL database made like the tests' (DATABASE_URL names the
server) and on REDIS_URL's Redis (channel layer and Celery broker).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

PLAYERS = 4
TIMEOUT = 10.0


@dataclass
class Tally:
    """What a run measured."""

    moves: list[tuple[float, float]] = field(default_factory=list)  # (sent at, seconds)
    errors: list[str] = field(default_factory=list)
    games_started: int = 0
    # Updates a client saw come after one it never got (a version gap): each asked for the
    # whole state again.
    gaps: int = 0
    started: float = field(default_factory=time.monotonic)
    elapsed: float = 0.0
    # The steady window: from once every table has made a move (every socket connected,
    # WARM_UP seconds at least) to the deadline.
    steady_from: float | None = None
    deadline: float | None = None
    moving: set[int] = field(default_factory=set)
    all_moving: asyncio.Event = field(default_factory=asyncio.Event)
    tables: int = 0

    def record(self, sent: float, elapsed: float, table: int | None = None) -> None:
        self.moves.append((sent, elapsed))
        if table is not None and table not in self.moving:
            self.moving.add(table)
            if len(self.moving) == self.tables:
                self.all_moving.set()

    @property
    def times(self) -> list[float]:
        return [elapsed for _sent, elapsed in self.moves]

    def figures(self, name: str, tables: int) -> dict[str, Any]:
        steady_from = self.steady_from or self.started + WARM_UP
        deadline = self.deadline or self.started + self.elapsed
        steady = [elapsed for sent, elapsed in self.moves if steady_from <= sent < deadline]
        return {
            "bench": name,
            "tables": tables,
            "moves": len(self.moves),
            "moves_per_s": round(len(self.moves) / self.elapsed, 1) if self.elapsed else 0,
            "median_ms": _ms(statistics.median(self.times or [0.0])),
            "p99_ms": _ms(_p99(self.times)),
            # Once every socket is connected and every table moving (the first seconds, when
            # the sockets connect all at once, are in `p99_ms`).
            "steady_from_s": round(steady_from - self.started, 1),
            "moves_per_s_steady": round(len(steady) / max(deadline - steady_from, 1e-9), 1),
            "median_steady_ms": _ms(statistics.median([t for t in steady] or [0.0])),
            "p99_after_warm_up_ms": _ms(_p99(steady)),
            "errors": len(self.errors),
            "first_errors": self.errors[:5],
            "updates_missed": self.gaps,
        }


WARM_UP = 5.0


def _p99(times: list[float]) -> float:
    ordered = sorted(times) or [0.0]
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def robot_choice(robot: Any, view: dict[str, Any]) -> dict[str, Any]:
    """The robot's pick among the frame's legal actions (the random robot reads only those)."""
    from games.engine import Action

    legal = [Action.from_dict(a, view["players"]) for a in view["legal_actions"]]
    return robot.choose(SimpleNamespace(legal_actions=legal)).to_dict()


async def play_table(
    base_urls: list[str],
    table_id: int,
    sessions: list[str],
    tally: Tally,
    *,
    deadline: float,
    rate: float,
    max_moves: int | None,
    seed: int,
    opened: list,
    route: str = "table",
) -> None:
    """Four robots play one table until the deadline (or `max_moves`), about `rate` moves a
    second, timing each move to the state received by every seat. Its sockets are put in
    `opened`, and closed by the caller once every table stopped: a socket closing makes its
    seat away, and that work must not weigh on the moves of tables still timed."""
    from bench.client import TableClient
    from games.bots import get_bot

    rng = random.Random(seed)
    robot = get_bot("random", rng=rng)
    clients: list[TableClient] = []
    waiting = "the first states"
    try:
        for n, s in enumerate(sessions):
            # As the shipped nginx routes them (deploy/nginx/tute.conf): every socket of a
            # table to one process, chosen by the table; or each seat to another process.
            process = table_id if route == "table" else table_id + n
            clients.append(await TableClient.open(base_urls[process % len(base_urls)], table_id, s))
            opened.append(clients[-1])
        moves = 0
        # Spread the tables' moves over the second instead of all at once.
        await asyncio.sleep(rng.random() / rate)
        next_at = time.monotonic()
        while time.monotonic() < deadline and (max_moves is None or moves < max_moves):
            game = clients[0].state["game"]
            view = game["view"] if game else None
            if view is None or view["game_over"]:
                message, sender = {"type": "start"}, clients[0]
                tally.games_started += 1
            elif view["needs_deal"]:
                message, sender = {"type": "next_deal"}, clients[0]
            else:
                movers = [c for c in clients if c.view["legal_actions"]]
                if not movers:
                    tally.errors.append(f"table {table_id}: nobody may act at {view['phase']}")
                    return
                sender = rng.choice(movers)
                action = robot_choice(robot, sender.view)
                message = {"type": "act", "action": action, "count": sender.state["count"]}
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
            start = time.perf_counter()
            await sender.send(message)
            # A refusal goes to the sender alone; a change to every seat.
            waiting = f"the answer to {message}"
            answer = await asyncio.wait_for(sender.receive(), TIMEOUT)
            if answer["type"] not in ("state", "update"):
                tally.errors.append(f"table {table_id}: {message} -> {answer}")
                if answer.get("code") == "stale":
                    await asyncio.wait_for(sender.receive_state(), TIMEOUT)
                next_at += 1 / rate
                continue
            others = [c for c in clients if c is not sender]
            waiting = f"the other seats' frames after {message}"
            await asyncio.wait_for(asyncio.gather(*(c.receive() for c in others)), TIMEOUT)
            elapsed = time.perf_counter() - start
            if message["type"] == "act":
                tally.record(time.monotonic() - elapsed, elapsed, table=table_id)
                moves += 1
            next_at += 1 / rate
    except TimeoutError:
        counts = [c.state["count"] if c.state else None for c in clients]
        tally.errors.append(
            f"table {table_id}: no frame in {TIMEOUT} s waiting for {waiting}"
            f" (the seats' last counts: {counts})"
        )
    except (OSError, KeyError) as exc:
        tally.errors.append(f"table {table_id}: {type(exc).__name__} {exc}")
    except Exception as exc:  # a closed socket or a bad frame: counted, the others go on
        tally.errors.append(f"table {table_id}: {type(exc).__name__} {exc}")


async def echo_group(
    base_url: str, group: int, tally: Tally, *, deadline: float, rate: float, seed: int
) -> None:
    """The baseline: four sockets in one echo group; one sends, all four receive it."""
    from websockets.asyncio.client import connect

    rng = random.Random(seed)
    url = base_url.replace("http://", "ws://") + f"/ws/echo/g{group}/"
    sockets = []
    try:
        sockets = [
            await connect(url, origin=base_url, proxy=None, compression=None)
            for _ in range(PLAYERS)
        ]
        await asyncio.sleep(rng.random() / rate)
        next_at = time.monotonic()
        payload = json.dumps({"type": "act", "action": {"seat": 1, "play": "12O"}, "count": 3})
        while time.monotonic() < deadline:
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
            start = time.perf_counter()
            await rng.choice(sockets).send(payload)
            await asyncio.wait_for(asyncio.gather(*(s.recv() for s in sockets)), TIMEOUT)
            tally.record(time.monotonic(), time.perf_counter() - start)
            next_at += 1 / rate
    except Exception as exc:
        tally.errors.append(f"echo {group}: {type(exc).__name__} {exc}")
    finally:
        for s in sockets:
            await s.close()


async def run_tables(
    base_urls: list[str],
    tables: list[tuple[int, list[str]]],
    *,
    seconds: float,
    rate: float = 1.0,
    max_moves: int | None = None,
    mark=None,
    route: str = "table",
) -> Tally:
    """Play the tables until `seconds` have passed. `mark(name)` is called once the warm-up
    is over, every table moving ("steady"), and at the deadline ("end")."""
    tally = Tally(tables=len(tables))
    start = time.monotonic()
    tally.deadline = start + seconds
    opened: list = []

    async def steady() -> None:
        await tally.all_moving.wait()
        await asyncio.sleep(max(0.0, start + WARM_UP - time.monotonic()))
        tally.steady_from = time.monotonic()
        if mark is not None:
            mark("steady")

    watch = asyncio.ensure_future(steady())
    if mark is not None:
        asyncio.get_running_loop().call_at(start + seconds, mark, "end")
    try:
        await asyncio.gather(
            *(
                play_table(
                    base_urls,
                    table_id,
                    sessions,
                    tally,
                    deadline=start + seconds,
                    rate=rate,
                    max_moves=max_moves,
                    seed=n,
                    opened=opened,
                    route=route,
                )
                for n, (table_id, sessions) in enumerate(tables)
            )
        )
        tally.elapsed = time.monotonic() - start
        tally.gaps = sum(client.gaps for client in opened)
    finally:
        watch.cancel()
        await asyncio.gather(*(client.close() for client in opened), return_exceptions=True)
    return tally


async def run_echo(base_url: str, groups: int, *, seconds: float, rate: float) -> Tally:
    tally = Tally()
    start = time.monotonic()
    await asyncio.gather(
        *(
            echo_group(base_url, n, tally, deadline=start + seconds, rate=rate, seed=n)
            for n in range(groups)
        )
    )
    tally.elapsed = time.monotonic() - start
    return tally


# --- Processes, read from /proc (no psutil needed) ------------------------------------------

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def pids_named(name: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == name:
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


class Sampler:
    """CPU (% of one core) and peak memory of named processes over a window. A process that
    starts during the window (a PostgreSQL backend for a new connection) counts from its start;
    one that ends before the report is not counted."""

    def __init__(self, processes: dict[str, Any]) -> None:
        self.processes = processes  # name -> a function giving the pids now
        self.cpu0: dict[int, float] = {}
        self.seen: dict[str, set[int]] = {name: set() for name in processes}
        self.peak = {n: 0.0 for n in processes}
        self._discover(at_start=True)
        self.t0 = time.monotonic()

    @staticmethod
    def _cpu(pid: int) -> float | None:
        try:
            return cpu_seconds(pid)
        except OSError:
            return None  # gone

    def _discover(self, at_start: bool = False) -> dict[str, list[int]]:
        now = {}
        for name, pids in self.processes.items():
            now[name] = pids()
            for pid in now[name]:
                if pid not in self.cpu0:
                    self.cpu0[pid] = (self._cpu(pid) or 0.0) if at_start else 0.0
                    self.seen[name].add(pid)
        return now

    def sample(self) -> None:
        for name, pids in self._discover().items():
            mem = 0.0
            for pid in pids:
                try:
                    mem += rss_mb(pid)
                except OSError:
                    continue
            self.peak[name] = max(self.peak[name], mem)

    def cpu_now(self, name: str) -> float:
        """CPU seconds the processes named `name` used so far (from their start)."""
        return sum(self._cpu(pid) or 0.0 for pid in self.processes[name]())

    def report(self) -> dict[str, dict[str, float]]:
        wall = time.monotonic() - self.t0
        used = {}
        for name, pids in self.seen.items():
            total = 0.0
            for pid in pids:
                now = self._cpu(pid)
                if now is not None:
                    total += now - self.cpu0[pid]
            used[name] = total
        return {
            name: {
                "cpu_percent": round(used[name] / wall * 100, 1),
                "cpu_seconds": round(used[name], 2),
                "peak_rss_mb": round(self.peak[name], 1),
            }
            for name in self.processes
        }


async def sampled(coro, sampler: Sampler):
    task = asyncio.ensure_future(coro)
    while not task.done():
        sampler.sample()
        await asyncio.wait([task], timeout=1.0)
    return task.result()


# --- A whole run --------------------------------------------------------------------------


@contextlib.contextmanager
def collector_paused():
    """No cyclic garbage collection in this client while a step is timed: a full pass of it
    stopped every client socket for about 100 ms, and counted as the server's latency. What
    the step leaves is collected after it."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect()


def make_tables(count: int) -> list[tuple[int, list[str]]]:
    """`count` full 4-player tute tables (pairs, five deals to win: long games)."""
    from bench.client import session_cookie
    from bench.players import new_player
    from games.table import seating

    tables = []
    for _ in range(count):
        users = [new_player(chips=1000) for _ in range(PLAYERS)]
        table = seating.table_create(
            master=users[0],
            options={"variant": "tute", "players": PLAYERS, "pairs": True, "rounds": 5},
        )
        for user in users[1:]:
            seating.table_sit(table_id=table.pk, user=user)
        tables.append((table.pk, [session_cookie(u) for u in users]))
    return tables


def py_spy(pid: int, out: Path, seconds: float):
    """py-spy sampling process `pid` (every thread, idle ones left out) for `seconds`, its
    stacks written to `out` (collapsed, one line a stack: flame graph tools read them)."""
    import shutil
    import subprocess
    import sys

    tool = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    return subprocess.Popen(
        [
            *(tool, "record", "-p", str(pid), "-d", str(max(1, int(seconds))), "-r", "100"),
            *("--format", "raw", "-o", str(out), "--nonblocking"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def load_run(
    steps: list[int],
    seconds: float,
    rate: float,
    daphnes: int = 1,
    emit=None,
    profile: Path | None = None,
    route: str = "table",
) -> list[dict[str, Any]]:
    """`profile`: a folder where py-spy writes each daphne process's stacks over each step's
    steady window (py-spy must be installed: `pip install py-spy`)."""
    """Play `steps[0]` tables for `seconds`, then `steps[1]`, ... on the same servers, then the
    echo baseline at the largest step; `emit` gets each figure as it is measured."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tute_site.settings")
    os.environ.setdefault("CHANNEL_PREFIX", f"tute-load-{os.getpid()}")
    import django

    django.setup()
    from django.conf import settings
    from django.db import connections
    from django.test.utils import setup_databases, teardown_databases

    from bench.processes import child_env, database_url, running_daphne, start_celery_worker, stop

    if not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"):
        raise SystemExit("the load tool runs on PostgreSQL: set DATABASE_URL")
    if not os.environ.get("REDIS_URL"):
        raise SystemExit("the load tool runs on Redis: set REDIS_URL")
    workdir = Path(tempfile.mkdtemp(prefix="tute-load-"))
    db = settings.DATABASES["default"]
    db.setdefault("TEST", {})["NAME"] = f"load_{db['NAME']}_{os.getpid()}"
    db.get("OPTIONS", {}).pop("pool", None)  # this process only makes the tables
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    old = setup_databases(verbosity=0, interactive=False)
    results: list[dict[str, Any]] = []

    def report(line: dict[str, Any]) -> None:
        results.append(line)
        if emit is not None:
            emit(line)

    try:
        # Fresh tables for each step: a table whose sockets closed has robots at its seats.
        made = make_tables(sum(steps))
        connections.close_all()
        # A queue of this run's own: no task of another run on the same Redis reaches it.
        queue = f"load-{os.getpid()}"
        env = child_env(database_url(), CELERY_QUEUE=queue)
        worker = start_celery_worker(queue, workdir / "celery.log")
        try:
            with contextlib.ExitStack() as stack:
                sites = [
                    stack.enter_context(running_daphne(env, workdir / f"daphne-{n}.log"))
                    for n in range(daphnes)
                ]
                daphne_pids = [
                    p
                    for p in pids_named("python") + pids_named("daphne")
                    if any(_serves(p, site) for site in sites)
                ]
                for step, tables in enumerate(steps):
                    first = sum(steps[:step])
                    sampler = Sampler(
                        {
                            f"daphne (x{daphnes})": lambda: daphne_pids,
                            "celery_worker": lambda: [worker.pid],
                            "load_client": lambda: [os.getpid()],
                            "redis_server (shared)": lambda: pids_named("redis-server"),
                            "postgres (shared, all)": lambda: pids_named("postgres"),
                        }
                    )
                    marks: dict[str, float] = {}
                    profiling: list = []
                    step_deadline = time.monotonic() + seconds

                    def mark(
                        name: str,
                        sampler=sampler,
                        marks=marks,
                        profiling=profiling,
                        step_deadline=step_deadline,
                        tables=tables,
                    ) -> None:
                        marks[name] = sampler.cpu_now(f"daphne (x{daphnes})")
                        if name == "steady" and profile is not None:
                            profiling.extend(
                                py_spy(
                                    pid,
                                    profile / f"daphne-{tables}-{pid}.txt",
                                    step_deadline - time.monotonic(),
                                )
                                for pid in daphne_pids
                            )

                    with collector_paused():
                        live = asyncio.run(
                            sampled(
                                run_tables(
                                    sites,
                                    made[first : first + tables],
                                    seconds=seconds,
                                    rate=rate,
                                    mark=mark,
                                    route=route,
                                ),
                                sampler,
                            )
                        )
                    processes = sampler.report()
                    for spy in profiling:
                        spy.wait(timeout=30)
                    # The clients have closed their sockets: let daphne finish with them
                    # (a consumer still leaving when daphne stops logs its cancellation).
                    time.sleep(3)
                    figures = live.figures("load", tables)
                    if os.environ.get("LOAD_TRACE"):
                        # Every move's (sent at, seconds), for a look at when the slow ones came.
                        Path(f"{os.environ['LOAD_TRACE']}-{tables}.json").write_text(
                            json.dumps([[sent - live.started, t] for sent, t in live.moves])
                        )
                    daphne_cpu = processes[f"daphne (x{daphnes})"]["cpu_seconds"]
                    steady_moves = round(
                        figures["moves_per_s_steady"]
                        * (live.deadline - (live.steady_from or live.deadline))
                    )
                    figures.update(
                        daphnes=daphnes,
                        route=route,
                        # Daphne's CPU over the steady window alone (every socket connected,
                        # none closing yet) by the moves sent in it: what a move costs.
                        daphne_cpu_ms_per_move_steady=round(
                            (marks.get("end", 0) - marks.get("steady", 0))
                            * 1000
                            / max(steady_moves, 1),
                            2,
                        ),
                        # Every move of the step, its pushes and sockets, on daphne's CPU (the
                        # step's connections and syncs too: an upper bound).
                        daphne_cpu_ms_per_move=round(
                            daphne_cpu * 1000 / max(figures["moves"], 1), 2
                        ),
                        games_started=live.games_started,
                        daphne_tracebacks=sum(
                            _serving_part(workdir / f"daphne-{n}.log").count("Traceback")
                            for n in range(daphnes)
                        ),
                    )
                    report(figures)
                    report({"bench": "processes", "tables": tables, **processes})
            with (
                running_daphne(
                    env, workdir / "echo.log", app="bench.echo_asgi:application"
                ) as echo,
                collector_paused(),
            ):
                echo_pids = [p for p in pids_named("python") if _serves(p, echo)]
                echo_cpu = sum(cpu_seconds(p) for p in echo_pids)
                bare = asyncio.run(run_echo(echo, max(steps), seconds=min(seconds, 30), rate=rate))
                echo_cpu = sum(cpu_seconds(p) for p in echo_pids) - echo_cpu
        finally:
            stop(worker, timeout=15)
        baseline = bare.figures("echo-baseline", max(steps))
        # The echo daphne's CPU a message (sent once, received by four sockets): what a
        # round through Channels, Redis and the sockets costs with no work in it.
        baseline["daphne_cpu_ms_per_message"] = round(
            echo_cpu * 1000 / max(baseline["moves"], 1), 2
        )
        report(baseline)
        largest = [r for r in results if r["bench"] == "load"][-1]
        report(
            {
                "bench": "load-vs-echo",
                "tables": largest["tables"],
                "median_ratio": round(largest["median_ms"] / max(baseline["median_ms"], 1e-9), 2),
                "p99_ratio": round(largest["p99_ms"] / max(baseline["p99_ms"], 1e-9), 2),
                "steady_p99_ratio": round(
                    largest["p99_after_warm_up_ms"] / max(baseline["p99_after_warm_up_ms"], 1e-9),
                    2,
                ),
                # A move's daphne CPU against a bare echo's, both measured in this run.
                "cpu_ratio": round(
                    largest["daphne_cpu_ms_per_move_steady"]
                    / max(baseline["daphne_cpu_ms_per_message"], 1e-9),
                    2,
                ),
            }
        )
        # Sustained: over the steady window, once every socket is connected and every table
        # moving (the arrival burst is in `p99_ms`), with no error and no update missed.
        held = [
            r
            for r in results
            if r["bench"] == "load"
            and r["p99_after_warm_up_ms"] < 250
            and not r["errors"]
            and not r["updates_missed"]
        ]
        report(
            {
                "bench": "load-capacity",
                "most_moves_per_s_with_p99_under_250ms": max(
                    (r["moves_per_s_steady"] for r in held), default=0
                ),
                "at_tables": (
                    max(held, key=lambda r: r["moves_per_s_steady"])["tables"] if held else None
                ),
            }
        )
    finally:
        connections.close_all()
        teardown_databases(old, verbosity=0)
    return results


def _serving_part(log: Path) -> str:
    """A daphne log up to its shutdown (after it, the cancelled consumers' cleanup may log)."""
    text = log.read_text()
    return text.split("Killed ", 1)[0]


def _serves(pid: int, base_url: str) -> bool:
    """Whether process `pid` is the daphne listening on `base_url`'s port."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return b"daphne" in cmdline and base_url.rsplit(":", 1)[1].encode() in cmdline


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tables",
        default="20",
        help="tables, or steps of a sweep played one after the other: 25,50,100",
    )
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--rate", type=float, default=1.0, help="moves a second per table")
    parser.add_argument("--daphnes", type=int, default=1, help="daphne processes")
    parser.add_argument(
        "--route",
        choices=["table", "spread"],
        default="table",
        help="table: a table's sockets to one daphne, as the shipped nginx routes them;"
        " spread: each seat of a table to another daphne (every push crosses processes)",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        help="a folder for py-spy's samples of each daphne over each step's steady window",
    )
    args = parser.parse_args()
    steps = [int(n) for n in str(args.tables).split(",")]
    if args.profile is not None:
        args.profile.mkdir(parents=True, exist_ok=True)
    load_run(
        steps,
        min(args.seconds, 600),
        args.rate,
        args.daphnes,
        emit=lambda line: print(json.dumps(line), flush=True),
        profile=args.profile,
        route=args.route,
    )


if __name__ == "__main__":
    main()
