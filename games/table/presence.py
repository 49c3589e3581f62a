"""Leaving and presence: who is at the table, who went away, who gave up (RULES.md §11).

A player with no socket left at a running game is away: a robot plays their seat, and after
the grace period they have abandoned. A player may also leave on purpose (they abandon), or
take their seat back from the robot after three timeouts.

| service | what | locks |
|---|---|---|
| `game_resume` | a player takes their seat back from the robot after timeouts | the table |
| `game_leave` | a player leaves a running game on purpose: they abandon it | the table |
| `game_seat_abandon` | a disconnected player's grace period ran out: they abandoned | the table |
| `table_socket_open` | a socket opened: new address, away player back | a player's, the table |
| `table_socket_close` | a socket closed: with none left, a player is away | a player's, the table |
| `server_process_beat` | a daphne process says it is alive | its own row |
| `server_process_sweep` | the sockets of a killed process are closed | each table in turn |
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import push
from games.models import (
    Game,
    GameAction,
    GameSeat,
    ServerProcess,
    Table,
    TableSeat,
    TableSocket,
    note_socket,
)
from games.table import permits
from games.table.clock import paced, reschedule
from games.table.frames import broadcast, table_summary
from games.table.refusals import require_user
from games.table.room import Part, Room, locked_room
from games.table.seating import unseat


@transaction.atomic
def game_resume(*, table_id: int, user: User) -> Game:
    """A player takes their seat back from the robot that played it after three timeouts in
    a row. Locks the table."""
    user = require_user(user)
    room = locked_room(table_id, load=Part.SEATS | Part.GAME | Part.STATE)
    permits.require("resume", room, user)
    seat = room.seat_of(user)
    game_seat = room.game_seat(seat)
    game_seat.timeouts = 0
    game_seat.save(update_fields=["timeouts"])
    reschedule(room)
    broadcast(room, {"kind": "resume", "by": user.username, "seat": seat})
    return room.game


def _abandon(room: Room, game_seat: GameSeat, event: dict[str, Any], *, table: bool) -> None:
    game_seat.abandoned = True
    game_seat.abandon_at = None
    game_seat.save(update_fields=["abandoned", "abandon_at"])
    reschedule(room)
    broadcast(room, event, table=table)


@transaction.atomic
def game_leave(*, table_id: int, user: User) -> Table:
    """A player leaves a running game on purpose (the page asks them to confirm): they have
    abandoned it, so they lose it whatever its result; a robot finishes it for them. They
    leave the table too. Locks the table."""
    user = require_user(user)
    room = locked_room(table_id, load=Part.SEATS | Part.GAME | Part.STATE)
    permits.require("leave", room, user)
    seat = room.seat_of(user)
    game_seat = room.game_seat(seat)
    unseat(room, user)
    event = {"kind": "leave", "by": user.username, "seat": seat}
    if game_seat.abandoned:
        broadcast(room, event, table=True)
    else:
        _abandon(room, game_seat, event, table=True)
    return room.table


@transaction.atomic
def game_seat_abandon(*, game_id: int, seat: int, now: Any = None) -> bool:
    """A disconnected player's grace period is over: they have abandoned, and the robot that
    plays their seat finishes the game. Run by the sweeper. Locks the table."""
    now = now or timezone.now()
    table_id = Game.objects.filter(pk=game_id).values_list("table_id", flat=True).first()
    if table_id is None:
        return False
    room = locked_room(table_id, load=Part.GAME | Part.STATE, closed=True)
    game = room.game
    if game is None or game.pk != game_id or game.status != Game.Status.PLAYING:
        return False
    game_seat = room.game_seat(seat)
    if game_seat.abandoned or game_seat.away_since is None:
        return False
    if game_seat.abandon_at is None or game_seat.abandon_at > now:
        return False
    event = {"kind": "abandoned", "by": game_seat.user.username, "seat": seat}
    _abandon(room, game_seat, event, table=False)
    return True


# --- Presence: who has a socket open at a table --------------------------------------------


@transaction.atomic
def server_process_beat(*, process_id: Any) -> None:
    """A daphne process says it is alive. Locks its own row."""
    ServerProcess.objects.update_or_create(id=process_id, defaults={"last_seen": timezone.now()})


def _away_seat(room: Room, user_id: int, *, away: bool) -> GameSeat | None:
    """The running game's seat of `user_id` if it is (`away`) or is not away, and not
    abandoned."""
    if not room.playing:
        return None
    return next(
        (
            gs
            for gs in room.game_seats
            if gs.user_id == user_id and not gs.abandoned and (gs.away_since is not None) == away
        ),
        None,
    )


@transaction.atomic
def table_socket_open(
    *, table: Table, user: User, channel_name: str, process_id: Any, ip_address: str | None
) -> int | None:
    """A logged-in user's table socket opened in process `process_id` at `table` (its row
    as the socket just read it, with its master): the socket is noted,
    and a seated player's address too, for the next game. Returns the user's seat (None: not
    seated). A spectator changes nothing at the table: their socket takes no lock. A seated
    player whose address changed, or who plays a running game, goes through the door: the
    address is written with the table's lock and pushed (the table's summary says whether
    two seats share one), and a player who was away is back in their seat, where it
    stands."""
    if user is None or not user.is_authenticated:
        return None
    note_socket(
        TableSocket, channel_name=channel_name, process_id=process_id, table=table, user=user
    )
    seated = TableSeat.objects.filter(table=table, user=user).values_list("seat", "ip_address")
    seat, address = seated.first() or (None, None)
    if seat is None:
        lobby_watchers_changed(Room(table=table))
        return None
    moved = ip_address is not None and ip_address != address
    if moved or table.status == Table.Status.PLAYING:
        # Through the door, after the socket's row: a socket of theirs closing at the same
        # moment (a reload) either sees this one or has made them away, and then they are
        # back at once.
        _arrive(table.pk, user, ip_address if moved else None)
    return seat


def _arrive(table_id: int, user: User, address: str | None) -> None:
    """A seated player opened a socket, from `address` if it is a new one: it is written;
    if they were away from a running game, they are back, and the robot gives their seat
    back. Locks the table."""
    room = locked_room(table_id, load=Part.SEATS | Part.GAME | Part.STATE, closed=True)
    moved = address is not None and _new_address(room, user, address)
    game_seat = _away_seat(room, user.pk, away=True)
    if game_seat is None:
        if moved:
            seat = room.seat_of(user)
            broadcast(room, {"kind": "address", "by": user.username, "seat": seat}, table=True)
        return
    game_seat.while_away = _played_for(game_seat)
    was_paced = _paced(room, game_seat)
    game_seat.away_since = game_seat.abandon_at = game_seat.away_count = None
    game_seat.save(update_fields=["away_since", "abandon_at", "away_count", "while_away"])
    reschedule(room, keep_clock=was_paced)
    event = {"kind": "back", "by": user.username, "seat": game_seat.seat}
    broadcast(room, event, table=moved, skip_seat=game_seat.seat)


def _new_address(room: Room, user: User, address: str) -> bool:
    """Write `address` on `user`'s seat at the locked `room`; whether it changed."""
    seat = next((s for s in room.seats if s.user_id == user.pk), None)
    if seat is None or seat.ip_address == address:
        return False
    seat.ip_address = address
    seat.save(update_fields=["ip_address"])
    return True


