"""`make bench`: the project's benchmarks, printed as figures and as ratios to a baseline.

Machines here are noisy, so every figure is also given relative to a baseline measured in the
same run: a fixed pure-Python workload (shuffle a 40-card deck, then pick and remove cards one
at a time, as a random player would). A ratio moves only when our code does.

    python -m tests.load.bench [--seconds S]
"""

import argparse
import json
import random
import time

from games.bots import Bot, StrongBot, get_bot
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
    for table in ({"variant": "tute", "players": 4}, {"variant": "habanero"}):
        result = strong_bench(table, args.seconds)
        result["ratio_to_baseline"] = round(result["playouts_per_s"] / base, 4)
        print(json.dumps(result))
    # The baseline again: how much the machine drifted during the run.
    print(json.dumps({"bench": "baseline-again", "plies_per_s": round(baseline(args.seconds))}))


if __name__ == "__main__":
    main()
