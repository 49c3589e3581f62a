"""The puzzles' background work: mining a finished game (on the slow lane, at low priority,
queued when its end is published, after its analysis) and the sweep of games whose mining
was lost.

The mining follows the analysis: a game's end queues both, the analysis first (the games
app subscribes before the puzzles, and the slow lane serves one task at a time, in order),
and the mining of a game that is analysed makes sure of its analysis before it mines: it
finds it stored, or computes it if its task was lost. A guest's practice is never analysed:
it is mined at once."""

from celery import shared_task

from games.events import GameEnded
from games.tasks import queue_for_game


def puzzles_mining_queue(game_id: int, *, analyse: bool = False) -> None:
    """Queue the mining of a finished game at low priority, after its analysis when
    `analyse`. A broker that is down loses only the mining: the sweep does it later."""
    queue_for_game(mine_game, game_id, "puzzles", analyse=analyse)


def mine_ended_game(event: GameEnded) -> None:
    """A game's end, committed (games/events.py): a finished 2-player game of a mined
    variant is queued for its mining, after its analysis unless it is a guest's practice."""
    from games.puzzles.store import MINED

    if event.finished and (event.variant, event.players) in MINED:
        puzzles_mining_queue(event.game_id, analyse=not event.guest_practice)


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
def mine_game(game_id: int, analyse: bool = False) -> int | None:
    """Mine one finished game for puzzles (games/puzzles/store.py), after its analysis
    (games/analysis.py) when `analyse`: stored already, or computed now. Run twice, it
    stores its puzzles once. How many the game gave."""
    from games.analysis import game_analysis_compute
    from games.puzzles.store import puzzles_mine_game

    if analyse:
        game_analysis_compute(game_id=game_id)
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
