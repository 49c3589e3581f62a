"""A whole run of the load tool: the servers started, the tables played, the figures."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.support.processes import ROOT
from bench.tools.load.clients import PLAYERS, run_echo, run_tables
from bench.tools.load.sampling import Sampler, cpu_seconds, pids_named, sampled

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
    from bench.support.client import session_cookie
    from bench.support.players import new_player
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

    tool = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    return subprocess.Popen(
        [
            *(tool, "record", "-p", str(pid), "-d", str(max(1, int(seconds))), "-r", "100"),
            *("--format", "raw", "-o", str(out), "--nonblocking"),
            # e.g. LOAD_PY_SPY="--gil": only the thread holding the GIL, the Python CPU.
            *os.environ.get("LOAD_PY_SPY", "").split(),
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

    from bench.support.processes import (
        child_env,
        database_url,
        running_daphne,
        start_celery_worker,
        stop,
    )

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
            # The baselines run from this checkout's code whichever the site's is
            # (TUTE_SERVER_ROOT): the same two floors under every version measured.
            with (
                running_daphne(
                    env,
                    workdir / "echo.log",
                    app="bench.support.echo_asgi:application",
                    root=ROOT,
                ) as echo,
                collector_paused(),
            ):
                echo_pids = [p for p in pids_named("python") if _serves(p, echo)]
                echo_cpu = sum(cpu_seconds(p) for p in echo_pids)
                bare = asyncio.run(run_echo(echo, max(steps), seconds=min(seconds, 30), rate=rate))
                echo_cpu = sum(cpu_seconds(p) for p in echo_pids) - echo_cpu
            with running_fanout(workdir / "fanout.log") as (fanout, fanout_pid), collector_paused():
                fanout_cpu = cpu_seconds(fanout_pid)
                floor = asyncio.run(
                    run_echo(fanout, max(steps), seconds=min(seconds, 30), rate=rate)
                )
                fanout_cpu = cpu_seconds(fanout_pid) - fanout_cpu
        finally:
            stop(worker, timeout=15)
        baseline = bare.figures("echo-baseline", max(steps))
        # The echo daphne's CPU a message (sent once, received by four sockets): what a
        # round through Channels, Redis and the sockets costs with no work in it.
        baseline["daphne_cpu_ms_per_message"] = round(
            echo_cpu * 1000 / max(baseline["moves"], 1), 2
        )
        report(baseline)
        bare_floor = floor.figures("fanout-baseline", max(steps))
        # The same messages through a bare `websockets` fan-out (bench/support/fanout_ws.py).
        bare_floor["cpu_ms_per_message"] = round(fanout_cpu * 1000 / max(bare_floor["moves"], 1), 2)
        report(bare_floor)
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
                "cpu_ratio_to_fanout": round(
                    largest["daphne_cpu_ms_per_move_steady"]
                    / max(bare_floor["cpu_ms_per_message"], 1e-9),
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


@contextlib.contextmanager
def running_fanout(log_path: Path):
    """The bare fan-out server on a free port: (its base URL, its pid)."""
    from bench.support.processes import free_port, stop, wait_for_port

    port = free_port()
    with log_path.open("w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "bench.support.fanout_ws", "--port", str(port)],
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_for_port(port, process)
            yield f"http://127.0.0.1:{port}", process.pid
        finally:
            stop(process, timeout=10)


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
