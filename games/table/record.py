"""A running game's record as stored, and the engine states rebuilt from it.

While a game runs, `Game.record` holds its options and its deals (each as dealt); its
actions are `GameAction` rows, one a move, numbered across the deals. A move adds one row
and never rewrites the record, so a move's database work does not grow with the game. When
the game ends (or is cancelled) the actions are folded into `Game.record` and the rows go:
a finished game's record is the whole record of NOTATION.md, as before. `game_record`
assembles the whole record at any moment.

The engine state is never stored. Each process keeps the latest state it knows of each game
(`_STATES`); a move served by another process since is caught up from the rows after it,
and anything else (a restart, a new deal elsewhere) rebuilds the state from the record.
The room's one read of its game (games/table/room.py) brings what that takes along, the rows
after the counts this process knows (`known_counts`) and the record when they are not
enough, so that neither costs a statement of its own (`Fetched`, `game_state`).
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from games.engine import Action, GameState, from_record
from games.models import Game, GameAction, GameSeat
from games.table import sql

# game id -> (created, deals, actions, state): the latest state this process knows of each
# game. The creation time too: a game id alone may come again (a database restored from a
# backup hands out again the ids given since, to processes that still know those games),
# and a state of another game must never be taken for it.
_STATES: OrderedDict[int, tuple[Any, int, int, GameState]] = OrderedDict()
_STATES_KEPT = 1024
_STATES_LOCK = threading.Lock()  # daphne runs sync code in more than one thread


@dataclass(frozen=True)
class Fetched:
    """What the room's read of a running game brought for its state: the action rows (deal,
    action) numbered after `after`, up to the game's count, and the stored record when the
    game's deals were not `deals` (the state must then be rebuilt: `after` is 0)."""

    deals: int
    after: int
    rows: list[tuple[int, dict[str, Any]]]
    record: dict[str, Any] | None


def known_counts(game_id: int) -> tuple[int, int] | None:
    """(deals, actions) of the state this process knows of game `game_id`, if any."""
    with _STATES_LOCK:
        known = _STATES.get(game_id)
    return None if known is None else (known[1], known[2])


def _rows(game: Game, *, after: int = 0) -> list[tuple[int, dict[str, Any]]]:
    """(deal, action) of the game's action rows numbered above `after`, in order, up to
    the game's count as read: a row committed since the game's row was read (a read
    without the lock) belongs to a later state than this one."""
    return list(
        GameAction.objects.filter(game_id=game.pk, number__gt=after, number__lte=game.action_count)
        .order_by("number")
        .values_list("deal", "action")
    )


def game_record(*, game: Game) -> dict[str, Any]:
    """The whole record of `game` (NOTATION.md): the stored one with the action rows of a
    running game put in their deals. One statement more while it runs."""
    record = copy.deepcopy(game.record)
    if game.status == Game.Status.PLAYING:
        for deal, action in _rows(game):
            record["deals"][deal]["actions"].append(action)
    return record


def _known(game: Game) -> tuple[int, int, GameState] | None:
    """(deals, actions, state) this process knows of `game`, if it is this very game."""
    if game.pk is None:
        return None
    with _STATES_LOCK:
        known = _STATES.get(game.pk)
        if known is None or known[0] != game.created_at:
            return None
        _STATES.move_to_end(game.pk)
    return known[1:]


def _caught_up(game: Game, state: GameState, rows: list[tuple[int, dict[str, Any]]]) -> GameState:
    """`state` with `rows` applied; kept as the game's state if it moved."""
    for _deal, action in rows:
        state.apply(Action.from_dict(action, game.players))
    if rows:
        remember(game=game, state=state.clone())
    return state


