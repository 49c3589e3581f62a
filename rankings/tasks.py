"""Celery tasks of the rankings: the award after each game, and the sweep that catches any
award whose task was lost.

Both are safe to run any number of times: `game_result_award` locks the result and awards
it once. `acks_late` with `reject_on_worker_lost` puts a task back on the queue when the
worker running it dies, and the next run finds the work either done or not started.
"""

from datetime import timedelta

from celery import shared_task
from django.conf import settings

from rankings.awards import game_result_award, game_results_unawarded
from rankings.ratings import ratings_window_roll


@shared_task(name="rankings.award_game", acks_late=True, reject_on_worker_lost=True)
def award_game(game_id: int) -> bool:
    """Award one finished game. True when it is awarded (now or before)."""
    result = game_result_award(game_id=game_id)
    return result is not None and result.awarded_at is not None


@shared_task(name="rankings.award_sweep", acks_late=True, reject_on_worker_lost=True)
def award_sweep(older_than_seconds: float | None = None) -> int:
    """Award every submitted result still without its award, submitted at least
    `older_than_seconds` ago (a result this old with no award lost its task; by default
    settings.RANKINGS_AWARD_SWEEP_AFTER_SECONDS, two minutes). Returns how many it awarded."""
    if older_than_seconds is None:
        older_than_seconds = settings.RANKINGS_AWARD_SWEEP_AFTER_SECONDS
    awarded = 0
    for game_id in game_results_unawarded(older_than=timedelta(seconds=older_than_seconds)):
        game_result_award(game_id=game_id)
        awarded += 1
    return awarded


@shared_task(name="rankings.ratings_window_roll", acks_late=True, reject_on_worker_lost=True)
def ratings_window_roll_task() -> int:
    """Move the rating boards' last-days window to end today; harmless when it did already."""
    return ratings_window_roll()
