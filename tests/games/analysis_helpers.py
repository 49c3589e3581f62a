"""A finished game to analyse: a habanero deal a player lost to the hard robot, stored as the
games app stores it."""

from __future__ import annotations

import random

from django.utils import timezone

from games.bots import HeuristicBot, StrongBot, seat_to_act
from games.engine import new_game
from games.models import Game, GameSeat


def played_record(seed: int = 0, *, playouts: int = 12) -> tuple[dict, dict]:
    """A single-deal habanero game: the strong robot at seat 0, a player (the heuristic
    robot playing for them) at seat 1. Its record and result."""
    state = new_game({"variant": "habanero", "points_to_win": 1}, random.Random(seed), 0)
    bots = [
        StrongBot(random.Random(f"{seed}:0"), budget_ms=None, iterations=playouts),
        HeuristicBot(random.Random(f"{seed}:1")),
    ]
    while not state.over:
        if state.needs_deal:
            state.deal_next(random.Random(f"{seed}:deal{state.deal_index}"))
            continue
        seat = seat_to_act(state)
        state.apply(bots[seat].choose(state.view(seat)))
    outcome = state.outcome()
    return state.to_record(), {"winner": outcome.winner, "score": list(outcome.score)}


def finished_game(user, *, seed: int = 0, status: str = Game.Status.FINISHED) -> Game:
    """The game of :func:`played_record`, stored with ``user`` at seat 1 and the robot at 0."""
    record, result = played_record(seed)
    now = timezone.now()
    game = Game.objects.create(
        variant="habanero",
        options=record["options"],
        record=record,
        status=status,
        competitive=False,
        result=result,
        finished_at=now if status == Game.Status.FINISHED else None,
        ended_at=now if status == Game.Status.FINISHED else None,
    )
    winner = result["winner"]
    GameSeat.objects.create(
        game=game, seat=0, robot="hard", outcome="won" if winner == 0 else "lost"
    )
    GameSeat.objects.create(game=game, seat=1, user=user, outcome="won" if winner == 1 else "lost")
    return game
