"""The arena command, run as a subprocess like a developer would run it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.bots.arena import seating, wilson_interval

ROOT = Path(__file__).resolve().parents[2]


def arena(*args: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "games.bots", "arena", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert len(lines) == 1, done.stdout
    return json.loads(lines[0])


def heuristic_vs_random(variant: str, players: int, games: int, seed: int) -> dict:
    """``arena --a heuristic --b random`` at the default table options of ``variant``."""
    return arena(
        *("--a", "heuristic", "--b", "random", "--variant", variant),
        *("--players", str(players), "--games", str(games), "--seed", str(seed)),
        *("--workers", "2"),  # the same tally as one process, in about half the time
    )


def test_arena_prints_one_json_line_with_the_tally() -> None:
    result = heuristic_vs_random("tute", 2, games=12, seed=3)
    assert result["games"] == 12
    assert result["wins_a"] + result["wins_b"] + result["draws"] == 12
    assert result["a_win_rate"] == round(result["wins_a"] / 12, 4)
    low, high = result["ci95"]
    assert 0 <= low <= result["a_win_rate"] <= high <= 1
    assert (result["a"], result["b"], result["variant"], result["players"]) == (
        "heuristic",
        "random",
        "tute",
        2,
    )


def test_arena_is_deterministic_given_its_seed() -> None:
    args = ("--variant", "pocha", "--players", "3", "--games", "2", "--seed", "8")
    first, second = arena(*args), arena(*args)
    # Everything but the think times, which the clock measures.
    assert first.pop("think_time")["a"]["cpu"]["moves"] > 0
    assert second.pop("think_time")
    assert first == second


def test_arena_passes_table_options_through() -> None:
    result = arena(
        "--variant",
        "tute",
        "--players",
        "4",
        "--no-pairs",
        "--rounds",
        "2",
        "--games",
        "2",
        "--seed",
        "1",
    )
    assert result["pairs"] is False
    assert result["options"]["rounds"] == 2


def test_arena_refuses_bad_options() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "games.bots", "arena", "--variant", "habanero", "--players", "4"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "players must be 2" in done.stderr


def test_seating_gives_each_robot_half_the_seats_over_two_games() -> None:
    for players in (2, 4):
        seats = seating(players, 0) + seating(players, 1)
        assert seats.count("a") == seats.count("b") == players
    assert seating(4, 0) == ("a", "b", "a", "b")  # one team each in pairs
    # Three players: over six games each robot holds two seats three times, and every
    # seat is held by each robot equally often.
    games = [seating(3, g) for g in range(6)]
    assert sum(s.count("a") == 2 for s in games) == 3
    for seat in range(3):
        assert sum(s[seat] == "a" for s in games) == 3


def test_wilson_interval() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(750, 1000)
    assert round(low, 3) == 0.722 and round(high, 3) == 0.776
    low, high = wilson_interval(10, 10)
    assert high > 0.999 and 0.69 < low < 0.73


# ---------------------------------------------------------------------- strength
# Runs are deterministic given the seed, so these are regression checks as much as
# measurements. A 1,000-game run of 4-player pairs takes about 2 minutes on one core of
# the reference machine (the robot counts out the end of every deal); 1,000 games of
# habanero take about 40 s (a game is several deals), so habanero plays 300 games and
# asserts that the 95% Wilson interval's lower bound clears 0.75: with that many games a
# true win rate of 75% or less would almost never show it.


@pytest.fixture(scope="module")
def pairs_tute() -> dict:
    return heuristic_vs_random("tute", 4, games=1000, seed=1)


def test_heuristic_clearly_beats_random_in_pairs_tute(pairs_tute: dict) -> None:
    # Measured 0.700 [0.671, 0.728] since each game has its own generators (the arena's
    # --workers); 0.727 [0.699, 0.754] with the earlier single stream of cards, and 0.673
    # before the robot counted out the end of a deal. 0.5 would be no better than random.
    assert pairs_tute["ci95"][0] >= 0.66


@pytest.mark.xfail(
    strict=True,
    reason="The issue asks for 75% of 1,000 single-deal pairs tute games; the heuristic "
    "wins 70-73% (seeds 1-3). Searches that see only this seat's view all stayed at "
    "70-73%. The same robot shown every hand for its last five cards wins 75.3-75.9% "
    "(seeds 1-3), and shown every hand for its last eight 80%: the target is what a robot "
    "reaches by seeing where the cards are, which no seat may. See games/bots/countout.py "
    "and the issue's closing note.",
)
def test_heuristic_wins_three_games_in_four_of_pairs_tute(pairs_tute: dict) -> None:
    assert pairs_tute["a_win_rate"] >= 0.75


def test_heuristic_beats_random_in_three_games_in_four_of_habanero() -> None:
    result = heuristic_vs_random("habanero", 2, games=300, seed=1)
    assert result["ci95"][0] >= 0.75
