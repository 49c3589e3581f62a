"""`make bench`: the project's benchmarks, printed as figures and as ratios to a baseline.

Machines here are noisy, so every figure is also given relative to a baseline measured in the
same run: a fixed pure-Python workload (shuffle a 40-card deck, then pick and remove cards one
at a time, as a random player would). A ratio moves only when our code does.

    python -m bench [--seconds S] [--arena-games N] [--moves N] [--no-live]
                               [--endgames N] [--think-games N] [--only leaderboards]

The exact solver (bench/benchmarks/solver_bench.py) is timed on a fixed set of 200 endgames, the
engine-walking solver of before against the one on the search core, in the same run.

Live play (bench/benchmarks/live_bench.py) is timed against a real daphne over real WebSockets: from
a card sent to the update received by every other seat of a 4-player table, median and 99th
percentile over 200 moves, beside a bare Channels echo app's fan-out measured in the same run.

With BENCH_DATABASE_URL pointing at a PostgreSQL database filled by
`python -m bench.tools.rankings_data` (100,000 players, 1,000,000 games), it also times each
leaderboard page against a bare Django view served by the same test client in the same run.
"""

import argparse
import json
import os
import random
import statistics
import time

from games.bots import Bot, StrongBot, get_bot
from games.bots.arena import arena, play_game
from games.engine import Action, Options, SeatView
from games.engine.bench import bench as engine_bench

CONFIGS = [
    ("tute", 4, True),
    ("tute", 4, False),
    ("tute", 3, False),
    ("tute", 2, False),
    ("habanero", 2, False),
    ("pocha", 2, False),
    ("pocha", 3, False),
    ("pocha", 4, False),
]


def baseline(seconds: float) -> float:
    """Baseline "plies" per CPU second (as the engine bench counts): pick and remove a card."""
    rng = random.Random(1)
    rnd = rng.random
    deck = list(range(40))
    plies = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        hand = deck[:]
        rng.shuffle(hand)
        while hand:
            hand.pop(int(rnd() * len(hand)))
            plies += 1
    return plies / (time.process_time() - start)


ROBOT_TABLES = [
    {"variant": "tute", "players": 4},
    {"variant": "habanero"},
    {"variant": "pocha", "players": 3},
]


