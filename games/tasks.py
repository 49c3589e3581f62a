"""Celery tasks of live play: the timer sweep (queued by beat every second) and the firing of
one game's timer, where robots think (games/timers.py); and a finished game's analysis,
queued when its end is published (games/events.py).

Their "received" and "succeeded" lines are at DEBUG (tute_site/celery.py); the sweep says at
INFO what it fired, and nothing when nothing was due."""

import logging
from typing import Any

from celery import shared_task
from kombu.exceptions import OperationalError

from games import timers
from games.events import GameEnded
from games.table import robots

logger = logging.getLogger(__name__)

LOW_PRIORITY = 9  # Redis: 0 is served first, 9 last


def sweep_report(counts: dict[str, int]) -> str:
    """What a sweep did, in a line; empty when it did nothing.

    >>> sweep_report({"games": 2, "abandoned": 0, "expired": 1, "sockets": 0})
    'timer sweep: 2 move timers fired, 1 cancel proposals expired'
    >>> sweep_report({"games": 0, "abandoned": 0, "expired": 0, "sockets": 0})
    ''
    """
    labels = {
        "games": "move timers fired",
        "abandoned": "seats abandoned",
        "expired": "cancel proposals expired",
        "sockets": "sockets of stopped servers closed",
        "practice": "practice tables closed",
        "filled": "Play now tables filled with robots",
    }
    done = [f"{counts[key]} {label}" for key, label in labels.items() if counts.get(key)]
    return f"timer sweep: {', '.join(done)}" if done else ""


@shared_task(name="games.sweep_timers", ignore_result=True)
def sweep_timers() -> dict[str, int]:
    # Each due move timer goes to a worker, as a task of its own.
    counts = timers.sweep(fire=fire_timer.delay)
    report = sweep_report(counts)
    if report:
        logger.info(report)
    return counts


@shared_task(name="games.fire_timer", ignore_result=True)
def fire_timer(game_id: int, count: int) -> int:
    # Firing twice is harmless: the second finds the timer gone or the action count moved.
    return robots.game_timer_fire(game_id=game_id, count=count)


def queue_for_game(task: Any, game_id: int, what: str, **kwargs: Any) -> None:
    """Queue ``task`` for one game (and ``kwargs``) at low priority. A broker that is down
    loses only ``what`` (a sweep does it later)."""
    try:
        task.apply_async((game_id,), kwargs or None, priority=LOW_PRIORITY)
    except OperationalError as exc:
        logger.warning("%s of game %s not queued: %r", what, game_id, exc)


def game_analysis_queue(game_id: int) -> None:
    """Queue the analysis of a finished game at low priority; call it once the game's end is
    committed. A broker that is down loses only the analysis."""
    queue_for_game(analyse_game, game_id, "analysis")


def analyse_ended_game(event: GameEnded) -> None:
    """A game's end, committed (games/events.py): a finished game's analysis is queued;
    never a cancelled game's, nor a guest's practice."""
    if event.finished and not event.guest_practice:
        game_analysis_queue(event.game_id)


@shared_task(
    name="games.analyse_game",
    ignore_result=True,
    acks_late=True,
    reject_on_worker_lost=True,
    lane="slow",  # its own queue and worker: never ahead of an award or a timer
)
def analyse_game(game_id: int) -> bool:
    """Analyse one finished game (games/analysis.py), queued at low priority when it ends.
    Run twice, it computes once. True when the game has its analysis (now or before)."""
    from games.analysis import game_analysis_compute

    return game_analysis_compute(game_id=game_id) is not None


@shared_task(name="games.analysis_sweep", ignore_result=True)
def analysis_sweep() -> int:
    """Queue the analysis of every recently finished game whose analysis task was lost."""
    from django.utils import timezone

    from games.analysis import games_unanalysed

    game_ids = games_unanalysed(now=timezone.now())
    for game_id in game_ids:
        game_analysis_queue(game_id)
    return len(game_ids)


@shared_task(name="games.guests_sweep", ignore_result=True)
def guests_sweep() -> int:
    """Delete the guests idle for hours, with what is left of theirs (games/table/guests.py)."""
    from games.table.practice import guests_sweep as sweep

    return sweep()
