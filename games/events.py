"""A game's end, published once after its commit, to whoever subscribed (lila's Bus).

The live-play wing ends every game in one function (games/table/play.py `end_game`) and
knows nothing of what follows: it publishes a `GameEnded`. The arenas score it, the analysis
queues it and the puzzles mine it; each subscribes in its app's `ready`. No module reaches
into another to tell it a game ended.

The event says what the subscribers ask of a game's end, so that none of them reads the
database to learn that the game is none of its business: an arena's subscriber returns at
once for a game not played at an arena's table, the analysis for a cancelled game or a
guest's practice, the puzzles for a game they do not mine.

Failure mode: the subscribers run on the thread that committed the end (a socket's, a
timer's), one after the other. One that raises is logged and the others still run; the end
is committed whatever they do, and what a subscriber lost its own sweep finds later (the
arenas' tick, the analysis sweep, the mining sweep). A rolled-back end publishes nothing.

This module imports no app (tests/site/test_layering.py): any of them may subscribe.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from django.db import transaction

logger = logging.getLogger(__name__)


class Ending(StrEnum):
    """How a game ended."""

    FINISHED = "finished"  # played to its end
    TIMEOUT = "timeout"  # its last move made by the timer, for a player whose time ran out
    ABANDONED = "abandoned"  # a player abandoned it (RULES.md §11): a robot finished it
    CANCELLED = "cancelled"  # void: every player agreed, or a moderator closed its table


@dataclass(frozen=True)
class GameEnded:
    """One game's end, committed."""

    game_id: int
    table_id: int
    variant: str
    players: int
    ending: Ending
    # Played at an arena's table (`Table.arena_table`); the arena's own rows say which.
    arena: bool
    # A guest's practice (games/table/guests.py): nothing ranked, paid or analysed.
    guest_practice: bool

    @property
    def finished(self) -> bool:
        """Played to its end (not cancelled): it has a result, a record to analyse."""
        return self.ending != Ending.CANCELLED


Subscriber = Callable[[GameEnded], None]

# By name: an app whose `ready` runs twice subscribes once.
_SUBSCRIBERS: dict[str, Subscriber] = {}


def subscriber_name(subscriber: Subscriber) -> str:
    return f"{subscriber.__module__}.{subscriber.__qualname__}"


def subscribe(subscriber: Subscriber) -> None:
    """Call `subscriber` with every game's end, after its commit. Subscribing the same
    function again changes nothing."""
    _SUBSCRIBERS[subscriber_name(subscriber)] = subscriber


def subscribers() -> dict[str, Subscriber]:
    """The subscribers by name, in the order they subscribed."""
    return dict(_SUBSCRIBERS)


def publish_on_commit(event: GameEnded) -> None:
    """Hand `event` to every subscriber once the current transaction commits (at once
    outside one); a rollback drops it. Call it once per game, in the transaction that ends
    the game."""
    transaction.on_commit(lambda: publish(event), robust=True)


def publish(event: GameEnded) -> None:
    """Hand `event` to every subscriber in turn; one that raises is logged, and the next
    still runs."""
    for name, subscriber in tuple(_SUBSCRIBERS.items()):
        try:
            subscriber(event)
        except Exception:
            logger.exception("%s failed on the end of game %s", name, event.game_id)
