"""Practice: the robot levels as players read them, and the end of tables left alone.

A practice table is one player's (or a "Play now" table whose empty seats were filled with
robots): robots in the other seats, nothing at stake. It is never in the public lobby, and
once its game is over and nobody has it open any more, it closes. So does a table of people
whose game is over, once its players have all left it for `LEFT_SECONDS`: else it would stay
in the lobby as a table "waiting for players" with no free seat.

| service | what | locks |
|---|---|---|
| `practice_close_idle` | close the tables left alone after their game | each table |
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.bots import LEVELS
from games.models import Table, TableSeat, TableSocket
from games.options import DEFAULT_OPTIONS
from games.robot_names import LEVEL_WORDS
from games.table.frames import broadcast
from games.table.room import locked_room
from tute_site.typography import labelled

# The levels a player picks, in order, each with a line saying how it plays.
LEVEL_LINES = {
    "easy": _("Plays by sound habits but now and then throws a card at random: to learn."),
    "medium": _("Plays each card by a club player's rules and counts out the last tricks."),
    "hard": _("Thinks about a quarter of a second a card, trying many possible deals."),
    "expert": _("Thinks about a second a card: the strongest robot."),
}
DEFAULT_LEVEL = DEFAULT_OPTIONS["robot_level"]
# A practice table whose game is over closes once nobody has had it open this long.
IDLE_SECONDS = 60
# A table of people whose game is over closes this long after it, once nobody has it open
# (longer: its players may look at the game's page and come back for another).
LEFT_SECONDS = 300


def level_choices(*, lines: bool = True) -> list[tuple[str, str]]:
    """(code, "word: how it plays") for each level a player picks, easiest first (the word
    alone without `lines`, for a narrow list)."""
    if not lines:
        return [(code, str(LEVEL_WORDS[code])) for code in LEVELS]
    return [(code, labelled(LEVEL_WORDS[code], LEVEL_LINES[code])) for code in LEVELS]


def idle_practice_tables(*, now: Any) -> list[int]:
    """Tables with no game running and nobody's socket open: practice tables (with robots)
    with no game or an over one older than `IDLE_SECONDS`, and tables of people whose game
    ended more than `LEFT_SECONDS` ago."""
    before = now - timedelta(seconds=IDLE_SECONDS)
    left = now - timedelta(seconds=LEFT_SECONDS)
    robots = TableSeat.objects.filter(table=OuterRef("pk")).exclude(robot="")
    sockets = TableSocket.objects.filter(table=OuterRef("pk"))
    practice = Q(Exists(robots)) & (
        Q(game__ended_at__lt=before) | Q(game__isnull=True, created_at__lt=before)
    )
    return list(
        Table.objects.filter(status=Table.Status.OPEN)
        .exclude(Exists(sockets))
        .filter(practice | Q(game__ended_at__lt=left))
        .values_list("pk", flat=True)[:500]
    )


def practice_close_idle(*, now: Any = None) -> int:
    """Close every table left alone after its game (`idle_practice_tables`); how many
    closed. Each in its own transaction, locking its table (and checking again under the
    lock)."""
    now = now or timezone.now()
    closed = 0
    for table_id in idle_practice_tables(now=now):
        closed += _close(table_id, now=now)
    return closed


@transaction.atomic
def _close(table_id: int, *, now: Any) -> int:
    room = locked_room(table_id, closed=True)
    table = room.table
    if table.status != Table.Status.OPEN or TableSocket.objects.filter(table=table).exists():
        return 0
    table.status = Table.Status.CLOSED
    table.closed_at = now
    table.save(update_fields=["status", "closed_at"])
    broadcast(room, {"kind": "closed", "by": None, "reason": ""}, table=True, game=False)
    # A guest's closed table and its games stay while the guest does: the summary's "Watch
    # the replay" keeps its page. The guests' sweep (games.table.guests) takes them all.
    return 1
