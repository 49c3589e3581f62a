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
