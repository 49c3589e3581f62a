"""Play: a game starts, its actions are applied, its deals dealt, and it ends.

Every service here runs in one transaction on a locked room (games/table/room.py). A move
is four statements: the table locked (its version counted in the same statement), the game
and its seats read, the action's row added, the game's counters and timer saved.

| service | what | locks |
|---|---|---|
| `game_start` | the master starts a game: stakes to the pot, first deal | the table, ledger rows |
| `game_act` | one action, checked and applied by the engine, stored | the table |
| `game_next_deal` | deal the next deal of a running game | the table |

Every game ends in `end_game`, whatever ends it (its last action, played or timed out, a
cancel, a moderator closing its table): its result goes to rankings in the transaction that
ends it, and its end is published once on commit (games/events.py) for the arenas, the
analysis and the puzzles.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.engine import Action, IllegalAction, MalformedAction, new_game
from games.engine.cards import SUITS
from games.engine.rulebook import cante_value
from games.events import Ending, GameEnded, publish_on_commit
from games.feats import game_feats
from games.models import Game, GameSeat, Table, TableSeat, seats_share_address
from games.table import permits, record
from games.table.clock import DEADLINE_FIELDS, clear_deadline, schedule
from games.table.forfeit import game_winner
from games.table.frames import MOVE, broadcast
from games.table.refusals import TableError, illegal, malformed, require_user
from games.table.room import Part, Room, keep_on_commit, locked_room
from rankings.services import InsufficientChips, SeatResult, chips_stake, game_result_submit


def _take_stakes(*, game: Game, seats: list[TableSeat]) -> None:
    """Each seated player's stake into the game's pot, through the ledger.

    The one place that calls the ledger's stake service."""
    for s in seats:
        if s.user_id is None:
            continue
        try:
            chips_stake(
                user=s.user,
                game_id=game.pk,
                amount=game.stake,
                key=f"stake:game-{game.pk}:seat-{s.seat}",
            )
        except InsufficientChips:
            raise TableError(
                "invalid",
                _("%(player)s holds fewer than %(stake)s chips, the table's stake.")
                % {
                    "player": s.user.username,
                    "stake": number_format(game.stake, force_grouping=True),
                },
            ) from None


@transaction.atomic
def game_start(*, table_id: int, user: User) -> Game:
    """The master starts a game once every seat is taken: the stakes go into the pot, the
    first deal is dealt, each player's address is recorded. Locks the table."""
    user = require_user(user)
    room = locked_room(table_id, load=Part.SEATS | Part.GAME)
    permits.require("start", room, user)
    return start_game(room, by=user)


def start_game(room: Room, *, by: User) -> Game:
    """Deal a new game at a locked table whose seats are all taken: stakes to the pot, the
    first deal, each player's address, the first timer."""
    table, seats = room.table, room.seats
    rule_options = table.rule_options
    state = new_game({"variant": table.variant, **rule_options}, secrets.SystemRandom())
    game = Game(
        variant=table.variant,
        options=rule_options,
        competitive=table.competitive,
        stake=table.stake if table.competitive else 0,
        shared_ip=seats_share_address(seats),
        table=table,
        started_at=timezone.now(),
    )
    record.new_game_record(game=game, state=state)
    game.save()
    game_seats = GameSeat.objects.bulk_create(
        GameSeat(game=game, seat=s.seat, user=s.user, robot=s.robot, ip_address=s.ip_address)
        for s in seats
    )
    if game.competitive and game.stake:
        _take_stakes(game=game, seats=seats)
    room.set_game(game, sorted(game_seats, key=lambda gs: gs.seat), state)
    table.status = Table.Status.PLAYING
    table.save(update_fields=["game", "status"])
    schedule(room)
    game.save(update_fields=DEADLINE_FIELDS)
    record.remember_on_commit(game, state)
    broadcast(room, {"kind": "start", "by": by.username}, table=True)
    room.hand_over_state()
    return game


