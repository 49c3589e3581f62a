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
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from typing import Any

from django.db import transaction

from games.engine import Action, GameState, from_record
from games.models import Game, GameAction

# game -> (deals, actions, state): the latest state this process knows of each game.
_STATES: OrderedDict[tuple[Any, ...], tuple[int, int, GameState]] = OrderedDict()
_STATES_KEPT = 1024
_STATES_LOCK = threading.Lock()  # daphne runs sync code in more than one thread


def _game_key(game: Game) -> tuple[Any, ...]:
    # The creation time too: a game id alone may come again (a database emptied and filled
    # anew, as between tests), and a state of another game must never be taken for it.
    return (game.pk, game.created_at)


def _rows(game: Game, *, after: int = 0) -> list[tuple[int, dict[str, Any]]]:
    """(deal, action) of the game's action rows numbered above `after`, in order."""
    return list(
        GameAction.objects.filter(game_id=game.pk, number__gt=after)
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


def game_state(*, game: Game) -> GameState:
    """The engine state of a stored game: a copy of the one this process last knew, caught up
    from the rows played since if it is behind, or rebuilt from the record. The caller may
    change the copy it gets."""
    key = _game_key(game)
    with _STATES_LOCK:
        known = _STATES.get(key) if game.pk is not None else None
        if known is not None:
            _STATES.move_to_end(key)
    if known is not None:
        deals, count, state = known
        if deals == game.deal_count and count == game.action_count:
            return state.clone()
        if deals == game.deal_count and count < game.action_count:
            state = state.clone()
            for _deal, action in _rows(game, after=count):
                state.apply(Action.from_dict(action, game.players))
            remember(game=game, state=state.clone())
            return state
    state = from_record(game_record(game=game))
    if game.pk is not None:
        remember(game=game, state=state.clone())
    return state


def remember(*, game: Game, state: GameState) -> None:
    """Keep `state` as the state of `game` at its current deal and action counts. The
    state is kept as it is: the caller never changes it afterwards."""
    entry = (game.deal_count, game.action_count, state)
    key = _game_key(game)
    with _STATES_LOCK:
        _STATES[key] = entry
        _STATES.move_to_end(key)
        while len(_STATES) > _STATES_KEPT:
            _STATES.popitem(last=False)


def remember_on_commit(game: Game, state: GameState) -> None:
    """Keep the game's new state for the next move in this process, once (and if) it is
    stored. The state is the caller's last use of it."""
    snapshot = Game(pk=game.pk, created_at=game.created_at)
    snapshot.deal_count, snapshot.action_count = game.deal_count, game.action_count
    transaction.on_commit(lambda: remember(game=snapshot, state=state), robust=True)


def record_action(*, game: Game, action: Action) -> None:
    """Store one more action of a running game: one row. The caller saves `action_count`."""
    game.action_count += 1
    GameAction.objects.create(
        game=game, number=game.action_count, deal=game.deal_count - 1, action=action.to_dict()
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
