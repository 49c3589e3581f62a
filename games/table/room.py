"""The room: everything at one table, loaded once under the table's lock.

Every change at a table starts with `locked_room`: it takes the table's row with the lock
(so any number of processes can serve one table) and reads it in the same statement. The
rest of the room (the `Part`s: the seats, the running game with its seats, the engine
state) is read right after the lock, and only what the call says (`load=`); a part needed
later is read by an explicit `Room.load`, which reads nothing twice. A room's properties
never read the database: a part nobody loaded is a mistake (`NotLoaded`), not a query.
Nothing a service reads is older than the lock.

The table's `version` counts the changes pushed to its sockets (docs/protocol.md). Every
change to a room's rows (table, seats, game, game seats) is pushed, so the version also
says whether a room read earlier, without the lock, is still current: the robots think on
such a room and act only if the version did not move (games/table/robots.py). For the
same reason the process that made a table's last change keeps its room (`keep_on_commit`),
and the next change there takes it instead of reading it again if the version did not
move: a move then costs the lock and its write alone.

Under PostgreSQL's READ COMMITTED a statement sees the rows as they were when it started,
so the locking statement reads nothing but the table's own row (which the lock returns as
its holder left it); the game is read by the next statement, after the lock was granted.
"""

from __future__ import annotations

import enum
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.engine import GameState
from games.models import CancelProposal, Game, GameSeat, Table, TableSeat
from games.table import sql
from games.table.record import Fetched, game_state, known_counts
from games.table.refusals import Refused, TableError


class Part(enum.Flag):
    """What a room holds besides the table's row: a service says which parts it reads
    (`locked_room(load=...)`, `Room.load`), and nothing else is read for it."""

    SEATS = enum.auto()  # the table's seats with their users, one statement
    GAME = enum.auto()  # the current game with its seats and its open proposal, one statement
    STATE = enum.auto()  # the game's engine state: this process's cache, or rows read with GAME


NOTHING = Part(0)


class NotLoaded(RuntimeError):
    """A service used a part of its room that it did not say it reads: a mistake in the
    service, never the player's."""


