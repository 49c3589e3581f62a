"""`make bench`: the project's benchmarks, printed as figures and as ratios to a baseline.

Machines here are noisy, so every figure is also given relative to a baseline measured in the
same run: a fixed pure-Python workload (shuffle a 40-card deck, then pick and remove cards one
at a time, as a random player would). A ratio moves only when our code does.

Live play (tests/load/live_bench.py) is timed against a real daphne over real WebSockets: from
a card sent to the update received by every other seat of a 4-player table, median and 99th
percentile over 200 moves, beside a bare Channels echo app's fan-out measured in the same run.

    python -m tests.load.bench [--seconds S] [--moves N] [--no-live]
"""

import argparse
import json
import random
import time

from games.bots import Bot, get_bot
from games.bots.arena import play_game
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--moves", type=int, default=200, help="live-play moves to time")
    parser.add_argument("--no-live", action="store_true", help="skip the live-play bench")
    args = parser.parse_args()
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
    if not args.no_live:
        from tests.load.live_bench import live_bench
        from tests.load.timers_bench import timers_bench

        for line in live_bench(args.moves):
            print(json.dumps(line))
        # The timer design at 200 running tables, on a test database of its own.
        print(json.dumps(timers_bench()))
    # The baseline again: how much the machine drifted during the run.
    print(json.dumps({"bench": "baseline-again", "plies_per_s": round(baseline(args.seconds))}))


if __name__ == "__main__":
    main()
