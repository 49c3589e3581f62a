"""Celery tasks of live play: the timer sweep (queued by beat every second) and the firing of
one game's timer, where robots think (games/timers.py)."""

from celery import shared_task

from games import services, timers


@shared_task(name="games.sweep_timers", ignore_result=True)
def sweep_timers() -> dict[str, int]:
    return timers.sweep()


@shared_task(name="games.fire_timer", ignore_result=True)
def fire_timer(game_id: int, count: int) -> int:
    # Firing twice is harmless: the second finds the timer gone or the action count moved.
    return services.game_timer_fire(game_id=game_id, count=count)


@shared_task(
    name="games.analyse_game", ignore_result=True, acks_late=True, reject_on_worker_lost=True
)
def analyse_game(game_id: int) -> bool:
    """Analyse one finished game (games/analysis.py), queued at low priority when it ends.
    Run twice, it computes once. True when the game has its analysis (now or before)."""
    from games.analysis import game_analysis_compute

    return game_analysis_compute(game_id=game_id) is not None