class TimedBot:
    """A robot that records how long each of its decisions takes, in CPU seconds."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.times: list[float] = []

    def choose(self, view: SeatView) -> Action:
        start = time.process_time()
        action = self.bot.choose(view)
        self.times.append(time.process_time() - start)
        return action


def robot_bench(robot: str, table: dict, seconds: float) -> dict:
    """Decisions per CPU second of one robot playing every seat, and its slowest ones
    (for the heuristic, the ends of deals it counts out)."""
    rng = random.Random(5)
    timed = TimedBot(get_bot(robot, rng=rng))
    options = Options.from_dict(table)
    deadline = time.process_time() + seconds
    while time.process_time() < deadline:
        play_game(options, [timed] * options.players, rng)
    times = sorted(timed.times)
    return {
        "bench": "robot",
        "robot": robot,
        **table,
        "decisions": len(times),
        "decisions_per_s": round(len(times) / sum(times)),
        "p99_ms": round(times[int(len(times) * 0.99)] * 1000, 3),
        "max_ms": round(times[-1] * 1000, 3),
    }


# The robots' strength: 1,000-game arena runs against random (minutes each, so not in the
# test suite, whose regression floors in tests/bots/test_bots_arena.py play 100 to 300).
ARENAS = [
    {"variant": "tute", "players": 4, "seed": 1},
    {"variant": "habanero", "players": 2, "seed": 1},
]


def arena_bench(table: dict, games: int) -> dict:
    """Heuristic against random over ``games`` games: win rate, its 95% interval, and the
    CPU seconds the run took."""
    start = time.process_time()
    options = {k: v for k, v in table.items() if k != "seed"}
    result = arena("heuristic", "random", options, games=games, seed=table["seed"])
    return {
        "bench": "arena",
        **table,
        "games": games,
        "a_win_rate": result["a_win_rate"],
        "ci95": result["ci95"],
        "cpu_seconds": round(time.process_time() - start, 1),
    }


LEADERBOARD_PAGES = [
    {"board": board, "variant": variant, "page": page}
    for board in ("xp", "week", "month", "chips")
    for variant in ("", "tute")
    for page in (1, 1000)
] + [
    # The rating boards, per kind of table: the busiest kinds, and their last page reached.
    {"board": board, "variant": kind, "page": page}
    for board in ("rating", "gain")
    for kind in ("habanero", "pocha")
    for page in (1, 1000)
]


def _median_ms(client, url: str, params: dict, runs: int) -> float:
    times = []
    for _run in range(runs):
        start = time.perf_counter()
        response = client.get(url, params)
        times.append(time.perf_counter() - start)
        assert response.status_code == 200, (url, params, response.status_code)
    return statistics.median(times) * 1000


def leaderboard_bench(database_url: str, runs: int) -> list[dict]:
    """Median time of each leaderboard page (first and 1000th, anonymous and logged in as a
    middle-ranked player) against a bare Django view, in the same process and run."""
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tute_site.settings")
    os.environ["ALLOWED_HOSTS"] = "testserver"
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test import Client

    from rankings.models import BoardRow, GameResult

    settings.ROOT_URLCONF = "bench.support.bench_urls"
    settings.DEBUG = False  # no query log growing in memory
    games = GameResult.objects.count()
    # A player halfway down the all-time board: their rank is the costliest to count.
    rows = BoardRow.objects.filter(period="all", variant="", games__gt=0)
    middle = rows.order_by("-xp", "user_id").select_related("user")[rows.count() // 2].user
    anonymous, viewer = Client(), Client()
    viewer.force_login(middle)
    bare = _median_ms(anonymous, "/bench/bare/", {}, runs)
    # A second yardstick: a page of the site with its layout and no data (the home page).
    home = _median_ms(anonymous, "/", {}, runs)
    results = [
        {
            "bench": "bare-view",
            "players": rows.count(),
            "games": games,
            "median_ms": round(bare, 2),
            "db": connection.vendor,
        },
        {
            "bench": "home-page",
            "median_ms": round(home, 2),
            "ratio_to_bare_view": round(home / bare, 1),
        },
    ]
    for params in LEADERBOARD_PAGES:
        for who, client in (("anonymous", anonymous), ("player", viewer)):
            if who == "player" and params["page"] != 1:
                continue
            median = _median_ms(client, "/rankings/", params, runs)
            results.append(
                {
                    "bench": "leaderboard",
                    **params,
                    "viewer": who,
                    "median_ms": round(median, 2),
                    "ratio_to_bare_view": round(median / bare, 1),
                    "ratio_to_home_page": round(median / home, 2),
                }
            )
    return results


def strong_bench(table: dict, seconds: float, iterations: int = 200) -> dict:
    """The strong robot's playouts per CPU second (its search speed: a budget of
    ``--budget-ms`` buys this many playouts per second), on a fixed playout budget."""
    rng = random.Random(6)
    bot = StrongBot(random.Random(7), budget_ms=None, iterations=iterations)
    timed = TimedBot(bot)
    playouts = 0

    class Counting:
        name = "strong"

        def choose(self, view: SeatView) -> Action:
            nonlocal playouts
            bot.last_playouts = 0
            action = timed.choose(view)
            playouts += bot.last_playouts
            return action

    options = Options.from_dict(table)
    deadline = time.process_time() + seconds
    while time.process_time() < deadline:
        play_game(options, [Counting()] * options.players, rng)
    return {
        "bench": "strong robot",
        **table,
        "iterations": iterations,
        "decisions": len(timed.times),
        "playouts_per_s": round(playouts / sum(timed.times)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--arena-games", type=int, default=1000, help="0 skips the arenas")
    parser.add_argument("--runs", type=int, default=21, help="requests per leaderboard page")
    parser.add_argument("--only", choices=["leaderboards"], help="run only these benchmarks")
    parser.add_argument("--moves", type=int, default=200, help="live-play moves to time")
    parser.add_argument("--no-live", action="store_true", help="skip the live-play bench")
    parser.add_argument("--endgames", type=int, default=200, help="0 skips the solver bench")
    parser.add_argument(
        "--think-games", type=int, default=2, help="hard-level games timed; 0 skips them"
    )
    args = parser.parse_args()
    database_url = os.environ.get("BENCH_DATABASE_URL", "")
    if args.only == "leaderboards":
        for result in leaderboard_bench(database_url, args.runs):
            print(json.dumps(result))
        return
    base = baseline(args.seconds)
    print(json.dumps({"bench": "baseline", "plies_per_s": round(base)}))
    for variant, players, pairs in CONFIGS:
        result = engine_bench(variant, players, args.seconds, seed=7, pairs=pairs)
        result["bench"] = "engine"
        result["ratio_to_baseline"] = round(result["plies_per_s"] / base, 4)
        print(json.dumps(result))
    for table in ROBOT_TABLES:
        result = robot_bench("heuristic", table, args.seconds)
        result["ratio_to_baseline"] = round(result["decisions_per_s"] / base, 4)
        print(json.dumps(result))
    if args.arena_games:
        for table in ARENAS:
            print(json.dumps(arena_bench(table, args.arena_games)))
    if database_url.startswith(("postgres://", "postgresql://")):
        for result in leaderboard_bench(database_url, args.runs):
            print(json.dumps(result))
    else:
        print(
            json.dumps(
                {
                    "bench": "leaderboard",
                    "skipped": "set BENCH_DATABASE_URL to a database filled by "
                    "`python -m bench.tools.rankings_data`",
                }
            )
        )
    if not args.no_live:
        from bench.benchmarks.live_bench import live_bench
        from bench.benchmarks.timers_bench import timers_bench

        for line in live_bench(args.moves):
            print(json.dumps(line))
        from bench.benchmarks.move_cost import move_cost

        # A move's own CPU in the server, in-process, in units of the baseline too.
        print(json.dumps(move_cost(baseline_plies_per_s=base)))
        # The timer design at 200 running tables, on a test database of its own.
        print(json.dumps(timers_bench()))

    for table in ({"variant": "tute", "players": 4}, {"variant": "habanero"}):
        result = strong_bench(table, args.seconds)
        result["ratio_to_baseline"] = round(result["playouts_per_s"] / base, 4)
        print(json.dumps(result))
    from bench.benchmarks.solver_bench import solver_bench, think_bench

    if args.endgames:
        # Old solver against new on the same endgames, one after the other.
        for line in solver_bench(args.endgames):
            print(json.dumps(line))
    if args.think_games:
        for line in think_bench(args.think_games):
            print(json.dumps(line))
    # The baseline again: how much the machine drifted during the run.
    print(json.dumps({"bench": "baseline-again", "plies_per_s": round(baseline(args.seconds))}))


if __name__ == "__main__":
    main()
