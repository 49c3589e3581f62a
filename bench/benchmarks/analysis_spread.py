"""Does the analysis tell a good player from a bad one? Its accuracy, measured on robots.

The `random` robot and the `hard` robot play each other (seats alternating, as the arena
seats them); each game is analysed as a finished game is on the site
(games/bots/analysis.py), with playouts as the bound instead of a clock, so that the figures
are the same on any machine and under any load. For each robot the bench prints its mean
accuracy over its seats' games, their standard deviation, and the count of analysed seats.

A decision that is no choice (every legal action worth the same, within an inaccuracy) is
not counted: before it was, a player throwing any card scored about 87% in habanero, since
most early cards change nothing. The README gives the figures of a full run.

    python -m bench.benchmarks.analysis_spread [--games 100] [--playouts 300] [--think 200]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from games.bots.analysis import accuracy_of, analyse_record, seat_marks
from games.bots.arena import make_bot, play_game, seating
from games.engine import Options

# Both variants of two players, and one of four (RULES.md §3).
TABLES = (
    {"variant": "habanero", "players": 2, "points_to_win": 1},
    {"variant": "tute", "players": 2},
    {"variant": "tute", "players": 4, "pairs": True},
)
ROBOTS = {"a": "random", "b": "hard"}


def accuracies(
    options: dict[str, Any], *, games: int, playouts: int, think: int, seed: int = 0
) -> dict[str, list[float]]:
    """Each robot's accuracy in each of its seats of `games` analysed games (a seat with no
    decision to count gives none). `think` bounds the hard robot's playouts a decision."""
    rules = Options.from_dict(options)
    found: dict[str, list[float]] = {name: [] for name in ROBOTS.values()}
    for game in range(games):
        seats = seating(rules.players, game)
        bots = {
            r: make_bot(name, random.Random(f"{seed}:{game}:{r}"), iterations=think)
            for r, name in ROBOTS.items()
        }
        state = play_game(rules, [bots[r] for r in seats], random.Random(f"{seed}:{game}:deal"))
        data = analyse_record(state.to_record(), seconds=None, playouts=playouts, seed=game)
        for seat, robot in enumerate(seats):
            accuracy = accuracy_of(seat_marks(data, seat))
            if accuracy is not None:
                found[ROBOTS[robot]].append(accuracy)
    return found


def summary(found: dict[str, list[float]]) -> dict[str, Any]:
    return {
        name: {
            "mean": round(statistics.mean(values), 1) if values else None,
            "sd": round(statistics.pstdev(values), 1) if values else None,
            "seats": len(values),
        }
        for name, values in found.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--playouts", type=int, default=300)
    parser.add_argument("--think", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for options in TABLES:
        start = time.perf_counter()
        found = accuracies(
            options, games=args.games, playouts=args.playouts, think=args.think, seed=args.seed
        )
        row = {"bench": "analysis_spread", **options, "games": args.games, **summary(found)}
        row["seconds"] = round(time.perf_counter() - start, 1)
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
