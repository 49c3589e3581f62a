"""Celery tasks of the arenas: the tick (beat queues it every second) and one game's score,
queued when an arena game's end is published (games/events.py). Both are safe to run twice:
the tick scores whatever a lost task left unscored, and a game is scored once
(games/arenas/scoring.py)."""

import logging

from celery import shared_task
from kombu.exceptions import OperationalError

from games.events import GameEnded

logger = logging.getLogger(__name__)


def arena_tick_here() -> dict[str, int]:
    from games.arenas.services import arena_tick

    counts = arena_tick()
    if any(counts.values()):
        logger.info("arena tick: %s", counts)
    return counts


@shared_task(name="arenas.tick", ignore_result=True)
def tick() -> dict[str, int]:
    return arena_tick_here()


@shared_task(name="arenas.score_game", ignore_result=True, acks_late=True)
def score_game(game_id: int) -> bool:
    from games.arenas.scoring import arena_game_score

    return arena_game_score(game_id=game_id)


def arena_game_ended(event: GameEnded) -> None:
    """A game's end, committed (games/events.py): an arena game's score is queued. Any
    other game returns at once, on the event alone: no query on the thread that ended it. A
    broker that is down loses nothing: the next tick scores it."""
    if not event.arena:
        return
    try:
        score_game.delay(event.game_id)
    except OperationalError as exc:
        logger.warning("score of arena game %s not queued: %r", event.game_id, exc)
