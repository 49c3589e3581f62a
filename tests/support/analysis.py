"""A finished game to analyse: a habanero deal a player lost to the hard robot, stored as the
games app stores it."""

from __future__ import annotations

import copy
import functools
import random

from django.utils import timezone

from games.bots import HeuristicBot, StrongBot, seat_to_act
from games.bots.solver import Solver
from games.engine import new_game
from games.models import Game, GameSeat


@functools.lru_cache(maxsize=4)
def played_record(seed: int = 1, *, playouts: int = 12) -> tuple[dict, dict]:
    """A single-deal habanero game: the strong robot at seat 0, a player (the heuristic
    robot playing for them) at seat 1, who once in the arrastre throws away the card that
    costs most, when that is 30 expected points or more (a blunder, the solver says). The
    first such game from ``seed`` on: its record and result (the same objects for the same
    seed: copy before changing them)."""
    while True:
        record, result, planted = _played(seed, playouts)
        if planted:
            return record, result
        seed += 1000


def _played(seed: int, playouts: int) -> tuple[dict, dict, bool]:
    state = new_game({"variant": "habanero", "points_to_win": 1}, random.Random(seed), 0)
    bots = [
        StrongBot(random.Random(f"{seed}:0"), budget_ms=None, iterations=playouts),
        HeuristicBot(random.Random(f"{seed}:1")),
    ]
    planted = False
    while not state.over:
        if state.needs_deal:
            state.deal_next(random.Random(f"{seed}:deal{state.deal_index}"))
            continue
        seat = seat_to_act(state)
        action = bots[seat].choose(state.view(seat))
        if not planted and seat == 1 and not state.stock_left and state.deal_index == 0:
            legal = state.legal_actions_for(seat)
            values = dict(zip(legal, Solver(1).values(state, legal), strict=True))
            worst = min(legal, key=values.__getitem__)
            if worst.kind == "play" and max(values.values()) - values[worst] >= 0.30:
                action, planted = worst, True
        state.apply(action)
    outcome = state.outcome()
    result = {"winner": outcome.winner, "score": list(outcome.score)}
    return state.to_record(), result, planted


def finished_game(user, *, seed: int = 1, status: str = Game.Status.FINISHED) -> Game:
    """The game of :func:`played_record`, stored with ``user`` at seat 1 and the robot at 0."""
    record, result = copy.deepcopy(played_record(seed))
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
