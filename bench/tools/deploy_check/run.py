"""The deploy check's whole run: every check, on a throwaway database, and its report."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.support.processes import ROOT
from bench.tools.deploy_check.games import game_books, make_table, play_one_game
from bench.tools.deploy_check.proxy import (
    ALICIA,
    BRUNO,
    HOUSE,
    ProxiedCluster,
    Proxy,
    ensure_nginx,
)
from bench.tools.deploy_check.site import (
    deploy_settings,
    first_administrator,
    login_limit,
    static_served,
)
from bench.tools.faults.run import on_throwaway_database

# --- The run --------------------------------------------------------------------------------


def units_verified(workdir: Path) -> dict[str, Any]:
    """`systemd-analyze verify` on the shipped units, served from this checkout (a daphne
    on port 8001 for the template), where the machine has it."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        return {"check": "systemd-analyze verify", "ok": None, "skipped": "not installed"}
    units = workdir / "units"
    units.mkdir()
    names = []
    for unit in sorted((ROOT / "deploy" / "systemd").glob("*.service")):
        name = unit.name.replace("@.service", "@8001.service")
        (units / name).write_text(unit.read_text().replace("/srv/tute", str(ROOT)))
        names.append(f"./{name}")
    done = subprocess.run(
        [analyze, "verify", *names], cwd=units, capture_output=True, text=True, check=False
    )
    said = (done.stdout + done.stderr).strip()
    return {"check": "systemd-analyze verify", "ok": done.returncode == 0, "said": said}


def checks(database_url: str, workdir: Path, *, login_limit_count: int) -> list[dict[str, Any]]:
    from django.db import connections

    from bench.support.players import new_player

    cluster = ProxiedCluster(workdir, database_url)
    proxy = Proxy(workdir, cluster.ports)
    cluster.origin = proxy.url
    lines: list[dict[str, Any]] = [
        {"check": "nginx -t", "ok": True, "said": proxy.test()},
        units_verified(workdir),
        {"check": "manage.py check --deploy", **deploy_settings(cluster.env())},
    ]
    try:
        cluster.start()
        proxy.start()
        alicia, bruno, carla, dani = (new_player(chips=1000) for _player in range(4))
        counted = make_table([alicia, bruno])
        shared = make_table([carla, dani])
        connections.close_all()

        def kill_each_daphne() -> None:
            # SIGKILL, mid-game, one after the other: whichever held a socket, it drops.
            for n in range(len(cluster.daphnes)):
                cluster._kill(cluster.daphnes[n])
                time.sleep(1)
                cluster.start_daphne(n)

        played = asyncio.run(
            play_one_game(proxy.url, counted, [ALICIA, BRUNO], forged=True, kill=kill_each_daphne)
        )
        books = game_books(counted.table_id)
        lines.append(
            {
                "check": "different addresses count, whatever they forge",
                "ok": books["exclusion"] == ""
                and books["addresses"] == [ALICIA, BRUNO]
                and books["rating_changes"] == 2
                and books["on_boards"] >= 2,
                **books,
            }
        )
        lines.append(
            {
                "check": "a daphne killed mid-game loses nothing",
                "ok": played["killed"]
                and played["closed"] >= 2
                and books["payouts"] == 1
                and books["xp_events"] == 2,
                **played,
            }
        )
        asyncio.run(play_one_game(proxy.url, shared, [HOUSE, HOUSE], forged=False))
        books = game_books(shared.table_id)
        lines.append(
            {
                "check": "one address is excluded as same-address",
                "ok": books["exclusion"] == "same_ip" and books["addresses"] == [HOUSE, HOUSE],
                **books,
            }
        )
        static = static_served(proxy.url)
        lines.append(
            {
                "check": "static files from nginx, cached for a year",
                "ok": static["status"] == 200
                and "max-age=31536000, immutable" in static["cache_control"]
                and static["bytes"] > 0,
                **static,
            }
        )
        admin = first_administrator(proxy.url, cluster.env())
        lines.append(
            {
                "check": "the first administrator reaches the admin",
                "ok": admin["logged_in"] and admin["admin"] == 200 and admin["moderation"],
                **admin,
            }
        )
        limits = login_limit(proxy.url, login_limit_count)
        lines.append(
            {
                "check": "the login limit counts per client",
                "ok": limits["failed_as_expected"] == login_limit_count
                and limits["same_address_refused"]
                and limits["other_address_let_in"],
                **limits,
            }
        )
        daphne_tracebacks, _library = cluster.tracebacks("daphne")
        worker_tracebacks, _library = cluster.tracebacks("worker")
        lines.append(
            {
                "check": "no traceback in daphne's and the worker's logs",
                "ok": not daphne_tracebacks and not worker_tracebacks,
                "daphne": daphne_tracebacks[:3],
                "worker": worker_tracebacks[:3],
            }
        )
    finally:
        proxy.stop()
        cluster.stop()
        connections.close_all()
    return lines


def run(login_limit_count: int) -> list[dict[str, Any]]:
    os.environ["LOGIN_FAILURES_PER_ADDRESS"] = str(login_limit_count)
    ensure_nginx()
    return on_throwaway_database(
        "deploy_check",
        lambda url, workdir: checks(url, workdir, login_limit_count=login_limit_count),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--login-limit", type=int, default=50, help="failed logins an address may make"
    )
    parser.add_argument("--keep-logs", action="store_true", help="keep the processes' logs")
    args = parser.parse_args()
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tute")
    lines = run(args.login_limit)
    for line in lines:
        print(json.dumps(line), flush=True)
    if not args.keep_logs:
        shutil.rmtree(lines[-1]["workdir"], ignore_errors=True)
    failed = [line["check"] for line in lines if line.get("ok") is False]
    if failed:
        print(f"deploy-check: FAILED: {', '.join(failed)}", file=sys.stderr)
        raise SystemExit(1)
    print("deploy-check: every check passed", file=sys.stderr)
