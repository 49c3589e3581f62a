"""A whole fault run: its throwaway database, the cluster, the play, the books, the report."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from bench.support.processes import (
    database_url,
)
from bench.tools.faults.books import check_books, wait_for_the_end
from bench.tools.faults.cluster import REDIS_SERVER, Cluster
from bench.tools.faults.play import FAULT_KINDS, make_fault_tables, play_with_faults


def report(cluster: Cluster, play: dict[str, Any], end: dict[str, Any], books: dict[str, Any]):
    kinds = Counter(f["kind"] for f in play["faults"])
    daphne, daphne_library = cluster.tracebacks("daphne")
    worker_ours, worker_library = cluster.tracebacks("worker")
    worker = worker_ours + worker_library
    return [
        {"bench": "faults", **{k: v for k, v in play.items() if k != "faults"}},
        {
            "bench": "faults-done",
            "kills": dict(kinds),
            "faults": play["faults"],
            # Processes that died of another's fault, started again by the tool's supervisor.
            "unplanned_exits": dict(cluster.unplanned_exits),
        },
        {
            "bench": "faults-books",
            **end,
            **books,
            "daphne_tracebacks": len(daphne),
            "first_daphne_tracebacks": daphne[:3],
            "daphne_channels_redis_task_errors": len(daphne_library),
            "worker_tracebacks": len(worker),
            "first_worker_tracebacks": worker[:3],
        },
    ]


def run_with_cluster(
    database_url: str,
    workdir: Path,
    *,
    tables: int,
    seconds: float,
    kills: int,
    seed: int,
    settle: float = 40.0,
    kinds: tuple[str, ...] = FAULT_KINDS,
) -> list[dict[str, Any]]:
    """The whole run on an existing (test) database: returns the report's lines. The
    caller's process must be able to write to that database (the tables are made here)."""
    from django.db import connections

    cluster = Cluster(workdir, database_url)
    try:
        cluster.start()
        specs = make_fault_tables(tables)
        connections.close_all()
        play = asyncio.run(
            play_with_faults(
                cluster, specs, seconds=seconds, kills=kills, seed=seed, settle=settle, kinds=kinds
            )
        )
        table_ids = [s.table_id for s in specs]
        end = wait_for_the_end(table_ids, timeout=30, tick=cluster.supervise)
        books = check_books(table_ids)
    finally:
        cluster.stop()
        connections.close_all()
    return report(cluster, play, end, books)


def on_throwaway_database(name: str, run: Any) -> list[dict[str, Any]]:
    """`run(database_url, workdir)` on a PostgreSQL database made for it (named after
    `name`) and dropped after it, with a work folder for the processes' logs; its report's
    lines, and the folder's in a last line."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tute_site.settings")
    os.environ["ROBOT_DELAY_SECONDS"] = "0"
    import django

    django.setup()
    from django.conf import settings
    from django.db import connections
    from django.test.utils import setup_databases, teardown_databases

    if not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"):
        raise SystemExit("the fault tool runs on PostgreSQL: set DATABASE_URL")
    if not Path(REDIS_SERVER).exists():
        raise SystemExit(f"the fault tool starts its own Redis: {REDIS_SERVER} is missing")
    workdir = Path(tempfile.mkdtemp(prefix=f"tute-{name}-"))
    db = settings.DATABASES["default"]
    db.setdefault("TEST", {})["NAME"] = f"{name}_{db['NAME']}_{os.getpid()}"
    old = setup_databases(verbosity=0, interactive=False)
    try:
        lines = run(database_url(), workdir)
    finally:
        connections.close_all()
        teardown_databases(old, verbosity=0)
    lines.append({"bench": "faults-logs", "workdir": str(workdir)})
    return lines


def fault_run(
    tables: int, seconds: float, kills: int, seed: int, kinds: tuple[str, ...] = FAULT_KINDS
) -> list[dict[str, Any]]:
    return on_throwaway_database(
        "faults",
        lambda url, workdir: run_with_cluster(
            url, workdir, tables=tables, seconds=seconds, kills=kills, seed=seed, kinds=kinds
        ),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--kills", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--kinds", default=",".join(FAULT_KINDS), help="what may be killed, comma-separated"
    )
    parser.add_argument("--keep-logs", action="store_true", help="keep the processes' logs")
    args = parser.parse_args()
    kinds = tuple(k for k in args.kinds.split(",") if k)
    if not kinds or set(kinds) - set(FAULT_KINDS):
        parser.error(f"--kinds: some of {', '.join(FAULT_KINDS)}")
    lines = fault_run(args.tables, min(args.seconds, 600), args.kills, args.seed, kinds)
    for line in lines:
        print(json.dumps(line), flush=True)
    if not args.keep_logs:
        shutil.rmtree(lines[-1]["workdir"], ignore_errors=True)
