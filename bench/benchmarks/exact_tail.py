"""Which double-dummy tail (``EXACT_CARDS``) pays at the hard level's clock and at expert's.

The strong robot's playouts stop once few cards are left (the stock empty) and solve the
tricks left exactly on their world. A longer tail judges each world better but costs more,
so fewer worlds fit in the clock. An arena would need thousands of games to see the
difference, so this bench measures the choices themselves on one fixed set of positions:

1. **Positions.** Heuristic robots play seeded single-deal games; every decision where the
   strong robot would search (two or more cards to choose from; in habanero, only while the
   stock lasts, since the empty stock is solved exactly) is kept, one in ``--every``.
2. **Reference.** Each candidate of each position is valued by a long search:
   ``--reference-playouts`` worlds, the longest tail of the run, no early stop. Its best
   candidate is what the robot should play.
3. **Each tail at each clock** chooses once on every position. Its *regret* is what its
   choice is worth less than the reference's best, in deal-result points (0 lost, 100 won,
   the scale of the analysis); its *best share* is how often it chose the reference's best.

The reference is itself a search with the longest tail, so the longest tail is judged by
its own eyes: the figure says which tail comes closest to the best search affordable, not
to perfect play. Prints one JSON line per clock and tail, then a summary line with the
load average before and after. The defaults are the run in README.md: 80 positions took 10
minutes of one core in habanero and 4.5 in the pairs game; run it with nothing else on the
machine.

    python -m bench.benchmarks.exact_tail --variant habanero|pairs [--positions 80]
        [--every 3] [--tails 0,6,8,10,12] [--clocks 250,1000] [--reference-playouts 2000]
        [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import time
from typing import Any

from games.bots.base import seat_to_act
from games.bots.heuristic import HeuristicBot
from games.bots.strong import EXACT_CARDS, StrongBot
from games.engine import Options, SeatView, new_game

VARIANTS = {
    "habanero": {"variant": "habanero", "points_to_win": 1},
    "pairs": {"variant": "tute", "players": 4, "pairs": True, "rounds": 1},
}
DEFAULT_TAILS = {"habanero": "0,6,8,10,12", "pairs": "0,4,8,12"}


def searched(view: SeatView) -> bool:
    """Whether the strong robot searches this decision: cards only, two or more of them,
    and (2 players) the stock not yet empty."""
    legal = view.legal_actions
    if len(legal) < 2 or any(a.kind != "play" for a in legal):
        return False
    return not (view.players == 2 and view.options.rules.has_stock and not view.stock_size)


def positions(variant: str, count: int, every: int, seed: int) -> list[SeatView]:
    """``count`` searched decisions from seeded games between heuristic robots."""
    options = Options.from_dict(VARIANTS[variant])
    rng = random.Random(seed)
    bots = [HeuristicBot(random.Random(seed + seat)) for seat in range(options.players)]
    found: list[SeatView] = []
    seen = 0
    while len(found) < count:
        state = new_game(options, rng)
        while not state.over and len(found) < count:
            if state.needs_deal:
                state.deal_next(rng)
                continue
            seat = seat_to_act(state)
            view = state.view(seat)  # type: ignore[arg-type]
            if searched(view):
                seen += 1
                if seen % every == 0:
                    found.append(view)
            state.apply(bots[seat].choose(view))  # type: ignore[index]
    return found


def reference(views: list[SeatView], tail: int, playouts: int, seed: int) -> list[list[float]]:
    """Each candidate's value (0-100) at each position, by the long search."""
    values = []
    for i, view in enumerate(views):
        bot = StrongBot(
            random.Random(f"{seed}:ref:{i}"),
            budget_ms=None,
            iterations=playouts,
            exact_cards=tail,
            sure_lead=math.inf,
        )
        means, _exact = bot.evaluate(view, list(view.legal_actions))
        values.append([100.0 * m for m in means])
    return values


def judge(
    views: list[SeatView], ref: list[list[float]], tail: int, clock: float, seed: int
) -> dict[str, Any]:
    """One tail at one clock: its choice at every position, against the reference."""
    regrets, best, playouts, wall = [], 0, [], []
    for i, view in enumerate(views):
        bot = StrongBot(
            random.Random(f"{seed}:{tail}:{clock}:{i}"), budget_ms=clock, exact_cards=tail
        )
        start = time.perf_counter()
        choice = bot.choose(view)
        wall.append(1000 * (time.perf_counter() - start))
        playouts.append(bot.last_playouts)
        values = ref[i]
        got = values[list(view.legal_actions).index(choice)]
        regrets.append(max(values) - got)
        best += got == max(values)
    n = len(regrets)
    return {
        "tail": tail,
        "clock_ms": clock,
        "positions": n,
        "regret_mean": round(statistics.fmean(regrets), 2),
        "regret_se": round(statistics.stdev(regrets) / math.sqrt(n), 2) if n > 1 else None,
        "best_share": round(best / n, 3),
        "playouts_median": statistics.median(playouts),
        "think_ms_mean": round(statistics.fmean(wall), 1),
        "regrets": [round(r, 2) for r in regrets],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.benchmarks.exact_tail")
    parser.add_argument("--variant", choices=sorted(VARIANTS), default="habanero")
    parser.add_argument("--positions", type=int, default=80)
    parser.add_argument("--every", type=int, default=3, help="keep one searched decision in N")
    parser.add_argument("--tails", default=None, help="cards left solved; 0: none")
    parser.add_argument("--clocks", default="250,1000", help="ms a move")
    parser.add_argument("--reference-playouts", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    tails = [int(t) for t in (args.tails or DEFAULT_TAILS[args.variant]).split(",")]
    clocks = [float(c) for c in args.clocks.split(",")]
    load_before = os.getloadavg()[0]
    start = time.perf_counter()
    views = positions(args.variant, args.positions, args.every, args.seed)
    ref = reference(views, max(tails), args.reference_playouts, args.seed)
    rows = []
    for clock in clocks:
        for tail in tails:
            row = judge(views, ref, tail, clock, args.seed)
            rows.append(row)
            print(json.dumps({"bench": "exact_tail", "variant": args.variant, **row}), flush=True)
    default = EXACT_CARDS[views[0].players]
    paired = {}
    for row in rows:
        base = next(
            (r for r in rows if r["clock_ms"] == row["clock_ms"] and r["tail"] == default), None
        )
        if base is None or row is base:
            continue
        diffs = [a - b for a, b in zip(row["regrets"], base["regrets"], strict=True)]
        se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
        paired[f"{row['clock_ms']:g}ms tail {row['tail']}"] = {
            "regret_minus_default": round(statistics.fmean(diffs), 2),
            "se": round(se, 2),
        }
    summary = {
        "bench": "exact_tail",
        "default_tail": default,
        "against_default": paired,
        "variant": args.variant,
        "reference": {"tail": max(tails), "playouts": args.reference_playouts},
        "best_tail": {
            str(clock): min(
                (r for r in rows if r["clock_ms"] == clock), key=lambda r: r["regret_mean"]
            )["tail"]
            for clock in clocks
        },
        "seconds": round(time.perf_counter() - start, 1),
        "load": [round(load_before, 2), round(os.getloadavg()[0], 2)],
    }
    print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