def _paced(room: Room, game_seat: GameSeat) -> bool:
    return paced(game_seat, competitive=room.game.competitive, move_time=room.table.move_time)


def _played_for(game_seat: GameSeat) -> list[dict[str, Any]]:
    """What the robot did in the seat's name since its player went away: its actions, as
    in the record (a card played, a cante sung…), oldest first."""
    if game_seat.away_count is None:
        return []
    actions = GameAction.objects.filter(
        game_id=game_seat.game_id, number__gt=game_seat.away_count
    ).order_by("number")
    return [a.action for a in actions if a.action.get("seat") == game_seat.seat]


@transaction.atomic
def table_socket_close(*, channel_name: str, now: Any = None) -> None:
    """A table socket closed (or its process died). A player with no socket left at a
    running game is away: a robot plays their seat, and after the grace period they have
    abandoned. A spectator's socket changes nothing at the table and takes no lock, as it
    took none to open; a seated player's locks the table."""
    row = TableSocket.objects.filter(pk=channel_name).select_related("user", "table").first()
    if row is None:
        return
    if not TableSeat.objects.filter(table_id=row.table_id, user_id=row.user_id).exists():
        TableSocket.objects.filter(pk=channel_name).delete()
        if not TableSocket.objects.filter(table_id=row.table_id, user_id=row.user_id).exists():
            lobby_watchers_changed(Room(table=row.table))
        return
    room = locked_room(row.table_id, load=Part.SEATS | Part.GAME | Part.STATE, closed=True)
    TableSocket.objects.filter(pk=channel_name).delete()
    if TableSocket.objects.filter(table_id=row.table_id, user_id=row.user_id).exists():
        return
    if room.seat_of(row.user) is None:
        lobby_watchers_changed(room)
    game_seat = _away_seat(room, row.user_id, away=False)
    if game_seat is None:
        return
    now = now or timezone.now()
    game_seat.away_since = now
    game_seat.abandon_at = now + timedelta(seconds=settings.DISCONNECT_GRACE_SECONDS)
    game_seat.away_count = room.game.action_count
    game_seat.save(update_fields=["away_since", "abandon_at", "away_count"])
    reschedule(room, keep_clock=_paced(room, game_seat))
    # The player has no socket left at this table: their seat's group needs nothing.
    event = {"kind": "away", "by": row.user.username, "seat": game_seat.seat}
    broadcast(room, event, skip_seat=game_seat.seat)


def lobby_watchers_changed(room: Room) -> None:
    """Someone began or stopped watching: the lobby's row, with its count of watchers, once
    committed (the table's own sockets are not told: a watcher changes nothing there)."""
    if room.table.status == Table.Status.CLOSED:
        return
    summary = table_summary(table=room.table, seats=room.load(Part.SEATS).seats)
    transaction.on_commit(lambda: push.send([push.lobby_message(summary)]), robust=True)


def server_process_sweep(*, now: Any = None, alive: Any = None) -> int:
    """Close the sockets of every daphne process that stopped beating (killed): their
    players are away unless they reconnected elsewhere. Returns how many sockets closed.
    `alive`, the process sweeping (the embedded default), is never taken for dead: under
    load its beat may be late, but it is running. Each socket is closed in its own
    transaction, locking its table."""
    now = now or timezone.now()
    dead_before = now - timedelta(seconds=settings.SERVER_DEAD_SECONDS)
    dead = list(
        ServerProcess.objects.filter(last_seen__lt=dead_before)
        .exclude(pk=alive)
        .values_list("pk", flat=True)
    )
    if not dead:
        return 0
    channels = list(
        TableSocket.objects.filter(process_id__in=dead).values_list("channel_name", flat=True)
    )
    for channel_name in channels:
        table_socket_close(channel_name=channel_name, now=now)
    ServerProcess.objects.filter(pk__in=dead, last_seen__lt=dead_before).delete()
    return len(channels)
