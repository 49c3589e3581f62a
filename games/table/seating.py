"""Seating: tables open and close, players sit and stand, the master sets the options.

| service | what | locks |
|---|---|---|
| `table_create` | a new table; its master sits in seat 0 | the master's user row |
| `table_practice` | a practice table against robots, its game started at once | the master |
| `table_sit` | sit in a free seat | the table |
| `table_stand` | leave a seat before the game starts | the table |
| `table_set_options` | the master changes §10 options between games | the table |
| `table_invite` | the master invites a player by username | the table |
| `table_close` | a moderator closes a table | the table |
| `banned_leaves_tables` | a banned player's waiting tables close; they leave others' | each table |
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _

from accounts.models import ModerationAction, User
from accounts.services import moderation_log
from games.models import Invitation, Table, TableSeat
from games.options import DEFAULT_OPTIONS, TABLE_OPTIONS, options_at_rest
from games.table import permits
from games.table.cancel import void_game
from games.table.frames import broadcast
from games.table.guests import refuse_guest
from games.table.options import clean_table_options, table_options
from games.table.people import notify_invited
from games.table.play import start_game
from games.table.refusals import TableError, require_user
from games.table.room import Part, Room, locked_room
from rankings.selectors import chips_balance


def _check_chips(user: User, stake: int) -> None:
    """The player who opens or sits at a table holds its stake; told in their own words."""
    held = chips_balance(user=user)
    if stake and held < stake:
        raise TableError(
            "invalid",
            _("The table's stake is %(stake)s chips, and you hold %(held)s.")
            % {
                "stake": number_format(stake, force_grouping=True),
                "held": number_format(held, force_grouping=True),
            },
            field="stake",
        )


def _new_table(*, master: User, values: dict[str, Any], ip_address: str | None) -> Room:
    table = Table.objects.create(master=master, **values)
    TableSeat.objects.create(table=table, seat=0, user=master, ip_address=ip_address)
    return Room(table=table, bumped=False)


@transaction.atomic
def table_create(
    *,
    master: User,
    options: Mapping[str, Any],
    ip_address: str | None = None,
    matchmaking: bool = False,
) -> Table:
    """A new table with `options` (RULES.md §10); its master sits in seat 0. `matchmaking`:
    a "Play now" table (games/table/matchmaking.py).

    Locks the master's user row, so that the chips checked stay theirs."""
    master = require_user(master)
    refuse_guest(master)
    User.objects.select_for_update().filter(pk=master.pk).first()
    values = clean_table_options(data=options, current=DEFAULT_OPTIONS)
    _check_chips(master, values["stake"] if values["competitive"] else 0)
    values = {**values, "matchmaking": matchmaking}
    room = _new_table(master=master, values=values, ip_address=ip_address)
    broadcast(room, {"kind": "open", "by": master.username}, table=True)
    return room.table


@transaction.atomic
def table_practice(
    *, master: User, options: Mapping[str, Any], ip_address: str | None = None
) -> Table:
    """A practice table against robots, its game started at once (RULES.md §11): the player
    in seat 0, robots of `options["robot_level"]` in the others (in 4-player pairs the
    partner, seat 2, sits opposite). Nothing is at stake. Locks the master's user row."""
    master = require_user(master)
    User.objects.select_for_update().filter(pk=master.pk).first()
    practice = {**options, "competitive": False, "stake": 0, "private": True}
    values = clean_table_options(data=practice, current=DEFAULT_OPTIONS)
    room = _new_table(master=master, values=values, ip_address=ip_address)
    seat_robots(room)
    start_game(room, by=master)
    return room.table


def seat_robots(room: Room) -> None:
    """A practice table: robots of the table's level in every seat no player holds, none
    beyond the table's size."""
    table = room.table
    TableSeat.objects.filter(table=table, seat__gte=table.players).delete()
    TableSeat.objects.filter(table=table, user__isnull=True).update(robot=table.robot_level)
    taken = set(TableSeat.objects.filter(table=table).values_list("seat", flat=True))
    TableSeat.objects.bulk_create(
        TableSeat(table=table, seat=n, robot=table.robot_level)
        for n in range(table.players)
        if n not in taken
    )
    room.reload(Part.SEATS)