@transaction.atomic
def game_act(
    *, table_id: int, user: User, action: Mapping[str, Any], count: int | None = None
) -> Game:
    """Apply one action of `user`'s seat: the engine checks it, the game stores it, every
    seat is pushed its own view after commit. Locks the table.

    `count`, when given, must be the game's action count: an action sent from an older
    screen is refused (`stale`)."""
    user = require_user(user)
    room = locked_room(table_id, load=Part.GAME | Part.STATE, bump=True)
    game_seat = room.player_seat(user)
    game = room.game
    if count is not None and count != game.action_count:
        raise TableError("stale", _("The game has moved on; here is the current position."))
    try:
        act = Action.from_dict(action, game.players)
    except MalformedAction as exc:
        raise malformed(exc) from None
    if act.seat != game_seat.seat:
        raise TableError("not_your_seat", _("That seat is not yours."))
    taken_back = bool(game_seat.timeouts)
    if taken_back:
        # The player acts again: the seat is theirs again (RULES.md §11).
        game_seat.timeouts = 0
    event = {"kind": "act", "action": act.to_dict(), "by": user.username}
    apply(room, act, event, seats=[game_seat] if taken_back else [])
    return game


def apply(
    room: Room, act: Action, event: dict[str, Any], *, seats: Sequence[GameSeat] = ()
) -> None:
    """Apply one action to a locked room's running game: the engine checks it, the game
    stores it, the next timer is set (or the game ends), everyone is pushed their view.
    `seats`: seats whose `timeouts` changed with it (a timeout, a player taking their seat
    back), stored with it: who plays them changed."""
    game, state = room.game, room.state
    try:
        state.apply(act)
    except IllegalAction as exc:
        raise illegal(exc) from None
    if act.kind == "sing":
        # What the cante was worth, for the notice: the client decides no rule.
        event = {**event, "value": cante_value(SUITS.index(act.value), state.trump)}
    if state.over:
        for seat in seats:
            seat.save(update_fields=["timeouts", "robot_decisions"])
        record.fold_record(game=game, last=act)
        record.remember_on_commit(game, state)
        _finish(room)
        game.save()
        end_game(room, ending=_ending(room, event), push={**event, "kind": "end"})
        room.hand_over_state()
        return
    game.action_count += 1
    schedule(room)
    record.record_move(
        game=game, action=act, fields=["action_count", *DEADLINE_FIELDS], seats=seats
    )
    record.remember_on_commit(game, state)
    keep_on_commit(room)
    keys = (*MOVE, "seats") if seats else MOVE
    if state.deal_over:
        keys = (*keys, "sheet")  # the deal's line on the score sheet
    broadcast(room, event, game=keys)
    room.hand_over_state()


def _finish(room: Room) -> None:
    """Mark the room's game over: result, end time, each seat's outcome; the table waits
    for the next game."""
    game, state = room.game, room.state
    outcome = state.outcome()
    # A player who abandoned loses whatever the cards say (RULES.md §11).
    abandoned = [gs.seat for gs in room.game_seats if gs.abandoned]
    winner = game_winner(state, abandoned)
    winners = set(winner if isinstance(winner, list) else [winner])
    game.status = Game.Status.FINISHED
    game.result = {"winner": winner, "score": list(outcome.score)}
    if winner != outcome.winner:
        game.result["on_cards"] = outcome.winner  # what the cards gave, before the forfeit
    game.finished_at = game.ended_at = timezone.now()
    clear_deadline(game)
    for gs in room.game_seats:
        won = state.side_of[gs.seat] in winners and not gs.abandoned
        gs.outcome = GameSeat.Outcome.WON if won else GameSeat.Outcome.LOST
        gs.abandon_at = None
    GameSeat.objects.bulk_update(room.game_seats, ["outcome", "abandon_at"])


def _ending(room: Room, event: Mapping[str, Any]) -> Ending:
    """How the room's game, just over on the action pushed as `event`, ended."""
    if any(gs.abandoned for gs in room.game_seats):
        return Ending.ABANDONED
    return Ending.TIMEOUT if event.get("timeout") else Ending.FINISHED


