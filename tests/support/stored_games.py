"""Finished 2-player games to mine, played by robots and stored as the games app stores them:
a careless player (the random robot, or the heuristic) against the heuristic, in habanero and
in 2-player tute. Each game is the same for the same seed."""

from __future__ import annotations

import functools
import random

from django.utils import timezone

from bench.tools.puzzles_load import played
from games.bots import HeuristicBot, RandomBot
from games.models import Game, GameSeat

VARIANTS = {
    "habanero": {"variant": "habanero", "points_to_win": 1},
    "tute": {"variant": "tute", "players": 2},
}


@functools.lru_cache(maxsize=64)
def played_record(seed: int, variant: str) -> tuple[dict, dict]:
    """A whole game: its record and result."""
    careless = (
        RandomBot(random.Random(f"{seed}:r"))
        if seed % 3
        else HeuristicBot(random.Random(f"{seed}:h"))
    )
    state = played(VARIANTS[variant], seed, careless)
    outcome = state.outcome()
    return state.to_record(), {"winner": outcome.winner, "score": list(outcome.score)}


def stored_game(seed: int, variant: str = "habanero", *, users=(None, None)) -> Game:
    """The game of :func:`played_record`, stored finished (robots where ``users`` has None)."""
    record, result = played_record(seed, variant)
    now = timezone.now()
    game = Game.objects.create(
        variant=variant,
        options=record["options"],
        record=record,
        status=Game.Status.FINISHED,
        competitive=False,
        result=result,
        finished_at=now,
        ended_at=now,
    )
    for seat, user in enumerate(users):
        GameSeat.objects.create(
            game=game,
            seat=seat,
            user=user,
            robot="" if user is not None else "medium",
            outcome="won" if result["winner"] == seat else "lost",
        )
    return game