@transaction.atomic
def table_sit(
    *, table_id: int, user: User, seat: int | None = None, ip_address: str | None = None
) -> Table:
    """Sit `user` in `seat` (None: the first free one). Locks the table.

    A seat needs the stake in chips; a private table needs an invitation or the master's
    friendship; nobody sits down while a game runs."""
    user = require_user(user)
    room = locked_room(table_id, load=Part.SEATS | Part.GAME)
    permits.require("sit", room, user)
    table = room.table
    taken = {s.seat for s in room.seats}
    if seat is None:
        seat = next(n for n in range(table.players) if n not in taken)
    elif not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < table.players:
        raise TableError("invalid", _("There is no such seat at this table."))
    elif seat in taken:
        raise TableError("invalid", _("That seat is taken."))
    TableSeat.objects.create(table=table, seat=seat, user=user, ip_address=ip_address)
    if Invitation.objects.filter(table=table, user=user).exists():
        notify_invited(user.pk)  # accepted: one invitation fewer in their header
    room.reload(Part.SEATS)
    broadcast(room, {"kind": "sit", "by": user.username, "seat": seat}, table=True)
    return table


@transaction.atomic
def table_stand(*, table_id: int, user: User) -> Table:
    """`user` leaves their seat, before a game starts or between games. Locks the table.

    When the master stands, the player in the lowest seat becomes master; when nobody is
    left, the table closes."""
    user = require_user(user)
    room = locked_room(table_id, load=Part.SEATS | Part.GAME)
    permits.require("stand", room, user)
    seat = room.seat_of(user)
    unseat(room, user)
    broadcast(room, {"kind": "stand", "by": user.username, "seat": seat}, table=True)
    return room.table


def unseat(room: Room, user: User) -> None:
    """`user` leaves the table's seat. When the master leaves, the player in the lowest seat
    becomes master; a table left with no player at all (robots do not count) closes, or will
    once its game is over."""
    table = room.table
    TableSeat.objects.filter(table=table, user=user).delete()
    humans = [s for s in room.seats if s.user_id is not None and s.user_id != user.pk]
    room.reload(Part.SEATS)
    if table.master_id == user.pk and humans:
        table.master = humans[0].user
        table.save(update_fields=["master"])
    elif not humans and table.status != Table.Status.PLAYING:
        table.status = Table.Status.CLOSED
        table.closed_at = timezone.now()
        table.save(update_fields=["status", "closed_at"])


@transaction.atomic
def table_set_options(*, table_id: int, user: User, options: Mapping[str, Any]) -> Table:
    """The master changes options, only while no game runs; everyone at the table is told at
    once. Locks the table."""
    user = require_user(user)
    room = locked_room(table_id, load=Part.SEATS | Part.GAME)
    permits.require("options", room, user)
    table = room.table
    current = table_options(table)
    values = clean_table_options(data=options, current=current)
    robots = [s for s in room.seats if s.robot]
    if robots and (values["competitive"] or values["stake"]):
        raise TableError(
            "invalid", _("A table with robots is for practice only."), field="competitive"
        )
    beyond = [s for s in room.seats if s.seat >= values["players"] and not s.robot]
    if beyond:
        raise TableError(
            "invalid",
            _("Seat %(seat)s is taken: it must be free before the table gets smaller.")
            % {"seat": beyond[0].seat + 1},
            field="players",
        )
    if values["competitive"] and values["stake"] > (
        current["stake"] if current["competitive"] else 0
    ):
        for s in room.seats:
            if s.user_id is not None:
                _check_chips(s.user, values["stake"])
    changed = [name for name in TABLE_OPTIONS if values[name] != current[name]]
    for name in changed:
        setattr(table, name, values[name])
    table.save()
    if robots:
        seat_robots(room)
    event = {"kind": "options", "by": user.username, "changed": changed}
    broadcast(room, event, table=True, game=False)
    return table


@transaction.atomic
def table_invite(*, table_id: int, user: User, username: str) -> Invitation:
    """The master invites a player, by username, to sit at the table. Locks the table."""
    user = require_user(user)
    room = locked_room(table_id, load=Part.SEATS | Part.GAME)
    permits.require("invite", room, user)
    name = username.strip() if isinstance(username, str) else ""
    if not name:
        raise TableError("invalid", _("Type the name of the player to invite."), field="username")
    found = User.objects.filter(is_guest=False, username__iexact=name).first()
    if found is None:
        raise TableError(
            "invalid", _("No player is called %(name)s.") % {"name": name}, field="username"
        )
    # A banned or closed account has a public page, but nobody can sit as them.
    if not found.is_active or found.is_banned:
        raise TableError(
            "invalid",
            _("%(name)s cannot be invited: they cannot play now.") % {"name": found.username},
            field="username",
        )
    guest = found
    if guest.pk == user.pk:
        raise TableError("invalid", _("You cannot invite yourself."), field="username")
    invitation, _created = Invitation.objects.get_or_create(
        table=room.table, user=guest, defaults={"invited_by": user}
    )
    if invitation.declined_at is not None:  # invited again: asked anew
        invitation.declined_at = None
        invitation.save(update_fields=["declined_at"])
    notify_invited(guest.pk)
    event = {"kind": "invite", "by": user.username, "user": guest.username}
    # The table's row too: the invited player's lobby marks it at once.
    broadcast(room, event, table=True, game=False)
    return invitation


