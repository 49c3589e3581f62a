"""Stored puzzles for the tests: robots' games mined as the slow lane mines them, and the
position of each puzzle rebuilt from scratch for checks."""

from __future__ import annotations

from games.engine import Action, GameState, from_record
from games.puzzles.models import Puzzle
from games.puzzles.store import puzzles_mine_game
from tests.support.stored_games import stored_game

# Seeds whose games hold puzzles of both variants, one of them (31, tute) of two moves.
SEEDS = tuple(range(1, 32))


def mine_games(seeds=SEEDS, variants=("habanero", "tute")) -> list[Puzzle]:
    for seed in seeds:
        for variant in variants:
            puzzles_mine_game(game_id=stored_game(seed, variant).pk)
    return list(Puzzle.objects.order_by("pk"))


def replay(puzzle: Puzzle, upto: int) -> GameState:
    """The puzzle's position after ``upto`` actions of its line, from its record alone."""
    state = from_record(puzzle.record)
    for data in puzzle.line[:upto]:
        state.apply(Action.from_dict(data, 2))
    return state
