"""Robot against robot: play many complete games and count who wins.

Seating, so that neither robot gains from its seats:

- 2 players: A sits at seat 0 in even games and seat 1 in odd ones.
- 4 players (in pairs or alone): A holds seats 0 and 2, B seats 1 and 3; they swap every
  game. In pairs each robot is one team.
- 3 players: one robot must hold two seats. A holds two in even games and B in odd ones,
  and the lone seat moves round the table every two games. A game is won by the robot
  whose seat wins it, so two equal robots score 50% over an even number of games.

The first dealer of each game is drawn from the seeded generator, like every shuffle.
A pocha game whose top score is shared by both robots is a draw (RULES.md §9: all tied
players win). The win rate is A's wins over all games, draws counted as not won, with
a 95% Wilson score interval.

>>> result = arena("heuristic", "random", {"variant": "tute", "players": 2}, games=4, seed=1)
>>> sorted(result)[:5]
['a', 'a_win_rate', 'b', 'ci95', 'draws']
>>> result["wins_a"] + result["wins_b"] + result["draws"]
4
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from games.engine import GameState, Options, new_game

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


def arena(
    a: str,
    b: str,
    options: Options | Mapping[str, Any],
    games: int,
    seed: int,
) -> dict[str, Any]:
    """Play ``games`` games of robot ``a`` against robot ``b`` and return the tally."""
    opts = options if isinstance(options, Options) else Options.from_dict(options)
    master = random.Random(seed)
    deal_rng = random.Random(master.getrandbits(64))
    robots = {
        "a": get_bot(a, rng=random.Random(master.getrandbits(64))),
        "b": get_bot(b, rng=random.Random(master.getrandbits(64))),
    }
    wins = {"a": 0, "b": 0}
    draws = 0
    for game in range(games):
        seats = seating(opts.players, game)
        state = play_game(opts, [robots[r] for r in seats], deal_rng)
        winners = winning_robots(state, seats)
        if len(winners) == 1:
            wins[winners.pop()] += 1
        else:
            draws += 1
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
        "wins_a": wins["a"],
        "wins_b": wins["b"],
        "draws": draws,
        "a_win_rate": round(wins["a"] / games, 4) if games else 0.0,
        "ci95": [round(low, 4), round(high, 4)],
    }
