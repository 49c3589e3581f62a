"""Helpers for award tests: seat players, stake, and hand the finished game to rankings."""

import itertools
from datetime import datetime

from django.utils import timezone

from rankings.services import SeatResult, chips_stake, game_result_submit

_game_ids = itertools.count(1_000_000)


def finish_game(
    seated,
    *,
    winner_side: int = 0,
    variant: str = "tute",
    pairs: bool = False,
    deals_to_win: int = 1,
    competitive: bool = True,
    stake: int = 100,
    abandoned=(),
    ips=None,
    finished_at: datetime | None = None,
    game_id: int | None = None,
    feats=None,
):
    """Stake `stake` for each player in `seated` (None for a robot) and submit the result,
    as the games app does. `abandoned`, `ips` and `feats` are per seat. Returns the
    GameResult."""
    game_id = game_id or next(_game_ids)
    players = len(seated)
    if competitive and stake:
        for seat, user in enumerate(seated):
            if user is not None:
                chips_stake(user=user, game_id=game_id, amount=stake, key=f"t:{game_id}:{seat}")
    seats = []
    for seat, user in enumerate(seated):
        side = seat % 2 if pairs else seat
        seats.append(
            SeatResult(
                seat=seat,
                user_id=user.pk if user is not None else None,
                side=side,
                won=side == winner_side,
                abandoned=seat in abandoned,
                ip_address=(ips or {}).get(seat, f"198.51.100.{seat + 1}"),
                feats=tuple((feats or {}).get(seat, ())),
            )
        )
    return game_result_submit(
        game_id=game_id,
        variant=variant,
        players=players,
        pairs=pairs,
        deals_to_win=deals_to_win,
        competitive=competitive,
        stake=stake,
        finished_at=finished_at or timezone.now(),
        seats=seats,
    )
