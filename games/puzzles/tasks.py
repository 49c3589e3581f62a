"""The puzzles' background work: mining a finished game (on the slow lane, at low priority,
queued once the game's analysis is stored) and the sweep of games whose mining was lost."""

from celery import shared_task

from games.tasks import queue_for_game


def puzzles_mining_queue(game_id: int) -> None:
    """Queue the mining of a finished game at low priority. A broker that is down loses only
    the mining: the sweep does it later."""
    queue_for_game(mine_game, game_id, "puzzles")


def after_analysis(sender: object, game_id: int, **kwargs: object) -> None:
    """Once a game's analysis is stored (games.tasks.analysis_stored), its mining follows."""
    puzzles_mining_queue(game_id)


# Games mined a second at most, per worker.
MINING_RATE = "2/s"


@shared_task(
    name="puzzles.mine_game",
    ignore_result=True,
    acks_late=True,
    reject_on_worker_lost=True,
    lane="slow",  # the analyses' queue and worker: never ahead of an award or a timer
    # Paced: a backlog (a sweep, a back-fill) is mined at this rate, not as fast as the worker
    # can, which took live play's p99 from 35 to 94 ms at 100 tables on two cores even at
    # nice 19 (docs/benchmarks.md). Finished games come far slower than this.
    rate_limit=MINING_RATE,
)
def mine_game(game_id: int) -> int | None:
    """Mine one finished game for puzzles (games/puzzles/store.py). Run twice, it stores its
    puzzles once. How many the game gave."""
    from games.puzzles.store import puzzles_mine_game

    return puzzles_mine_game(game_id=game_id)


@shared_task(name="puzzles.mining_sweep", ignore_result=True)
def mining_sweep() -> int:
    """Queue the mining of every recently finished 2-player game not mined yet."""
    from django.utils import timezone

    from games.puzzles.store import games_unmined

    game_ids = games_unmined(now=timezone.now())
    for game_id in game_ids:
        puzzles_mining_queue(game_id)
    return len(game_ids)
