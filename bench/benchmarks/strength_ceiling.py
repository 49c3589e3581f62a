"""How far the strong robot's search could go if it saw every card: its ceiling.

The strong robot judges each card by playing sampled worlds out with a greedy rule and a
double-dummy tail. The *seeing* robot here runs that judgement on the one true world (every
hand and the stock in its order), so it guesses nothing. Against the heuristic robot it
shows what the search's judgement wins with full information: the distance from the hard
level to it is what the hidden cards cost the robot.

On one world a greedy playout is one fixed line of play, and judging each card by that one
line is a poor judgement (80% in habanero, where the hard level has 79%). The seeing robot
therefore plays the true world out ``--playouts`` times with a share ``--epsilon`` of
random choices, as if the rest of the deal could be played a little differently: 160
playouts at 0.25 gave 90% (README.md). Give ``--epsilon 0 --playouts 1`` for the single
greedy line.

It cheats by construction, so it is a measuring tool, never a table's robot.

    python -m bench.benchmarks.strength_ceiling [--variant habanero|pairs] [--games 500]
        [--playouts 160] [--epsilon 0.25]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from typing import Any

from bench.benchmarks.exact_tail import VARIANTS
from games.bots.arena import TimedBot, seating, time_summary, wilson_interval, winning_robots
from games.bots.base import bot_play, seat_to_act
from games.bots.heuristic import HeuristicBot
from games.bots.strong import StrongBot
from games.engine import GameState, Options, SeatView, new_game

PLAYOUTS = 160  # playouts of the true world a decision, shared by the candidates
EPSILON = 0.25  # the share of each playout's choices made at random


class _TrueWorld:
    """A sampler that deals the true deal every time."""

    def __init__(self, state: GameState) -> None:
        self.state = state

    def sample(self, rng: Any) -> GameState:
        return self.state.clone()


class SeeingBot(StrongBot):
    """The strong robot's search on the one true world (see the module's docstring)."""

    name = "seeing"

    def __init__(
        self, rng: Any, truth: GameState, *, playouts: int = PLAYOUTS, epsilon: float = EPSILON
    ) -> None:
        super().__init__(rng, budget_ms=None, iterations=playouts, epsilon=epsilon)
        self.truth = truth  # the game being played, read at each decision

    def sampler(self, view: SeatView) -> _TrueWorld:  # type: ignore[override]
        return _TrueWorld(self.truth)


def play(options: Options, game: int, seed: int, **seeing_options: Any) -> tuple[str, list[float]]:
    """One game of the seeing robot ("a", given `seeing_options`) against the heuristic
    ("b"), seats alternating, as the arena seats them; who won, and the seeing robot's think
    times (moves with a choice)."""
    deal_rng = random.Random(f"{seed}:{game}:deal")
    state = new_game(options, deal_rng)
    seeing = TimedBot(SeeingBot(random.Random(f"{seed}:{game}:a"), state, **seeing_options))
    heuristic = HeuristicBot(random.Random(f"{seed}:{game}:b"))
    seats = seating(options.players, game)
    bots = [seeing if r == "a" else heuristic for r in seats]
    while not state.over:
        if state.needs_deal:
            state.deal_next(deal_rng)
            continue
        seat = seat_to_act(state)
        bot_play(bots[seat], state, seat)  # type: ignore[index]
    winners = winning_robots(state, seats)
    return (winners.pop() if len(winners) == 1 else "draw"), seeing.wall


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.benchmarks.strength_ceiling")
    parser.add_argument("--variant", choices=sorted(VARIANTS), default="habanero")
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--playouts", type=int, default=PLAYOUTS)
    parser.add_argument("--epsilon", type=float, default=EPSILON)
    parser.add_argument("--first-game", type=int, default=0, help="run in parts")
    args = parser.parse_args(argv)
    options = Options.from_dict(VARIANTS[args.variant])
    load_before = os.getloadavg()[0]
    start = time.perf_counter()
    wins = 0
    think: list[float] = []
    for game in range(args.first_game, args.first_game + args.games):
        outcome, seconds = play(
            options, game, args.seed, playouts=args.playouts, epsilon=args.epsilon
        )
        wins += outcome == "a"
        think += seconds
    low, high = wilson_interval(wins, args.games)
    print(
        json.dumps(
            {
                "bench": "strength_ceiling",
                "variant": args.variant,
                "games": args.games,
                "first_game": args.first_game,
                "playouts": args.playouts,
                "epsilon": args.epsilon,
                "seeing_wins": wins,
                "seeing_win_rate": round(wins / args.games, 4),
                "ci95": [round(low, 4), round(high, 4)],
                "think": time_summary(think),
                "seconds": round(time.perf_counter() - start, 1),
                "load": [round(load_before, 2), round(os.getloadavg()[0], 2)],
            }
        )
    )


if __name__ == "__main__":
    main()