def table_for_players(
    *, options: Mapping[str, Any], players: Sequence[tuple[User, str | None]]
) -> Room:
    """A new table with `options` whose `players` (each with the address their game records)
    sit in order, the first its master, and its game started at once: an arena's. Its
    start is pushed and counted in its version, as at any table."""
    master = players[0][0]
    table = Table.objects.create(master=master, arena_table=True, **options_at_rest(options))
    TableSeat.objects.bulk_create(
        TableSeat(table=table, seat=n, user=user, ip_address=ip_address)
        for n, (user, ip_address) in enumerate(players)
    )
    room = Room(table=table).load(Part.SEATS)  # nobody else knows of it yet: no lock
    start_game(room, by=master)
    return room


@transaction.atomic
def table_done(*, table_id: int, by: str | None = None) -> Table:
    """A table made for one game closes once its game is over (its players stay seated in
    its record): its sockets are told, and the lobby. Locks the table."""
    room = locked_room(table_id, load=Part.SEATS | Part.GAME, closed=True)
    table = room.table
    if table.status == Table.Status.CLOSED:
        return table
    table.status, table.closed_at = Table.Status.CLOSED, timezone.now()
    table.save(update_fields=["status", "closed_at"])
    broadcast(room, {"kind": "closed", "by": by, "reason": ""}, table=True, game=False)
    return table


@transaction.atomic
def table_close(*, table_id: int, moderator: User, reason: str = "") -> Table:
    """A moderator closes a table, saying why: the players read the reason at the table. A
    game still running is cancelled and its stakes go back to the players through the
    ledger. The closing goes to the moderation log. Locks the table (and the ledger its
    refund touches)."""
    if not (moderator.is_staff and moderator.has_perm("games.close_table")):
        raise TableError("not_master", _("Only moderators may close a table."))
    room = locked_room(table_id, load=Part.SEATS | Part.GAME, closed=True)
    table = room.table
    if table.status == Table.Status.CLOSED:
        return table
    reason = reason.strip()
    table.status = Table.Status.CLOSED
    table.closed_at = timezone.now()
    table.close_reason = reason
    table.save(update_fields=["status", "closed_at", "close_reason"])
    moderation_log(
        moderator=moderator, kind=ModerationAction.Kind.CLOSE, reason=reason, table_id=table.pk
    )
    closed = {"kind": "closed", "by": moderator.username, "reason": reason}
    if room.playing:
        # The game ends as every game does, pushed as the closing (the table stays closed).
        void_game(room, key=f"table-close-refund:game-{room.game.pk}", push=closed)
    else:
        broadcast(room, closed, table=True)
    return table


def banned_leaves_tables(*, user_id: int) -> int:
    """A banned player can no longer come to the tables that wait for them: each table with
    no game running whose master they are closes (out of the lobby, its players told), and
    they stand up from every other such table's seat. A running game is left to its end.
    No stake is held at a waiting table (stakes go into the pot when a game starts): none
    to give back. How many tables changed. Locks each table in turn."""
    waiting = (
        Table.objects.filter(status=Table.Status.OPEN, seats__user_id=user_id)
        .distinct()
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    return sum(_banned_leaves(table_id=table_id, user_id=user_id) for table_id in waiting)


@transaction.atomic
def _banned_leaves(*, table_id: int, user_id: int) -> bool:
    """The banned player `user_id` leaves the table `table_id` if no game runs there, and
    closes it if they are its master; whether it changed. Locks the table."""
    room = locked_room(table_id, load=Part.SEATS | Part.GAME, closed=True)
    table = room.table
    seat = next((s for s in room.seats if s.user_id == user_id), None)
    if table.status != Table.Status.OPEN or seat is None:
        return False
    if table.master_id == user_id:
        table.status, table.closed_at = Table.Status.CLOSED, timezone.now()
        table.save(update_fields=["status", "closed_at"])
        broadcast(room, {"kind": "closed", "by": None, "reason": ""}, table=True)
        return True
    unseat(room, seat.user)
    broadcast(room, {"kind": "stand", "by": seat.user.username, "seat": seat.seat}, table=True)
    return True
