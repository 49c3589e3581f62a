"""The room: everything at one table, loaded once under the table's lock.

Every change at a table starts with `locked_room`: it takes the table's row with the lock
(so any number of processes can serve one table) and reads it in the same statement. The
rest of the room (the seats, the running game with its seats, the engine state) is read the
first time a service asks for it, once, after the lock: nothing a service reads is older
than the lock, and nothing is read twice.

The table's `version` counts the changes pushed to its sockets (docs/protocol.md). Every
change to a room's rows (table, seats, game, game seats) is pushed, so the version also
says whether a room read earlier, without the lock, is still current: the robots think on
such a room and act only if the version did not move (games/table/robots.py).

Under PostgreSQL's READ COMMITTED a statement sees the rows as they were when it started,
so the locking statement reads nothing but the table's own row (which the lock returns as
its holder left it); the game is read by the next statement, after the lock was granted.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import orjson
from django.db import connection, transaction
from django.db.models import Field, Model
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.engine import GameState
from games.models import CancelProposal, Game, GameAction, GameSeat, Table, TableSeat
from games.table.record import Fetched, game_state, known_counts
from games.table.refusals import TableError

_UNSET: Any = object()


@dataclass(eq=False)
class Room:
    """One table as a service sees it under the lock. `bumped`: the locking statement
    already counted this change in the table's version."""

    table: Table
    bumped: bool = False
    _seats: list[TableSeat] | None = None
    _game: Game | None = _UNSET
    _game_seats: list[GameSeat] = field(default_factory=list)
    _proposal: CancelProposal | None = _UNSET
    _state: GameState | None = None
    _fetched: Fetched | None = None

    @property
    def seats(self) -> list[TableSeat]:
        """The table's seats with their users, in seat order."""
        if self._seats is None:
            self._seats = list(self.table.seats.select_related("user").order_by("seat"))
        return self._seats

    def seats_changed(self) -> None:
        """The table's seats were written: read them again when next asked."""
        self._seats = None

    @property
    def game(self) -> Game | None:
        """The table's current (or last) game, read with its seats in one statement."""
        if self._game is _UNSET:
            self._load_game()
        return self._game

    @property
    def game_seats(self) -> list[GameSeat]:
        """The game's seats with their users, in seat order."""
        if self._game is _UNSET:
            self._load_game()
        return self._game_seats

    def _load_game(self) -> None:
        self._game, self._game_seats = None, []
        if self.table.game_id is not None:
            rows, _table, fetched = _game_rows(self.table.game_id)
            self._take(rows, fetched)

    def _take(self, rows: list[GameSeat], fetched: Fetched | None) -> None:
        if not rows:
            return
        game = rows[0].game  # one object, shared by the seats (`_game_rows`)
        self._game, self._game_seats = game, rows
        self._proposal = rows[0].open_proposal
        self._fetched = fetched
        self.table.game = game

    def set_game(self, game: Game, game_seats: list[GameSeat]) -> None:
        """A game just started at this table."""
        self.table.game = game
        self._game, self._game_seats, self._proposal, self._state = game, game_seats, None, None

    @property
    def state(self) -> GameState | None:
        """The engine state of the table's game (None without a game). Services change it
        in place as they apply actions."""
        if self._state is None and self.game is not None:
            self._state = game_state(game=self.game, fetched=self._fetched)
            self._fetched = None  # caught up once: a later state is the cache's
        return self._state

    @state.setter
    def state(self, value: GameState) -> None:
        self._state = value

    def hand_over_state(self) -> None:
        """The state was given to this process's cache (games/table/record.py) as the
        game's state once committed: it is not changed again here. The next service on this
        room reads it again, from the cache."""
        self._state = None

    @property
    def proposal(self) -> CancelProposal | None:
        """The game's open proposal to cancel, if any."""
        if self._proposal is _UNSET:
            game = self.game
            self._proposal = (
                None
                if game is None
                else CancelProposal.objects.filter(
                    game=game, status=CancelProposal.Status.OPEN
                ).first()
            )
        return self._proposal

    @proposal.setter
    def proposal(self, value: CancelProposal | None) -> None:
        self._proposal = value

    @property
    def playing(self) -> bool:
        game = self.game
        return game is not None and game.status == Game.Status.PLAYING

    def seat_of(self, user: User | None) -> int | None:
        """The table seat `user` holds, or None."""
        if user is None or not user.is_authenticated:
            return None
        return next((s.seat for s in self.seats if s.user_id == user.pk), None)

    def game_seat(self, seat: int) -> GameSeat:
        return next(gs for gs in self.game_seats if gs.seat == seat)

    # --- Refusals every service shares -----------------------------------------------------

    def require_open(self) -> None:
        if self.table.status == Table.Status.CLOSED:
            raise TableError("invalid", _("This table is closed."))

    def require_master(self, user: User) -> None:
        if self.table.master_id != user.pk:
            raise TableError("not_master", _("Only the table's master may do that."))

    def require_seated(self, user: User) -> int:
        seat = self.seat_of(user)
        if seat is None:
            raise TableError("not_seated", _("You are not seated at this table."))
        return seat

    def require_game(self) -> Game:
        if not self.playing:
            raise TableError("no_game", _("No game is running at this table."))
        return self.game

    def player_seat(self, user: User) -> GameSeat:
        """The running game's seat `user` plays, refusing a player who is not seated, a
        table with no game running and a player who abandoned. Reads the table's seats only
        to refuse: a player's move needs the game's seats alone."""
        mine = next(
            (gs for gs in self.game_seats if gs.user_id == user.pk and not gs.abandoned), None
        )
        if mine is not None and self.playing:
            return mine
        seat = self.require_seated(user)
        self.require_game()
        return self.playing_seat(seat)

    def playing_seat(self, seat: int) -> GameSeat:
        game_seat = self.game_seat(seat)
        if game_seat.abandoned:
            raise TableError("invalid", _("You abandoned this game: a robot plays your seat."))
        return game_seat


