"""Play now: one button seats a player at an open table that fits, or opens one.

A "Play now" table (`Table.matchmaking`) has the variant's default options and the stake
asked for; it is public and competitive, and its game starts by itself once every seat is
taken. Two players who press at the same moment land at the same table: every "Play now" of
one variant and stake runs under one lock (a PostgreSQL advisory lock held until the
transaction ends; SQLite's transactions take the whole database's write lock as they
begin), so the second one always sees the seat the first one took.

A player tired of waiting fills the empty seats with robots (`table_fill_robots`): the
table becomes a practice table, nothing at stake, and its game starts.

| service | what | locks |
|---|---|---|
| `play_now` | a seat at a fitting "Play now" table, or a new one | its kind's lock, the table |
| `table_fill_robots` | robots in the empty seats, the game started as practice | the table |
| `robots_sweep` | the same, for the tables whose players chose it, after a wait | each table |
"""

from __future__ import annotations

import zlib
from datetime import timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, F
from django.utils import timezone

from accounts.models import User
from games.models import Table, TableSeat
from games.options import DEFAULT_OPTIONS
from games.table import permits
from games.table.frames import broadcast
from games.table.guests import refuse_guest
from games.table.options import clean_table_options
from games.table.play import start_game
from games.table.practice import DEFAULT_LEVEL
from games.table.refusals import require_user
from games.table.room import Part, Room, locked_room
from games.table.seating import seat_robots, table_create, table_sit

# How long a "Play now" player who chose robots waits for people first.
ROBOTS_AFTER_SECONDS = 60
# The first key of the advisory locks of "Play now" (the second is the variant and stake's).
LOCK_CLASS = 23


def _lock(variant: str, stake: int) -> None:
    """Serialise every "Play now" of `variant` at `stake` until the transaction ends."""
    if connection.vendor != "postgresql":
        return  # SQLite: the transaction already holds the database's write lock
    key = zlib.crc32(f"{variant}:{stake}".encode()) - 2**31  # a signed 32-bit key
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_CLASS, key])


@transaction.atomic
def play_now(
    *,
    user: User,
    variant: str,
    stake: int = 0,
    robots: bool = False,
    ip_address: str | None = None,
) -> Table:
    """Seat `user` at the oldest open "Play now" table of `variant` and `stake` with a free
    seat, or open one with them as its master; a table that fills starts its game. A
    player already waiting at such a table stays there. `robots`: if the table is not full
    within `ROBOTS_AFTER_SECONDS`, robots fill its empty seats (`robots_sweep`). Takes the
    variant and stake's lock, then the table's."""
    user = require_user(user)
    refuse_guest(user)
    values = clean_table_options(
        data={"variant": variant, "stake": stake, "competitive": True}, current=DEFAULT_OPTIONS
    )
    _lock(values["variant"], values["stake"])
    fitting = Table.objects.filter(
        matchmaking=True,
        status=Table.Status.OPEN,
        variant=values["variant"],
        stake=values["stake"],
        players=values["players"],
        pairs=values["pairs"],
    )
    waiting = fitting.filter(seats__user=user).values_list("pk", flat=True).first()
    if waiting is not None:
        return _robots_later(locked_room(waiting, load=Part.SEATS), user, robots)
    table = (
        fitting.annotate(taken=Count("seats"))
        .filter(taken__lt=F("players"))
        .order_by("created_at", "pk")
        .first()
    )
    if table is None:
        table = table_create(master=user, options=values, ip_address=ip_address, matchmaking=True)
        return _robots_later(locked_room(table.pk, load=Part.SEATS), user, robots)
    table_sit(table_id=table.pk, user=user, ip_address=ip_address)
    # Held already: the same row, read again with its seats.
    room = locked_room(table.pk, load=Part.SEATS | Part.GAME)
    if len(room.seats) == room.table.players:
        start_game(room, by=user)
        return room.table
    return _robots_later(room, user, robots)


def _robots_later(room: Room, user: User, robots: bool) -> Table:
    """`user` chose robots for the seats still empty after a wait: the soonest choice at
    the table decides when. Through the door (the caller locked the room), pushed."""
    table = room.table
    if robots:
        at = timezone.now() + timedelta(seconds=ROBOTS_AFTER_SECONDS)
        if table.robots_at is None or at < table.robots_at:
            table.robots_at = at
            table.save(update_fields=["robots_at"])
            broadcast(room, {"kind": "robots_later", "by": user.username}, table=True)
    return table


@transaction.atomic
def table_fill_robots(*, table_id: int, user: User) -> Table:
    """Robots in a waiting table's empty seats, and its game starts: a practice game,
    nothing at stake. Any seated player may ask at a "Play now" table, the master at
    another. Locks the table."""
    user = require_user(user)
    room = locked_room(table_id, load=Part.SEATS | Part.GAME)
    permits.require("robots", room, user)
    return _fill(room, by=user)


def _fill(room: Room, *, by: User) -> Table:
    """Robots in the empty seats of a locked waiting table; its practice game starts."""
    table = room.table
    table.competitive, table.stake, table.private = False, 0, True
    table.matchmaking, table.robots_at = False, None
    table.robot_level = DEFAULT_LEVEL
    table.save(
        update_fields=["competitive", "stake", "private", "matchmaking", "robots_at", "robot_level"]
    )
    seat_robots(room)
    start_game(room, by=by)
    return table


def robots_sweep(*, now: Any = None) -> int:
    """Fill with robots the "Play now" tables whose players chose it and waited long
    enough; how many started. Each in its own transaction, locking its table."""
    now = now or timezone.now()
    due = Table.objects.filter(
        matchmaking=True, status=Table.Status.OPEN, robots_at__lte=now
    ).values_list("pk", flat=True)[:100]
    return sum(_fill_due(table_id, now=now) for table_id in due)


@transaction.atomic
def _fill_due(table_id: int, *, now: Any) -> int:
    room = locked_room(table_id, load=Part.SEATS | Part.GAME)
    table = room.table
    if not table.matchmaking or table.robots_at is None or table.robots_at > now:
        return 0
    if table.status != Table.Status.OPEN or len(room.seats) >= table.players:
        return 0
    _fill(room, by=table.master)
    return 1


def waiting_by_variant() -> dict[str, int]:
    """How many players wait at open "Play now" tables, by variant (any stake)."""
    rows = (
        TableSeat.objects.filter(
            table__matchmaking=True, table__status=Table.Status.OPEN, user__isnull=False
        )
        .values_list("table__variant")
        .annotate(n=Count("pk"))
    )
    return dict(rows)
