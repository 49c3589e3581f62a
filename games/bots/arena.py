"""Robot against robot: play many complete games and count who wins.

Seating, so that neither robot gains from its seats:

- 2 players: A sits at seat 0 in even games and seat 1 in odd ones.
- 4 players (in pairs or alone): A holds seats 0 and 2, B seats 1 and 3; they swap every
  game. In pairs each robot is one team.
- 3 players: one robot must hold two seats. A holds two in even games and B in odd ones,
  and the lone seat moves round the table every two games. A game is won by the robot
  whose seat wins it, so two equal robots score 50% over an even number of games.

Each game has its own generators, drawn from the seed and the game's number: the cards
(the first dealer too) and each robot's. So a run gives the same tally whether its games
are played one after another or spread over ``workers`` processes.

A pocha game whose top score is shared by both robots is a draw (RULES.md §9: all tied
players win). The win rate is A's wins over all games, draws counted as not won, with
a 95% Wilson score interval. Think time is each robot's time per move where it had a
choice (more than one legal action): wall-clock mean and 95th percentile, and the same in
CPU time of the process.

Searching robots (``strong``, ``hard``, ``expert``) take ``budget_ms`` and/or
``iterations`` (playouts per move); with ``iterations`` alone a run is repeatable exactly.

>>> result = arena("heuristic", "random", {"variant": "tute", "players": 2}, games=4, seed=1)
>>> sorted(result)[:5]
['a', 'a_win_rate', 'b', 'budget_ms', 'ci95']
>>> result["wins_a"] + result["wins_b"] + result["draws"]
4
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from games.engine import Action, GameState, Options, SeatView, new_game

from .base import Bot, bot_play, get_bot, seat_to_act

Z95 = 1.959963984540054


def wilson_interval(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion of ``wins`` in ``games``.

    >>> lo, hi = wilson_interval(800, 1000)
    >>> round(lo, 4), round(hi, 4)
    (0.7741, 0.8236)
    """
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    z2 = z * z
    denom = 1 + z2 / games
    centre = (p + z2 / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def seating(players: int, game: int) -> tuple[str, ...]:
    """Which robot, "a" or "b", sits at each seat in game number ``game``.

    >>> seating(4, 0), seating(4, 1), seating(2, 1)
    (('a', 'b', 'a', 'b'), ('b', 'a', 'b', 'a'), ('b', 'a'))
    >>> [seating(3, g) for g in range(4)]
    [('a', 'a', 'b'), ('b', 'b', 'a'), ('b', 'a', 'a'), ('a', 'b', 'b')]
    """
    first, second = ("a", "b") if game % 2 == 0 else ("b", "a")
    if players == 3:
        shift = (game // 2) % 3
        pattern = [first, first, second]
        return tuple(pattern[(i - shift) % 3] for i in range(3))
    return tuple(first if seat % 2 == 0 else second for seat in range(players))


def play_game(options: Options, bots: list[Bot], rng: random.Random) -> GameState:
    """One complete game, every deal dealt with ``rng``, each seat played by its robot."""
    state = new_game(options, rng)
    while not state.over:
        if state.needs_deal:
            state.deal_next(rng)
            continue
        seat = seat_to_act(state)
        if seat is None:  # pragma: no cover - the engine always has a move or a deal due
            raise RuntimeError("The game is stuck: no seat can act and no deal is due.")
        bot_play(bots[seat], state, seat)
    return state


def winning_robots(state: GameState, seats: tuple[str, ...]) -> set[str]:
    """The robots ("a", "b") holding a seat of a winning side."""
    winner = state.winner
    sides = set(winner) if isinstance(winner, list) else {winner}
    return {seats[s] for s in range(state.n) if state.side_of[s] in sides}


class TimedBot:
    """A robot that keeps how long each of its choices took (wall clock and CPU)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def choose(self, view: SeatView) -> Action:
        if len(view.legal_actions) == 1:
            return self.bot.choose(view)
        wall, cpu = time.perf_counter(), time.process_time()
        action = self.bot.choose(view)
        self.cpu.append(time.process_time() - cpu)
        self.wall.append(time.perf_counter() - wall)
        return action


def make_bot(
    name: str, rng: Any, budget_ms: float | None = None, iterations: int | None = None
) -> Bot:
    """Robot ``name`` with ``rng``; a searching robot gets the budget when one is given
    (``iterations`` alone: no clock, so the run is repeatable exactly)."""
    bot = get_bot(name, rng=rng)
    if (budget_ms is not None or iterations is not None) and hasattr(bot, "iterations"):
        bot.budget_ms = budget_ms  # type: ignore[attr-defined]
        bot.iterations = iterations  # type: ignore[attr-defined]
    return bot


def play_one(
    job: tuple[str, str, Options, int, int, float | None, int | None],
) -> tuple[str, list[float], list[float], list[float], list[float]]:
    """Game number ``game`` of a run: who won ("a", "b" or "draw") and the think times
    of A and B (wall, then CPU)."""
    a, b, options, seed, game, budget_ms, iterations = job
    timed = {
        r: TimedBot(make_bot(name, random.Random(f"{seed}:{game}:{r}"), budget_ms, iterations))
        for r, name in (("a", a), ("b", b))
    }
    seats = seating(options.players, game)
    state = play_game(options, [timed[r] for r in seats], random.Random(f"{seed}:{game}:deal"))
    winners = winning_robots(state, seats)
    outcome = winners.pop() if len(winners) == 1 else "draw"
    return outcome, timed["a"].wall, timed["a"].cpu, timed["b"].wall, timed["b"].cpu


def time_summary(seconds: list[float]) -> dict[str, Any]:
    """Mean and 95th percentile (nearest rank) in milliseconds, and the number of moves."""
    if not seconds:
        return {"moves": 0, "mean_ms": 0.0, "p95_ms": 0.0}
    ordered = sorted(seconds)
    p95 = ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]
    return {
        "moves": len(ordered),
        "mean_ms": round(1000 * sum(ordered) / len(ordered), 2),
        "p95_ms": round(1000 * p95, 2),
    }


def arena(
    a: str,
    b: str,
    options: Options | Mapping[str, Any],
    games: int,
    seed: int,
    budget_ms: float | None = None,
    iterations: int | None = None,
    workers: int = 1,
    first_game: int = 0,
) -> dict[str, Any]:
    """Play ``games`` games of robot ``a`` against robot ``b`` and return the tally.

    ``first_game`` numbers the games from there: a long run can be played in parts
    (games 0-249, then 250-499) and :func:`merge` adds the parts up.
    """
    opts = options if isinstance(options, Options) else Options.from_dict(options)
    numbers = range(first_game, first_game + games)
    jobs = [(a, b, opts, seed, game, budget_ms, iterations) for game in numbers]
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(play_one, jobs, chunksize=1))
    else:
        results = [play_one(job) for job in jobs]
    wins = {"a": 0, "b": 0, "draw": 0}
    times: dict[str, list[float]] = {"a_wall": [], "a_cpu": [], "b_wall": [], "b_cpu": []}
    for outcome, a_wall, a_cpu, b_wall, b_cpu in results:
        wins[outcome] += 1
        times["a_wall"] += a_wall
        times["a_cpu"] += a_cpu
        times["b_wall"] += b_wall
        times["b_cpu"] += b_cpu
    low, high = wilson_interval(wins["a"], games)
    return {
        "a": a,
        "b": b,
        "variant": opts.variant,
        "players": opts.players,
        "pairs": opts.rules.pairs,
        "options": opts.to_dict(),
        "seed": seed,
        "games": games,
        "budget_ms": budget_ms,
        "iterations": iterations,
        "workers": workers,
        "first_game": first_game,
        "wins_a": wins["a"],
        "wins_b": wins["b"],
        "draws": wins["draw"],
        "a_win_rate": round(wins["a"] / games, 4) if games else 0.0,
        "ci95": [round(low, 4), round(high, 4)],
        "think_time": {
            "a": {"wall": time_summary(times["a_wall"]), "cpu": time_summary(times["a_cpu"])},
            "b": {"wall": time_summary(times["b_wall"]), "cpu": time_summary(times["b_cpu"])},
        },
    }


def merge(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """One tally from the tallies of parts of a run (same robots, table, seed, budget).

    Think time: means are weighted by moves; the 95th percentile given is the highest of
    the parts' (an upper bound of the whole run's).
    """
    first = dict(parts[0])
    keys = ("a", "b", "options", "seed", "budget_ms", "iterations")
    if any(p[k] != first[k] for p in parts for k in keys):
        raise ValueError("Only parts of one run (same robots, table, seed, budget) merge.")
    games = sum(p["games"] for p in parts)
    wins_a = sum(p["wins_a"] for p in parts)
    low, high = wilson_interval(wins_a, games)
    think: dict[str, Any] = {}
    for robot in ("a", "b"):
        think[robot] = {}
        for clock in ("wall", "cpu"):
            rows = [p["think_time"][robot][clock] for p in parts]
            moves = sum(r["moves"] for r in rows)
            mean = sum(r["mean_ms"] * r["moves"] for r in rows) / moves if moves else 0.0
            think[robot][clock] = {
                "moves": moves,
                "mean_ms": round(mean, 2),
                "p95_ms": max(r["p95_ms"] for r in rows),
            }
    first.update(
        games=games,
        first_game=min(p["first_game"] for p in parts),
        wins_a=wins_a,
        wins_b=sum(p["wins_b"] for p in parts),
        draws=sum(p["draws"] for p in parts),
        a_win_rate=round(wins_a / games, 4),
        ci95=[round(low, 4), round(high, 4)],
        think_time=think,
        parts=len(parts),
    )
    return first
