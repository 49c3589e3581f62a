"""The timer design's cost at 200 running tables (`make bench`).

On a fresh test database (created and dropped here, on whatever DATABASE_URL says): 200
four-player tute tables with a game running, each with its move timer set. It measures

- `sweep_idle_ms`: one sweep when no timer is due (what beat queues every second);
- `claim_200_ms`: claiming 200 due timers at once (`select_for_update(skip_locked=True)`);
- `fire_ms`: firing one due robot timer: the heuristic robot's decision from its seat's view,
  the locked action, the next timer and the pushes (one worker task);

each also as a ratio to a `SELECT 1` round trip measured in the same run, and the worker
seconds needed per second of play if every table had a robot move due every second.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from datetime import timedelta

TABLES = 200


def _setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tute_site.settings")
    # Robots wait a minute here: no timer falls due unless the bench says so.
    os.environ["ROBOT_DELAY_SECONDS"] = "60"
    import django

    django.setup()


def later_than(timezone):
    """A moment when every timer of the bench is due."""
    return timezone.now() + timedelta(minutes=5)


def _median_ms(function, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def timers_bench() -> dict:
    _setup_django()
    from django.db import connection
    from django.test.utils import setup_test_environment, teardown_test_environment
    from django.utils import timezone

    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    # A name of its own: never the test suite's database.
    connection.settings_dict.setdefault("TEST", {})["NAME"] = f"bench_timers_{os.getpid()}"
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        return _measure(connection, timezone, timedelta)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        teardown_test_environment()


def _measure(connection, timezone, timedelta) -> dict:
    from accounts.models import User
    from games import timers
    from games.models import Game, Table, TableSeat, TimerClaim
    from games.table import play, robots

    users = User.objects.bulk_create(
        User(username=f"bench{n}", email=f"bench{n}@example.com", password="!")
        for n in range(TABLES * 4)
    )
    for t in range(TABLES):
        seated = users[t * 4 : t * 4 + 4]
        # Automatic mode: every seat's moves are played by the server, as at a practice table.
        table = Table.objects.create(master=seated[0], move_time=0)
        TableSeat.objects.bulk_create(
            TableSeat(table=table, seat=n, user=user) for n, user in enumerate(seated)
        )
        play.game_start(table_id=table.pk, user=seated[0])

    def select_one() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")

    round_trip = _median_ms(select_one, 200)
    # The due-timer query as PostgreSQL runs it (server time, without the client's).
    server_ms = {}
    if connection.vendor == "postgresql":
        for name, moment in (("idle", timezone.now()), ("all_due", later_than(timezone))):
            due = timers.due_games(now=moment).values_list("pk", "deadline_count")
            sql, params = due[: timers.BATCH].query.sql_with_params()
            with connection.cursor() as cursor:
                cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql, params)
                plan = cursor.fetchone()[0]
            plan = json.loads(plan) if isinstance(plan, str) else plan
            server_ms[f"due_query_server_ms_{name}"] = round(plan[0]["Execution Time"], 3)
    sweep_idle = _median_ms(lambda: timers.sweep(), 50)
    # Every timer due: how long the sweep takes to claim them all.
    later = later_than(timezone)
    start = time.perf_counter()
    claimed = timers.claim_due_games(now=later)
    claim = (time.perf_counter() - start) * 1000
    assert len(claimed) == TABLES, len(claimed)
    # Every timer due now; fire each table's once (its next timer is a minute away).
    Game.objects.update(deadline_at=timezone.now() - timedelta(seconds=1))
    TimerClaim.objects.all().delete()
    fires = []
    for game_id, count in Game.objects.values_list("pk", "deadline_count"):
        start = time.perf_counter()
        assert robots.game_timer_fire(game_id=game_id, count=count) == 1
        fires.append((time.perf_counter() - start) * 1000)
    fire = statistics.median(fires)
    return {
        "bench": "timers",
        "tables": TABLES,
        "select1_ms": round(round_trip, 3),
        "sweep_idle_ms": round(sweep_idle, 2),
        "sweep_idle_ratio": round(sweep_idle / round_trip, 1),
        "claim_200_ms": round(claim, 2),
        "claim_200_ratio": round(claim / round_trip, 1),
        "fire_ms": round(fire, 2),
        "fire_p90_ms": round(sorted(fires)[int(len(fires) * 0.9)], 2),
        "fire_ratio": round(fire / round_trip, 1),
        "worker_s_per_s_at_one_move_per_table_per_s": round(fire * TABLES / 1000, 2),
        **server_ms,
    }


if __name__ == "__main__":
    print(json.dumps(timers_bench()))
