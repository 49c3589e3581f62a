"""The fault tool's arena run at a size that fits CI (bench/tools/arena_faults.py; `python -m
bench.tools.arena_faults` runs it bigger): six players play an arena of a minute on two daphne
processes while a daphne, the Celery worker and Redis are each killed and started again.
Then the arena ended, no game was lost or scored twice, the pot was paid once and the chips
ledger balances."""

import json

import pytest

from bench.support.processes import database_url
from bench.tools.arena_faults import run_arena_with_cluster

pytestmark = [
    pytest.mark.services,
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("alone"),  # it kills processes at moments it times
]


def test_an_arena_survives_killed_daphne_worker_and_redis_and_pays_once(tmp_path):
    lines = run_arena_with_cluster(
        database_url(), tmp_path, players=6, seconds=60, kills=3, seed=26, settle=60
    )
    for line in lines:
        print(json.dumps(line, default=str))
    play, done, books, arena = lines
    logs = f"logs in {tmp_path}: {books} {arena}"
    kills = done["kills"]
    assert kills.get("daphne", 0) and kills.get("worker", 0) and kills.get("redis", 0), done
    assert play["podiums_seen"] == 1, play
    assert arena["arena_finished"] and arena["arena_games"] >= 6, logs
    assert arena["unscored"] == 0 and arena["games_not_scored_once"] == 0, logs
    assert arena["scores_not_matching_games"] == 0, logs
    assert arena["arena_pot_left"] == 0 and arena["arena_payouts"] == 1, logs
    assert arena["arena_entries"] == 6 and arena["podium_trophies"] >= 4, logs
    assert books["lost"] == 0 and books["missing_results"] == 0, logs
    assert books["unawarded"] == 0 and books["double_awards"] == 0, logs
    assert books["ledger_imbalance"] == 0 and books["balances_not_matching_entries"] == 0, logs
    assert books["records_not_replaying"] == 0, logs
