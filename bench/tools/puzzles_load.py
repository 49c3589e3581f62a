"""Live play's p99 alone, then while the slow lane mines finished games for puzzles (issue 36).

    python -m bench.tools.puzzles_load [--games 1000] [--tables 20] [--seconds 60] [--rate 1.0]

It stores `--games` finished 2-player games (habanero and 2-player tute, a careless robot
against the heuristic, seeded: the same games each run) in a throwaway PostgreSQL database of
its own, then runs the load tool (bench/tools/load/: `--tables` real tables of robots over
WebSockets, a daphne, a prompt Celery worker) twice:

1. alone: the figure to hold;
2. while a slow Celery worker, as production runs it (one process, nice 19, the slow queue),
   mines the stored games, one `puzzles.mine_game` task each, queued at low priority all at
   once before the run starts.

It prints a JSON line per measure, then `puzzles-load`: both steady 99th percentiles (once
every table moves), their ratio, `within_10_percent`, and how many games were mined during
the second run. The mining runs on its own database beside the live tables' (same
PostgreSQL server, same Redis, same cores): what it competes with live play for is the
machine. Everything listens on 127.0.0.1 and stops by itself.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

SLOW_NICE = 19  # as the slow worker runs in production (Makefile, deploy/systemd)


def played(options: dict[str, Any], seed: int, careless: Any) -> Any:
    """A whole game, ``careless`` (a robot) at seat 0 against the heuristic: its end state."""
    import random

    from games.bots import HeuristicBot, bot_play, seat_to_act
    from games.engine import new_game

    state = new_game(options, random.Random(seed), first_dealer=seed % 2)
    bots = [careless, HeuristicBot(random.Random(f"{seed}:1"))]
    while not state.over:
        if state.needs_deal:
            state.deal_next(random.Random(f"{seed}:deal{state.deal_index}"))
            continue
        seat = seat_to_act(state)
        bot_play(bots[seat], state, seat)
    return state


def store_games(count: int) -> int:
    """``count`` finished 2-player games, as the games app stores them; how many."""
    import random

    from django.utils import timezone

    from games.bots import RandomBot
    from games.models import Game

    variants = ({"variant": "habanero", "points_to_win": 1}, {"variant": "tute", "players": 2})
    games = []
    for number in range(count):
        options = variants[number % 2]
        state = played(options, number, RandomBot(random.Random(f"{number}:0")))
        outcome = state.outcome()
        now = timezone.now()
        games.append(
            Game(
                variant=options["variant"],
                options=state.options.to_dict(),
                record=state.to_record(),
                status=Game.Status.FINISHED,
                competitive=False,
                result={"winner": outcome.winner, "score": list(outcome.score)},
                finished_at=now,
                ended_at=now,
            )
        )
    Game.objects.bulk_create(games, batch_size=200)
    return count


def live_p99(tables: int, seconds: float, rate: float) -> dict[str, Any]:
    """One step of the load tool; its `load` line (every figure it printed goes out too)."""
    from bench.tools.load.run import load_run

    results = load_run([tables], seconds, rate, emit=lambda line: print(json.dumps(line)))
    return next(line for line in results if line["bench"] == "load")


def run(games: int, tables: int, seconds: float, rate: float) -> dict[str, Any]:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tute_site.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.db import connections
    from django.test.utils import setup_databases, teardown_databases

    from bench.support.processes import start_celery_worker, stop
    from games.models import Game
    from games.puzzles.models import MinedGame, Puzzle
    from games.puzzles.tasks import mine_game
    from games.tasks import LOW_PRIORITY
    from tute_site.celery import slow_queue

    if not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"):
        raise SystemExit("the puzzles load tool runs on PostgreSQL: set DATABASE_URL")
    if not os.environ.get("REDIS_URL"):
        raise SystemExit("the puzzles load tool runs on Redis: set REDIS_URL")
    db = settings.DATABASES["default"]
    db.setdefault("TEST", {})["NAME"] = f"puzzles_load_{db['NAME']}_{os.getpid()}"
    db.get("OPTIONS", {}).pop("pool", None)
    old = setup_databases(verbosity=0, interactive=False)
    workdir = Path(tempfile.mkdtemp(prefix="tute-puzzles-load-"))
    try:
        started = time.monotonic()
        store_games(games)
        print(
            json.dumps(
                {
                    "bench": "games-stored",
                    "games": games,
                    "seconds": round(time.monotonic() - started, 1),
                }
            ),
            flush=True,
        )
        alone = live_p99(tables, seconds, rate)
        # The slow worker, on this tool's database, with its queue of its own.
        queue = f"puzzles-load-{os.getpid()}"
        worker = start_celery_worker(slow_queue(queue), workdir / "slow.log")
        os.setpriority(os.PRIO_PROCESS, worker.pid, SLOW_NICE)
        try:
            for game_id in Game.objects.values_list("pk", flat=True):
                mine_game.apply_async((game_id,), priority=LOW_PRIORITY, queue=slow_queue(queue))
            connections.close_all()
            before = MinedGame.objects.count()
            mining = live_p99(tables, seconds, rate)
            during = MinedGame.objects.count() - before
        finally:
            stop(worker, timeout=15)
        ratio = mining["p99_after_warm_up_ms"] / max(alone["p99_after_warm_up_ms"], 1e-9)
        line = {
            "bench": "puzzles-load",
            "tables": tables,
            "p99_alone_ms": alone["p99_after_warm_up_ms"],
            "p99_while_mining_ms": mining["p99_after_warm_up_ms"],
            "p99_ratio": round(ratio, 3),
            "within_10_percent": ratio <= 1.10,
            "games_mined_during_run": during,
            "puzzles_stored": Puzzle.objects.count(),
            "errors": mining["errors"] + alone["errors"],
        }
        print(json.dumps(line), flush=True)
        return line
    finally:
        connections.close_all()
        teardown_databases(old, verbosity=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="finished games to mine")
    parser.add_argument("--tables", type=int, default=20, help="live tables of the load tool")
    parser.add_argument("--seconds", type=float, default=60.0, help="each run's length")
    parser.add_argument("--rate", type=float, default=1.0, help="moves a second per table")
    args = parser.parse_args()
    run(args.games, args.tables, min(args.seconds, 600), args.rate)


if __name__ == "__main__":
    main()