class _Columns:
    """A model's columns in a hand-written statement, read back as the ORM reads them
    (SQLite's dates and booleans, JSON…), their conversions worked out once."""

    def __init__(self, model: type[Model], fields: list[Field], alias: str = "") -> None:
        qn = connection.ops.quote_name
        self.model, self.width = model, len(fields)
        self.sql = ", ".join(f"{alias}.{qn(f.column)}" if alias else qn(f.column) for f in fields)
        self.attnames = [field.attname for field in fields]
        self.converters = [_converters(field) for field in fields]

    def convert(self, value: Any) -> Any:
        """The value of a one-column part as the ORM reads it."""
        return _convert(value, self.converters[0])

    def build(self, values: Any) -> Model:
        converted = [
            _convert(value, converters)
            for value, converters in zip(values, self.converters, strict=True)
        ]
        return self.model.from_db(connection.alias, self.attnames, converted)


def _converters(field: Field) -> list[tuple[Any, Any]]:
    column = field.get_col(field.model._meta.db_table)
    found = [*connection.ops.get_db_converters(column), *column.get_db_converters(connection)]
    return [(converter, column) for converter in found]


def _convert(value: Any, converters: list[tuple[Any, Any]]) -> Any:
    for converter, column in converters:
        value = converter(value, column, connection)
    return value


