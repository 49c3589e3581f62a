"""The sweeper: every timer of live play is a row in the database, fired when it is due.

Three kinds of rows are due at a time `now`:

- a game's move timer (`Game.deadline_at`): a robot's move, a player's time running out, or
  the next deal. The sweeper claims due games with `select_for_update(skip_locked=True)`
  (so sweepers running side by side never take the same one) and leases each for
  `CLAIM_SECONDS` in a row of its own (`TimerClaim`: the game's rows change only through
  the table's door, games/table/room.py); each is then fired by the `games.fire_timer`
  task (a Celery worker with REDIS_URL; the sweep of the embedded default fires them
  itself). If that worker dies, the lease runs out and the timer is claimed again. Firing
  re-checks the game's action count: a timer set before the last move is stale and does
  nothing;
- a disconnected player's grace period (`GameSeat.abandon_at`): they have abandoned;
- an unanswered proposal to cancel (`CancelProposal.expires_at`): it ends.

It also closes the sockets of daphne processes that stopped beating (killed), and the
practice tables left alone after their game (games/table/practice.py), and fills with
robots the "Play now" tables whose players chose it (games/table/matchmaking.py).

Nothing lives in one process's memory, so timers survive a restart and work across several
daphne processes. With REDIS_URL, Celery beat queues `games.sweep_timers` every second
(tute_site/settings.py); without it, `games.server` runs the sweep in the server process.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from games.models import CancelProposal, Game, GameSeat, TimerClaim
from games.table import cancel, matchmaking, practice, presence, robots

CLAIM_SECONDS = 10
BATCH = 500


def due_games(*, now: Any) -> QuerySet[Game]:
    """Running games whose move timer is due at `now` and that nobody has claimed: a claim
    holds the timer it was made on (its due time) until the claim runs out."""
    claimed = TimerClaim.objects.filter(
        game=OuterRef("pk"), at=OuterRef("deadline_at"), until__gte=now
    )
    return (
        Game.objects.filter(status=Game.Status.PLAYING, deadline_at__lte=now)
        .exclude(Exists(claimed))
        .order_by("deadline_at")
    )


def claim_due_games(*, now: Any) -> list[tuple[int, int]]:
    """(game id, action count) of due move timers nobody has claimed, now claimed. The
    claims are rows of their own (`TimerClaim`): the games' rows are not written here, only
    locked while they are claimed (skipped if locked: sweepers side by side never take the
    same one, and a move under way is left to set its own timer)."""
    with transaction.atomic():
        due = list(
            due_games(now=now)
            .select_for_update(skip_locked=True, of=("self",))
            .values_list("pk", "deadline_count", "deadline_at")[:BATCH]
        )
        until = now + timedelta(seconds=CLAIM_SECONDS)
        TimerClaim.objects.bulk_create(
            [TimerClaim(game_id=pk, at=at, until=until) for pk, _count, at in due],
            update_conflicts=True,
            unique_fields=["game"],
            update_fields=["at", "until"],
        )
    return [(pk, count) for pk, count, _at in due]


def sweep(
    *, now: Any = None, fire: Callable[[int, int], Any] | None = None, alive: Any = None
) -> dict[str, int]:
    """Fire every due timer once. `fire` hands a due move timer (game id, action count) to
    whoever fires it (the Celery task sends it to a worker); without it the timers fire
    here, one after the other. `alive` is the daphne process running this sweep, if one
    is: whatever its last beat, it is not dead. Returns counts, by kind."""
    now = now or timezone.now()
    games = claim_due_games(now=now)
    for game_id, count in games:
        if fire is None:
            robots.game_timer_fire(game_id=game_id, count=count, now=now)
        else:
            fire(game_id, count)
    abandoned = 0
    for game_id, seat in GameSeat.objects.filter(
        abandon_at__lte=now, abandoned=False, game__status=Game.Status.PLAYING
    ).values_list("game_id", "seat")[:BATCH]:
        abandoned += presence.game_seat_abandon(game_id=game_id, seat=seat, now=now)
    expired = 0
    for proposal_id in CancelProposal.objects.filter(
        status=CancelProposal.Status.OPEN, expires_at__lte=now
    ).values_list("pk", flat=True)[:BATCH]:
        expired += cancel.game_cancel_expire(proposal_id=proposal_id, now=now)
    sockets = presence.server_process_sweep(now=now, alive=alive)
    closed = practice.practice_close_idle(now=now)
    filled = matchmaking.robots_sweep(now=now)
    return {
        "games": len(games),
        "abandoned": abandoned,
        "expired": expired,
        "sockets": sockets,
        "practice": closed,
        "filled": filled,
    }