def end_game(room: Room, *, ending: Ending, push: dict[str, Any]) -> None:
    """Every game's end, once, in the transaction that ends it, its rows written (a last
    action, or a cancel: games/table/cancel.py): the table waits for the next game, everyone
    is pushed `push`, a finished game's result goes to rankings, and the end is published
    on commit (games/events.py).

    In this order: on commit the end's push goes out first, and nothing its result or its
    subscribers queue (the award, an arena's score, the analysis) goes ahead of it."""
    table_after_game(room)
    broadcast(room, push, table=True)
    guest_practice = _guest_practice(room)
    if ending != Ending.CANCELLED and not guest_practice:
        # The one call to rankings (XP, chips from the pot, statistics), in the transaction
        # of the end: a finished game is never without its result. Rankings queues its
        # award on commit, and its sweep awards any result whose task was lost.
        game_result_submit(**game_result_arguments(room))
    game = room.game
    ended = GameEnded(
        game_id=game.pk,
        table_id=room.table.pk,
        variant=game.variant,
        players=game.players,
        ending=ending,
        arena=room.table.arena_table,
        guest_practice=guest_practice,
    )
    publish_on_commit(ended)


def _guest_practice(room: Room) -> bool:
    """A guest's practice: nothing to rank, pay or analyse (games/table/guests.py)."""
    game = room.game
    players = [gs.user_id for gs in room.game_seats if gs.user_id is not None]
    return not game.competitive and User.objects.filter(pk__in=players, is_guest=True).exists()


def table_after_game(room: Room) -> None:
    """The table waits for the next game; one with no player left closes, and one a
    moderator is closing stays closed."""
    table = room.table
    if table.status == Table.Status.CLOSED:
        return
    if any(s.user_id is not None for s in room.load(Part.SEATS).seats):
        table.status = Table.Status.OPEN
    else:
        table.status = Table.Status.CLOSED
        table.closed_at = timezone.now()
    table.save(update_fields=["status", "closed_at"])


@transaction.atomic
def game_next_deal(*, table_id: int, user: User) -> Game:
    """Any seated player deals the next deal of a running game once a deal ended. Locks the
    table."""
    user = require_user(user)
    room = locked_room(table_id, load=Part.GAME | Part.STATE)
    permits.require("next_deal", room, user)
    deal_next(room, by=user.username)
    return room.game


def deal_next(room: Room, *, by: str | None) -> None:
    """Deal the next deal at a locked room whose deal is over."""
    game, state = room.game, room.state
    state.deal_next(secrets.SystemRandom())
    record.record_deal(game=game, state=state)
    record.remember_on_commit(game, state)
    schedule(room)
    game.save(update_fields=["record", "deal_count", *DEADLINE_FIELDS])
    broadcast(room, {"kind": "deal", "by": by})
    keep_on_commit(room)
    room.hand_over_state()


def game_result_arguments(room: Room) -> dict[str, Any]:
    """What rankings is told of the room's finished game."""
    game, state = room.game, room.state
    rules = state.rules
    winner = game.result["winner"] if game.result else None
    winners = set(winner if isinstance(winner, list) else [winner])
    feats = game_feats(state.deal_summaries())  # for the trophies (games/feats.py)
    return {
        "game_id": game.pk,
        "variant": game.variant,
        "players": rules.players,
        "pairs": rules.pairs,
        "deals_to_win": rules.deals_to_win or 1,  # pocha: one ladder
        "competitive": game.competitive,
        "stake": game.stake,
        "finished_at": game.finished_at,
        "seats": [
            SeatResult(
                seat=gs.seat,
                user_id=gs.user_id,  # None for a robot
                side=state.side_of[gs.seat],
                won=state.side_of[gs.seat] in winners,
                abandoned=gs.abandoned,
                ip_address=gs.ip_address,
                feats=feats.get(gs.seat, ()),
            )
            for gs in room.game_seats
        ],
    }