class _SeatQuery:
    """The one read of a game's seats, with the game (all but its record), the players'
    usernames, the open proposal to cancel, what the game's state needs from the database
    (games/table/record.py: the action rows this process has not applied, and the record
    when the state must be rebuilt) and, for a robot, the table: one statement, written
    once.

    Hand-written for the hot path: it runs at every move, and Django building this join
    (with its subqueries) each time cost five times what PostgreSQL takes to answer it."""

    def __init__(self, *, table: bool) -> None:
        self.parts = [
            _Columns(GameSeat, list(GameSeat._meta.concrete_fields), "s"),
            _Columns(Game, [f for f in Game._meta.concrete_fields if f.name != "record"], "g"),
            _Columns(User, [User._meta.pk, User._meta.get_field("username")], "u"),
            _Columns(CancelProposal, list(CancelProposal._meta.concrete_fields), "p"),
        ]
        if table:
            self.parts.append(_Columns(Table, list(Table._meta.concrete_fields), "t"))
        self.record = _Columns(Game, [Game._meta.get_field("record")])
        qn = connection.ops.quote_name
        proposal, action = CancelProposal._meta.db_table, GameAction._meta.db_table
        # The first seat's row alone brings the rows and the record: the others leave them.
        first = "s.seat = 0"
        rebuild = "g.deal_count <> %s"
        after = f"a.number > CASE WHEN {rebuild} THEN 0 ELSE %s END AND a.number <= g.action_count"
        if connection.vendor == "postgresql":
            rows = (
                f"(SELECT json_agg(json_build_array(a.deal, a.{qn('action')}) ORDER BY a.number)"
                f"::text FROM {action} a WHERE a.game_id = g.id AND {after})"
            )
        else:
            rows = (
                f"(SELECT json_group_array(json_array(r.deal, json(r.{qn('action')}))) FROM"
                f" (SELECT a.deal, a.{qn('action')} FROM {action} a WHERE a.game_id = g.id"
                f" AND {after} ORDER BY a.number) r)"
            )
        self.sql = (
            f"SELECT {', '.join(part.sql for part in self.parts)},"
            f" CASE WHEN {first} AND {rebuild} THEN g.{qn('record')} END,"
            f" CASE WHEN {first} THEN {rows} END"
            f" FROM {GameSeat._meta.db_table} s JOIN {Game._meta.db_table} g ON g.id = s.game_id"
            f" LEFT JOIN {User._meta.db_table} u ON u.id = s.user_id"
            f" LEFT JOIN {proposal} p ON p.game_id = g.id AND p.status = 'open'"
            + (f" JOIN {Table._meta.db_table} t ON t.game_id = g.id" if table else "")
            + " WHERE s.game_id = %s ORDER BY s.seat"
        )

    def rows(self, game_id: int) -> tuple[list[list[Model | None]], Fetched | None]:
        """Per seat: the seat, the game, the player (None for a robot), the open proposal (or
        None), the table if asked; and what the first row brought for the game's state."""
        deals, after = known_counts(game_id) or (-1, 0)
        with connection.cursor() as cursor:
            cursor.execute(self.sql, [deals, deals, after, game_id])
            fetched = cursor.fetchall()
        out = []
        for row in fetched:
            at, models = 0, []
            for part in self.parts:
                values = row[at : at + part.width]
                at += part.width
                missing = part.model in (User, CancelProposal) and values[0] is None
                models.append(None if missing else part.build(values))
            out.append(models)
        if not fetched or out[0][0].seat != 0:
            return out, None
        record, rows = fetched[0][at:]
        return out, Fetched(
            deals=deals,
            after=after if record is None else 0,
            rows=[tuple(pair) for pair in orjson.loads(rows or "[]")],
            record=None if record is None else self.record.convert(record),
        )


_QUERIES: dict[tuple[str, bool], _SeatQuery] = {}
_TABLE_COLUMNS: dict[str, _Columns] = {}


def _game_rows(
    game_id: int, *, table: bool = False
) -> tuple[list[GameSeat], Table | None, Fetched | None]:
    """A game's seats (in seat order) with their game, players and open proposal set, the
    table it is played at if `table`, and what the read brought for the game's state."""
    query = _QUERIES.get((connection.vendor, table))
    if query is None:
        query = _QUERIES[(connection.vendor, table)] = _SeatQuery(table=table)
    seats, game, found = [], None, None
    rows, fetched = query.rows(game_id)
    for models in rows:
        seat, game_row, user, proposal = models[:4]
        game = game or game_row
        if table:
            found = found or models[4]
        seat.game = game
        if user is not None:
            seat.user = user
        seat.open_proposal = proposal
        seats.append(seat)
    return seats, found, fetched


