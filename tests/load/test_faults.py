"""The fault run of issue #15 at a size that fits CI (bench/tools/faults/; `python -m
bench.tools.faults` runs it bigger): three tables play one-deal games over real WebSockets
while a daphne process, the Celery worker and Redis are each killed (SIGKILL) and started
again during play. Then no game is lost, none is awarded twice, the chips ledger balances and
every finished game's record replays to its stored result."""

import json
import shutil
from pathlib import Path

import pytest

from bench.support.processes import database_url
from bench.tools.faults.cluster import REDIS_SERVER
from bench.tools.faults.run import run_with_cluster

pytestmark = [
    pytest.mark.services,
    pytest.mark.django_db(transaction=True),
    # It kills processes at moments it times: one after the other with the others that kill
    # processes, under pytest-xdist.
    pytest.mark.xdist_group("alone"),
]


def test_games_survive_killed_daphne_worker_and_redis_and_the_books_balance(tmp_path):
    if not Path(REDIS_SERVER).exists() and not shutil.which("redis-server"):
        pytest.fail(f"the fault run starts a Redis of its own: {REDIS_SERVER} is missing")
    # 15 s of play: the three kills fall between 1.5 and 10.5 s, one after the other, and
    # each table plays a few one-deal games (11 games in 30 s when measured).
    lines = run_with_cluster(
        database_url(), tmp_path, tables=3, seconds=15, kills=3, seed=15, settle=30
    )
    for line in lines:
        print(json.dumps(line))  # shown with -s, and under a failure
    play, done, books = lines
    logs = f"logs in {tmp_path}: {books}"
    kills = done["kills"]
    assert kills.get("daphne", 0) >= 1 and kills.get("worker", 0) >= 1, done
    assert kills.get("redis", 0) >= 1, done
    assert all(fault["at_s"] < play["play_s"] for fault in done["faults"]), done
    assert books["finished"] >= 3, logs
    assert books["lost"] == 0, logs
    assert books["missing_results"] == 0 and books["unawarded"] == 0, logs
    assert books["double_awards"] == 0, logs
    assert books["unpaid_pots"] == 0, logs
    assert books["ledger_imbalance"] == 0 and books["chips_granted"] > 0, logs
    assert books["balances_not_matching_entries"] == 0, logs
    assert books["records_not_replaying"] == 0, logs
    assert books["daphne_tracebacks"] == 0, logs