@dataclass(eq=False)
class Room:
    """One table as a service sees it under the lock. `bumped`: the locking statement
    already counted this change in the table's version. Its properties only return what was
    loaded (`load`): none of them reads the database."""

    table: Table
    bumped: bool = False
    loaded: Part = NOTHING
    _seats: list[TableSeat] = field(default_factory=list)
    _game: Game | None = None
    _game_seats: list[GameSeat] = field(default_factory=list)
    _proposal: CancelProposal | None = None
    _state: GameState | None = None
    _fetched: Fetched | None = None

    def load(self, parts: Part) -> Room:
        """Read the parts of `parts` this room does not hold yet (the state needs the
        game); returns the room."""
        if Part.STATE in parts:
            parts |= Part.GAME
        missing = parts & ~self.loaded
        if Part.SEATS in missing:
            self._seats = list(self.table.seats.select_related("user").order_by("seat"))
        if Part.GAME in missing:
            self._read_game()
        if Part.STATE in missing and self._game is not None:
            self._state = game_state(game=self._game, fetched=self._fetched)
            self._fetched = None  # caught up once: a later state is the cache's
        self.loaded |= missing
        return self

    def reload(self, parts: Part) -> Room:
        """Read `parts` again: the service just wrote them."""
        self.loaded &= ~parts
        return self.load(parts)

    def _need(self, part: Part) -> None:
        if part not in self.loaded:
            raise NotLoaded(f"table {self.table.pk}'s room was loaded without its {part.name}")

    @property
    def seats(self) -> list[TableSeat]:
        """The table's seats with their users, in seat order."""
        self._need(Part.SEATS)
        return self._seats

    @property
    def game(self) -> Game | None:
        """The table's current (or last) game."""
        self._need(Part.GAME)
        return self._game

    @property
    def game_seats(self) -> list[GameSeat]:
        """The game's seats with their users, in seat order."""
        self._need(Part.GAME)
        return self._game_seats

    def _read_game(self) -> None:
        self._game, self._game_seats, self._proposal = None, [], None
        if self.table.game_id is not None:
            game_id = self.table.game_id
            read = sql.read_game(game_id, known=known_counts(game_id))
            self._take(read.seats, _fetched(read))

    def _take(self, rows: list[GameSeat], fetched: Fetched | None) -> None:
        self.loaded |= Part.GAME
        if not rows:
            return
        game = rows[0].game  # one object, shared by the seats (`_game_rows`)
        self._game, self._game_seats = game, rows
        self._proposal = rows[0].open_proposal
        self._fetched = fetched
        self.table.game = game

    def set_game(self, game: Game, game_seats: list[GameSeat], state: GameState) -> None:
        """A game just started at this table, in `state`."""
        self.table.game = game
        self._game, self._game_seats, self._proposal = game, game_seats, None
        self._state = state
        self.loaded |= Part.GAME | Part.STATE

    @property
    def state(self) -> GameState | None:
        """The engine state of the table's game (None without a game). Services change it
        in place as they apply actions."""
        self._need(Part.STATE)
        return self._state

    def hand_over_state(self) -> None:
        """The state was given to this process's cache (games/table/record.py) as the
        game's state once committed: it is not changed again here. A service that goes on
        with this room loads it again (`load(Part.STATE)`), from the cache."""
        self._state = None
        self.loaded &= ~Part.STATE

    @property
    def proposal(self) -> CancelProposal | None:
        """The game's open proposal to cancel, if any (read with the game)."""
        self._need(Part.GAME)
        return self._proposal

    @proposal.setter
    def proposal(self, value: CancelProposal | None) -> None:
        self._need(Part.GAME)
        self._proposal = value

    @property
    def playing(self) -> bool:
        game = self.game
        return game is not None and game.status == Game.Status.PLAYING

    def seat_of(self, user: User | None) -> int | None:
        """The table seat `user` holds, or None."""
        if user is None or not user.is_authenticated or user.pk is None:
            return None
        return next((s.seat for s in self.seats if s.user_id == user.pk), None)

    def game_seat(self, seat: int) -> GameSeat:
        return next(gs for gs in self.game_seats if gs.seat == seat)

    # --- Refusals every service shares -----------------------------------------------------
    # Each is a value (`Refused`, or None when there is nothing against it), so that the
    # permits answer a frame's `may` without raising; `require_*` raise them at the door.

    def refuse_open(self) -> Refused | None:
        if self.table.status == Table.Status.CLOSED:
            return Refused("invalid", _("This table is closed."))
        return None

    def refuse_master(self, user: User) -> Refused | None:
        """Anyone but the table's master; at an arena's table, everyone: the arena pairs its
        players, so nobody starts, invites or changes anything there."""
        if self.table.arena_table:
            return Refused(
                "not_master", _("An arena's table has no master: the arena seats its players.")
            )
        if self.table.master_id != user.pk:
            return Refused("not_master", _("Only the table's master may do that."))
        return None

    def refuse_seated(self, user: User) -> Refused | None:
        if self.seat_of(user) is None:
            return NOT_SEATED
        return None

    def refuse_game(self) -> Refused | None:
        if not self.playing:
            return NO_GAME
        return None

    def refuse_player(self, user: User) -> Refused | None:
        """Anyone who does not play the running game: not seated, no game running, or
        abandoned. While a game runs, its seats alone answer (a player of the running game
        is seated at its table); otherwise the table's seats say which refusal."""
        if not self.playing:
            return NOT_SEATED if self.load(Part.SEATS).seat_of(user) is None else NO_GAME
        mine = next((gs for gs in self.game_seats if gs.user_id == user.pk), None)
        if mine is None or user.pk is None:
            return NOT_SEATED
        return ABANDONED if mine.abandoned else None

    def require_open(self) -> None:
        _raise(self.refuse_open())

    def require_master(self, user: User) -> None:
        _raise(self.refuse_master(user))

    def require_seated(self, user: User) -> int:
        seat = self.seat_of(user)
        if seat is None:
            raise NOT_SEATED.error()
        return seat

    def require_game(self) -> Game:
        _raise(self.refuse_game())
        return self.game

    def player_seat(self, user: User) -> GameSeat:
        """The running game's seat `user` plays, refusing (`refuse_player`) anyone else."""
        _raise(self.refuse_player(user))
        return next(gs for gs in self.game_seats if gs.user_id == user.pk)

    def playing_seat(self, seat: int) -> GameSeat:
        game_seat = self.game_seat(seat)
        if game_seat.abandoned:
            raise ABANDONED.error()
        return game_seat


NOT_SEATED = Refused("not_seated", _("You are not seated at this table."))
NO_GAME = Refused("no_game", _("No game is running at this table."))
ABANDONED = Refused("invalid", _("You abandoned this game: a robot plays your seat."))


def _raise(refused: Refused | None) -> None:
    if refused is not None:
        raise refused.error()


def _table_id(table_id: Any) -> int:
    if not isinstance(table_id, int) or isinstance(table_id, bool):
        raise TableError("unknown_table", _("There is no such table."))
    return table_id


def locked_room(table_id: Any, *, load: Part, bump: bool = False, closed: bool = False) -> Room:
    """The room of table `table_id`, its row locked until the transaction ends, holding the
    parts of `load`. Every change at a table starts here. Refuses an unknown table, and a
    closed one unless `closed`.

    `bump`: the caller's change will be pushed whatever happens (a move): the locking
    statement counts it in the version too, one statement for both."""
    table_id = _table_id(table_id)
    if bump:
        table = sql.lock_and_count(table_id)
    else:
        # FOR NO KEY UPDATE: no change at a table touches its key, so the rows that only
        # point at it (a socket noted, a message posted) are written without waiting.
        table = Table.objects.select_for_update(no_key=True).filter(pk=table_id).first()
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
    return room.load(load)


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
    statement, with its game and state: for a robot to think on (`Room.table.version` says
    later whether it is still current). None if the game is not the current game of a
    table."""
    read = sql.read_game(game_id, known=known_counts(game_id), table=True)
    if not read.seats:
        return None
    room = Room(table=read.table)
    room._take(read.seats, _fetched(read))
    return room.load(Part.STATE)


def _fetched(read: sql.GameRead) -> Fetched | None:
    """What the read brought for the game's state (games/table/record.py)."""
    if read.rows is None:
        return None
    return Fetched(deals=read.deals, after=read.after, rows=read.rows, record=read.record)