def require_user(user: User | None) -> User:
    if user is None or not user.is_authenticated:
        raise TableError("login_required", _("Log in to do that."))
    return user


def _table_id(table_id: Any) -> int:
    if not isinstance(table_id, int) or isinstance(table_id, bool):
        raise TableError("unknown_table", _("There is no such table."))
    return table_id


def locked_room(table_id: Any, *, bump: bool = False, closed: bool = False) -> Room:
    """The room of table `table_id`, its row locked until the transaction ends. Every change
    at a table starts here. Refuses an unknown table, and a closed one unless `closed`.

    `bump`: the caller's change will be pushed whatever happens (a move): the locking
    statement counts it in the version too, one statement for both."""
    table_id = _table_id(table_id)
    if bump:
        columns = _TABLE_COLUMNS.get(connection.vendor)
        if columns is None:
            columns = _TABLE_COLUMNS[connection.vendor] = _Columns(
                Table, list(Table._meta.concrete_fields)
            )
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {Table._meta.db_table} SET version = version + 1 WHERE id = %s"
                f" RETURNING {columns.sql}",
                [table_id],
            )
            row = cursor.fetchone()
        table = columns.build(row) if row is not None else None
    else:
        table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None:
        raise TableError("unknown_table", _("There is no such table."))
    room = Room(table=table, bumped=bump)
    kept = _kept(table)
    if kept is not None and kept[0] == table.version - bump:
        # Nothing changed at the table since this process's last change there.
        room._take(kept[1], None)
        room._proposal = kept[2]
    if not closed:
        room.require_open()
    return room


# table id -> (created, version, game seats (with their game), open proposal): the room as
# the last change this process made at the table left it (`keep_on_commit`).
_ROOMS: OrderedDict[int, tuple[Any, int, list[GameSeat], CancelProposal | None]] = OrderedDict()
_ROOMS_KEPT = 1024
_ROOMS_LOCK = threading.Lock()  # daphne runs sync code in more than one thread


def _kept(table: Table) -> tuple[int, list[GameSeat], CancelProposal | None] | None:
    """(version, game seats, proposal) this process kept of `table`'s room, if any: taken,
    so that a change that fails leaves nothing half-changed behind."""
    with _ROOMS_LOCK:
        kept = _ROOMS.pop(table.pk, None)
    if kept is None or kept[0] != table.created_at or kept[2][0].game_id != table.game_id:
        return None
    return kept[1:]


def keep_on_commit(room: Room) -> None:
    """Once the change at `room` is committed, keep its game and seats as they are now for
    the next change at the table in this process: `locked_room` takes them instead of
    reading them again if the table's version did not move meanwhile. The version counts
    every change to the room's rows (every one is pushed), so an unmoved version means these
    rows are the table's still. The room's game is not changed again by this change."""
    if room.game is None:
        return
    table, seats, proposal = room.table, room.game_seats, room.proposal

    def keep() -> None:
        with _ROOMS_LOCK:
            _ROOMS[table.pk] = (table.created_at, table.version, seats, proposal)
            _ROOMS.move_to_end(table.pk)
            while len(_ROOMS) > _ROOMS_KEPT:
                _ROOMS.popitem(last=False)

    transaction.on_commit(keep, robust=True)


def read_room(game_id: int) -> Room | None:
    """The room of the table where game `game_id` is played, read without any lock, in one
    statement: for a robot to think on (`Room.table.version` says later whether it is still
    current). None if the game is not the current game of a table."""
    rows, table, fetched = _game_rows(game_id, table=True)
    if not rows:
        return None
    room = Room(table=table)
    room._take(rows, fetched)
    return room
