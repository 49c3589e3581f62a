"""The exact solver's speed, old code against new in one run, and the hard level's think time.

``solver``: a fixed set of 200 endgames (every run the same ones: seeded random play), each
solved from scratch by the engine-walking solver of before (:mod:`games.bots.engine_solver`)
and by the solver on the bit-mask core (:mod:`games.bots.solver`), one after the other on
the same endgame, so that a change of the machine's load hits both alike. Both must find
the same value, or the bench stops. It prints the nodes per CPU second of each, their
ratio, and the ratio of the CPU time to solve the set (the new search also visits fewer
nodes: equivalent cards are tried once). The set:

- 60 habanero and 60 two-player tute deals at the moment their stock empties (8 cards
  each; in habanero the capote decision comes first), as the strong robot solves them;
- 40 four-player pairs tute deals with 8 cards left and 40 three-player ones with 6, the
  double-dummy tails of the strong robot's playouts when the set was fixed (``EXACT_CARDS``
  is 12 at 4 players since; the set stays, so that runs compare).

``think``: the hard level (250 ms a move) against the heuristic robot for a few single-deal
games of habanero and of 4-player pairs, every decision of the hard robot timed on the
wall clock: median, 95th percentile and slowest. A quick look, not the official figure
(that one needs the machine to itself and hundreds of games).

    python -m bench.benchmarks.solver_bench [--endgames 200] [--think-games 2] [--level hard]
                                            [--no-think]

``--endgames 0 --think-games 5`` times the think time alone.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from typing import Any

from games.bots.base import seat_to_act
from games.bots.engine_solver import EngineSolver
from games.bots.heuristic import HeuristicBot
from games.bots.levels import level_bot
from games.bots.solver import Solver
from games.engine import GameState, new_game

# (options, cards left in all hands, share of the 200 endgames)
ENDGAMES = [
    ({"variant": "habanero"}, 16, 60),
    ({"variant": "tute", "players": 2}, 16, 60),
    ({"variant": "tute", "players": 4, "pairs": True}, 8, 40),
    ({"variant": "tute", "players": 3}, 6, 40),
]


def endgame(options: dict[str, Any], seed: int, cards_left: int) -> GameState:
    """A deal played at random (seeded) until the stock is empty and ``cards_left`` cards
    are in hand, at the start of a trick (or at habanero's capote decision)."""
    rng = random.Random(seed)
    while True:
        state = new_game(options, rng, first_dealer=0)
        while not state.deal_over and (
            state.stock_left or sum(map(len, state.hands)) > cards_left or state.trick
        ):
            state.apply(rng.choice(state.legal_actions_for(seat_to_act(state))))
        if not state.deal_over:
            return state


def endgames(total: int = 200) -> list[tuple[str, GameState]]:
    """The fixed set: ``total`` endgames in the shares of :data:`ENDGAMES`."""
    out = []
    scale = total / sum(share for _, _, share in ENDGAMES)
    for options, cards, share in ENDGAMES:
        label = "-".join(str(v) for v in options.values())
        for k in range(max(1, round(share * scale))):
            out.append((label, endgame(options, 1000 + k, cards)))
    return out


def _timed(solver: Any, state: GameState) -> tuple[float, float]:
    start = time.process_time()
    value, _ = solver.solve(state)
    return value, time.process_time() - start


def solver_bench(total: int = 200) -> list[dict[str, Any]]:
    """Old against new on the fixed endgames; one figure per kind of endgame and one for all."""
    sums: dict[str, list[float]] = {}
    for label, state in endgames(total):
        side = state.side_of[seat_to_act(state)]  # type: ignore[index]
        old, new = EngineSolver(side), Solver(side)
        old_value, old_time = _timed(old, state)
        new_value, new_time = _timed(new, state)
        if abs(old_value - new_value) > 1e-9:
            raise AssertionError(f"{label}: old {old_value} != new {new_value}")
        row = sums.setdefault(label, [0, 0, 0.0, 0.0, 0])
        row[0] += old.nodes
        row[1] += new.nodes
        row[2] += old_time
        row[3] += new_time
        row[4] += 1
    totals = [sum(row[i] for row in sums.values()) for i in range(5)]
    out = []
    for label, row in [*sums.items(), ("all", totals)]:
        old_nodes, new_nodes, old_time, new_time, count = row
        old_rate, new_rate = old_nodes / old_time, new_nodes / new_time
        out.append(
            {
                "bench": "solver",
                "endgames": label,
                "count": count,
                "old_nodes": old_nodes,
                "new_nodes": new_nodes,
                "old_nodes_per_s": round(old_rate),
                "new_nodes_per_s": round(new_rate),
                "nodes_per_s_ratio": round(new_rate / old_rate, 2),
                "old_cpu_s": round(old_time, 2),
                "new_cpu_s": round(new_time, 2),
                "time_ratio": round(old_time / new_time, 2),
            }
        )
    out[-1]["load_average"] = [round(x, 2) for x in os.getloadavg()]
    return out


class _Stopwatch:
    """A robot whose decisions are timed on the wall clock (the level's budget is wall time)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name = bot.name
        self.times: list[float] = []

    def choose(self, view: Any) -> Any:
        start = time.perf_counter()
        action = self.bot.choose(view)
        self.times.append(time.perf_counter() - start)
        return action


def think_bench(games: int = 2, level: str = "hard") -> list[dict[str, Any]]:
    """Think time of ``level`` against the heuristic robot, ``games`` single deals a table."""
    from games.bots.arena import play_game
    from games.engine import Options

    out = []
    for table in ({"variant": "habanero", "points_to_win": 1}, {"variant": "tute", "players": 4}):
        options = Options.from_dict(table)
        rng = random.Random(3)
        timed = _Stopwatch(level_bot(level, random.Random(4)))
        other = HeuristicBot(random.Random(5))
        for game in range(games):
            seats = [timed if (s + game) % 2 == 0 else other for s in range(options.players)]
            play_game(options, seats, rng)
        times = sorted(timed.times)
        out.append(
            {
                "bench": "think time",
                "level": level,
                **table,
                "games": games,
                "decisions": len(times),
                "median_ms": round(statistics.median(times) * 1000, 1),
                "p95_ms": round(times[min(len(times) - 1, int(len(times) * 0.95))] * 1000, 1),
                "max_ms": round(times[-1] * 1000, 1),
                "load_average": [round(x, 2) for x in os.getloadavg()],
            }
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--endgames", type=int, default=200)
    parser.add_argument("--think-games", type=int, default=2)
    parser.add_argument("--level", default="hard", choices=["hard", "expert"])
    parser.add_argument("--no-think", action="store_true")
    args = parser.parse_args()
    if args.endgames:
        for line in solver_bench(args.endgames):
            print(json.dumps(line))
    if not args.no_think and args.think_games:
        for line in think_bench(args.think_games, args.level):
            print(json.dumps(line))


if __name__ == "__main__":
    main()
