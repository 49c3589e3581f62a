"""Finished 2-player games to mine, played by robots and stored as the games app stores them:
a careless player (the random robot, or the heuristic) against the heuristic, in habanero and
in 2-player tute. Each game is the same for the same seed."""

from __future__ import annotations

import functools
import random

from django.utils import timezone

from games.bots import HeuristicBot, RandomBot, bot_play, seat_to_act
from games.engine import new_game
from games.models import Game, GameSeat

VARIANTS = {
    "habanero": {"variant": "habanero", "points_to_win": 1},
    "tute": {"variant": "tute", "players": 2},
}


@functools.lru_cache(maxsize=64)
def played_record(seed: int, variant: str) -> tuple[dict, dict]:
    """A whole game: its record and result."""
    state = new_game(VARIANTS[variant], random.Random(seed), first_dealer=seed % 2)
    careless = (
        RandomBot(random.Random(f"{seed}:r"))
        if seed % 3
        else HeuristicBot(random.Random(f"{seed}:h"))
    )
    bots = [careless, HeuristicBot(random.Random(f"{seed}:1"))]
    while not state.over:
        if state.needs_deal:
            state.deal_next(random.Random(f"{seed}:deal{state.deal_index}"))
            continue
        seat = seat_to_act(state)
        bot_play(bots[seat], state, seat)
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
