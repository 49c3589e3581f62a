"""The hand-written statements of a move's path, written once a database and kept: the
table locked with its version counted, the one read of a game with its seats, and the one
write of a move. Django building each of them at every move cost several times what the
database takes to answer it (docs/benchmarks.md).

Each reads back and writes its columns as the ORM does (`Columns`: SQLite's dates and
booleans, JSON...), so the models it builds are the ORM's own. It knows nothing of the
wing above it: games/table/room.py and games/table/record.py say what to read and write.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson
from django.db import connection
from django.db.models import Field, Model

from accounts.models import User
from games.models import CancelProposal, Game, GameAction, GameSeat, Table


class Columns:
    """A model's columns in a hand-written statement, read back as the ORM reads them,
    their conversions worked out once."""

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


# --- The lock ------------------------------------------------------------------------------

_TABLE_COLUMNS: dict[str, Columns] = {}


def lock_and_count(table_id: int) -> Table | None:
    """Table `table_id`, its row locked and its version counted one more, in one statement
    (None: no such table)."""
    columns = _TABLE_COLUMNS.get(connection.vendor)
    if columns is None:
        columns = _TABLE_COLUMNS[connection.vendor] = Columns(
            Table, list(Table._meta.concrete_fields)
        )
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Table._meta.db_table} SET version = version + 1 WHERE id = %s"
            f" RETURNING {columns.sql}",
            [table_id],
        )
        row = cursor.fetchone()
    return columns.build(row) if row is not None else None


# --- The read ------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRead:
    """A game as its one read found it: its seats in seat order, each with `game`, `user`
    (a robot's none) and `open_proposal` set; the table it is played at (if asked); and for
    its engine state, the action rows (deal, action) after the counts given and the stored
    record when the game's deals were not the `deals` given (then every row: `after` is 0)."""

    seats: list[GameSeat]
    table: Table | None
    deals: int
    after: int
    rows: list[tuple[int, dict[str, Any]]] | None
    record: dict[str, Any] | None


class _GameQuery:
    """The one read of a game's seats, with the game (all but its record), the players'
    usernames, the open proposal to cancel, what the game's state needs (the action rows
    after the counts a process knows, the record when they are not enough) and, for a
    robot, the table."""

    def __init__(self, *, table: bool) -> None:
        self.parts = [
            Columns(GameSeat, list(GameSeat._meta.concrete_fields), "s"),
            Columns(Game, [f for f in Game._meta.concrete_fields if f.name != "record"], "g"),
            Columns(User, [User._meta.pk, User._meta.get_field("username")], "u"),
            Columns(CancelProposal, list(CancelProposal._meta.concrete_fields), "p"),
        ]
        if table:
            self.parts.append(Columns(Table, list(Table._meta.concrete_fields), "t"))
        self.record = Columns(Game, [Game._meta.get_field("record")])
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

    def read(self, game_id: int, known: tuple[int, int] | None) -> GameRead:
        deals, after = known or (-1, 0)
        with connection.cursor() as cursor:
            cursor.execute(self.sql, [deals, deals, after, game_id])
            fetched = cursor.fetchall()
        seat_part, game_part, user_part, proposal_part = self.parts[:4]
        seats, game, table = [], None, None
        for row in fetched:
            at = seat_part.width
            seat = seat_part.build(row[:at])
            if game is None:  # one game object, shared by the seats
                game = game_part.build(row[at : at + game_part.width])
            at += game_part.width
            seat.game = game
            if row[at] is not None:  # a robot's seat has no player
                seat.user = user_part.build(row[at : at + user_part.width])
            at += user_part.width
            proposal = row[at]
            seat.open_proposal = (
                None
                if proposal is None
                else proposal_part.build(row[at : at + proposal_part.width])
            )
            at += proposal_part.width
            if len(self.parts) > 4 and table is None:
                table = self.parts[4].build(row[at : at + self.parts[4].width])
            seats.append(seat)
        if not fetched or seats[0].seat != 0:
            return GameRead(
                seats=seats, table=table, deals=deals, after=after, rows=None, record=None
            )
        record, rows = fetched[0][-2:]
        return GameRead(
            seats=seats,
            table=table,
            deals=deals,
            after=after if record is None else 0,
            rows=[tuple(pair) for pair in orjson.loads(rows or "[]")],
            record=None if record is None else self.record.convert(record),
        )


_QUERIES: dict[tuple[str, bool], _GameQuery] = {}


def read_game(game_id: int, *, known: tuple[int, int] | None, table: bool = False) -> GameRead:
    """Game `game_id`'s seats with their game, players and open proposal, the table if
    `table`, and what its engine state needs beyond the (deals, actions) a process `known`s
    of it: one statement."""
    query = _QUERIES.get((connection.vendor, table))
    if query is None:
        query = _QUERIES[(connection.vendor, table)] = _GameQuery(table=table)
    return query.read(game_id, known)


# --- The write -----------------------------------------------------------------------------


def write_move(
    *,
    action: dict[str, Any],
    seats: dict[int, dict[str, Any]],
    game: int,
    values: dict[str, Any],
) -> None:
    """One move: the `action`'s row (its `game_id`, `number`, `deal` and `action`), the
    updates of `seats` (by id) and of `game`'s `values`. One statement on PostgreSQL (a
    data-modifying WITH), one after the other elsewhere."""
    parts = [_insert(GameAction, action)]
    parts += [_update(GameSeat, pk, changed) for pk, changed in seats.items()]
    last = _update(Game, game, values)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            names = [f"w{n}" for n in range(len(parts))]
            sql = "WITH " + ", ".join(
                f"{name} AS ({part_sql})" for name, (part_sql, _p) in zip(names, parts, strict=True)
            )
            cursor.execute(
                f"{sql} {last[0]}", [p for _sql, params in parts for p in params] + last[1]
            )
        else:
            for part_sql, params in [*parts, last]:
                cursor.execute(part_sql, params)


def _prepared(model: type[Model], values: dict[str, Any]) -> tuple[list[str], list[Any]]:
    """Columns and values of `values` (field names), prepared as the ORM saves them."""
    qn = connection.ops.quote_name
    fields = [model._meta.get_field(name) for name in values]
    return (
        [qn(field.column) for field in fields],
        [
            field.get_db_prep_save(value, connection)
            for field, value in zip(fields, values.values(), strict=True)
        ],
    )


def _insert(model: type[Model], values: dict[str, Any]) -> tuple[str, list[Any]]:
    columns, params = _prepared(model, values)
    marks = ", ".join(["%s"] * len(columns))
    return f"INSERT INTO {model._meta.db_table} ({', '.join(columns)}) VALUES ({marks})", params


def _update(model: type[Model], pk: Any, values: dict[str, Any]) -> tuple[str, list[Any]]:
    columns, params = _prepared(model, values)
    sets = ", ".join(f"{column} = %s" for column in columns)
    return f"UPDATE {model._meta.db_table} SET {sets} WHERE id = %s", [*params, pk]