def game_state(*, game: Game, fetched: Fetched | None = None) -> GameState:
    """The engine state of a stored game: a copy of the one this process last knew, caught up
    from the rows played since if it is behind, or rebuilt from the record. The caller may
    change the copy it gets. `fetched`: what the room's read brought for it, when it brought
    enough (no statement more); otherwise what is missing is read here.

    Read without the table's lock, the game may move on between the reads of its row and of
    its actions: the state is then rebuilt for the game as it is now (`game` is read again),
    so that a state is only ever kept under the counts it really has."""
    known = _known(game)
    if fetched is not None and game.status == Game.Status.PLAYING:
        if fetched.record is not None:
            record = copy.deepcopy(fetched.record)
            for deal, action in fetched.rows:
                record["deals"][deal]["actions"].append(action)
            counts = (len(record["deals"]), sum(len(deal["actions"]) for deal in record["deals"]))
            if counts == (game.deal_count, game.action_count):
                state = from_record(record)
                remember(game=game, state=state.clone())
                return state
        elif (
            known is not None
            and (known[0], known[1]) == (fetched.deals, fetched.after)
            and known[1] + len(fetched.rows) == game.action_count
        ):
            return _caught_up(game, known[2].clone(), fetched.rows)
    if known is not None and known[0] == game.deal_count and known[1] <= game.action_count:
        rows = _rows(game, after=known[1]) if known[1] < game.action_count else []
        if known[1] + len(rows) == game.action_count:
            return _caught_up(game, known[2].clone(), rows)
    for _attempt in range(5):
        record = game_record(game=game)
        counts = (len(record["deals"]), sum(len(deal["actions"]) for deal in record["deals"]))
        # A finished game's record is whole: it is its own truth.
        if game.status != Game.Status.PLAYING or counts == (game.deal_count, game.action_count):
            break
        game.refresh_from_db()  # it moved on between the reads
    else:
        raise RuntimeError(f"game {game.pk}: its record and its counts disagree")
    state = from_record(record)
    if game.pk is not None and game.status == Game.Status.PLAYING:
        remember(game=game, state=state.clone())
    return state


def remember(*, game: Game, state: GameState) -> None:
    """Keep `state` as the state of `game` at its current deal and action counts. The
    state is kept as it is: the caller never changes it afterwards."""
    entry = (game.created_at, game.deal_count, game.action_count, state)
    with _STATES_LOCK:
        _STATES[game.pk] = entry
        _STATES.move_to_end(game.pk)
        while len(_STATES) > _STATES_KEPT:
            _STATES.popitem(last=False)


def remember_on_commit(game: Game, state: GameState) -> None:
    """Keep the game's new state for the next move in this process, once (and if) it is
    stored. The state is the caller's last use of it."""
    snapshot = Game(pk=game.pk, created_at=game.created_at)
    snapshot.deal_count, snapshot.action_count = game.deal_count, game.action_count
    transaction.on_commit(lambda: remember(game=snapshot, state=state), robust=True)


def record_move(
    *, game: Game, action: Action, fields: Sequence[str], seats: Sequence[GameSeat] = ()
) -> None:
    """Store one more action of a running game with the game's `fields` (its count and its
    timer) and the `timeouts` and `robot_decisions` of `seats` (a timeout counted, a move
    made by a robot in a player's name, a seat taken back): one statement on PostgreSQL
    (games/table/sql.py). The game's `action_count` already counts it."""
    sql.write_move(
        action={
            "game_id": game.pk,
            "number": game.action_count,
            "deal": game.deal_count - 1,
            "action": action.to_dict(),
        },
        seats={
            seat.pk: {"timeouts": seat.timeouts, "robot_decisions": seat.robot_decisions}
            for seat in seats
        },
        game=game.pk,
        values={name: getattr(game, game._meta.get_field(name).attname) for name in fields},
    )


def record_deal(*, game: Game, state: GameState) -> None:
    """Store the deal `state` just dealt: the record gets its cards. The caller saves
    `record` and `deal_count`."""
    game.record["deals"].append(state.to_record()["deals"][-1])
    game.deal_count += 1


def fold_record(*, game: Game, last: Action | None = None) -> None:
    """The game is over: its record becomes whole (with `last`, its final action, which is
    stored with it instead of in a row) and its action rows go. The caller saves
    `record` and `action_count`."""
    record = game_record(game=game)
    if last is not None:
        game.action_count += 1
        record["deals"][-1]["actions"].append(last.to_dict())
    game.record = record
    GameAction.objects.filter(game_id=game.pk).delete()


def new_game_record(*, game: Game, state: GameState) -> None:
    """A new game's stored record: its options and first deal, no action yet."""
    game.record = state.to_record()
    game.deal_count = len(game.record["deals"])
    game.action_count = sum(len(deal["actions"]) for deal in game.record["deals"])
