"""Practice: the robot levels as players read them, and the end of tables left alone.

A practice table is one player's (or a "Play now" table whose empty seats were filled with
robots): robots in the other seats, nothing at stake. It is never in the public lobby, and
once its game is over and nobody has it open any more, it closes. So does a table of people
whose game is over, once its players have all left it for `LEFT_SECONDS`: else it would stay
in the lobby as a table "waiting for players" with no free seat.

A guest's tables stay closed while the guest exists (the summary's "Watch the replay" keeps
its page); a guest idle for `GUEST_IDLE_HOURS` is deleted with their tables and games, each
table through its door.

| service | what | locks |
|---|---|---|
| `practice_close_idle` | close the tables left alone after their game | each table |
| `guests_sweep` | idle guests deleted, with their tables and games | each guest's tables |
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.db.models.deletion import ProtectedError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.bots import LEVELS
from games.models import Game, Table, TableSeat, TableSocket
from games.options import DEFAULT_OPTIONS
from games.robot_names import LEVEL_WORDS
from games.table.frames import broadcast
from games.table.guests import GUEST_IDLE_HOURS
from games.table.room import Part, Room, locked_room
from tute_site.typography import labelled

# The levels a player picks, in order, each with a line saying how it plays.
LEVEL_LINES = {
    "easy": _("Plays by sound habits but now and then throws a card at random: to learn."),
    "medium": _("Plays each card by a club player's rules and counts out the last tricks."),
    "hard": _("Thinks about a quarter of a second a card, trying many possible deals."),
    "expert": _("Thinks about a second a card: the strongest robot."),
}
DEFAULT_LEVEL = DEFAULT_OPTIONS["robot_level"]
logger = logging.getLogger(__name__)

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
    room = locked_room(table_id, load=Part.SEATS | Part.GAME, closed=True)
    table = room.table
    if table.status != Table.Status.OPEN or TableSocket.objects.filter(table=table).exists():
        return 0
    _closed(room, now=now)
    # A guest's closed table and its games stay while the guest does: the summary's "Watch
    # the replay" keeps its page. The guests' sweep takes them all.
    return 1


def _closed(room: Room, *, now: Any) -> None:
    """Close the locked `room`'s table, if open, and push it: the table says so to its
    sockets and leaves the lobby."""
    table = room.table
    if table.status == Table.Status.CLOSED:
        return
    table.status = Table.Status.CLOSED
    table.closed_at = now
    table.save(update_fields=["status", "closed_at"])
    broadcast(room, {"kind": "closed", "by": None, "reason": ""}, table=True, game=False)


def guests_sweep(*, now: Any = None, limit: int = 100) -> int:
    """Delete the guests idle for `GUEST_IDLE_HOURS` (since they came, or last logged in),
    with their tables and games; how many were deleted."""
    now = now or timezone.now()
    before = now - timedelta(hours=GUEST_IDLE_HOURS)
    idle = list(
        User.objects.filter(is_guest=True, date_joined__lt=before)
        .exclude(last_login__gte=before)
        .values_list("pk", flat=True)[:limit]
    )
    deleted = 0
    for user_id in idle:
        try:
            _guest_delete(user_id, now=now)
        except ProtectedError:
            # A row that must outlive them (none should): kept, and said in the log.
            logger.warning("guest %s kept: a protected row refers to them", user_id)
            continue
        deleted += 1
    return deleted


@transaction.atomic
def _guest_delete(user_id: int, *, now: Any) -> None:
    """A guest and what is theirs deleted. Each of their tables goes through its door, in
    the order of their ids: locked, closed and pushed if still open, then deleted with its
    games."""
    tables = Table.objects.filter(Q(master_id=user_id) | Q(seats__user_id=user_id))
    for table_id in sorted(set(tables.values_list("pk", flat=True))):
        room = locked_room(table_id, load=Part.SEATS | Part.GAME, closed=True)
        _closed(room, now=now)
        Game.objects.filter(table_id=table_id).delete()
        Table.objects.filter(pk=table_id).delete()
    # Games no longer at a table of theirs (a table's game only while it is its current one).
    Game.objects.filter(seats__user_id=user_id).delete()
    User.objects.filter(pk=user_id, is_guest=True).delete()
