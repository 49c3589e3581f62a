"""Writes about tables and games. Every change at a table goes through one of these.

Each service is keyword-only, runs in one `transaction.atomic()`, takes the table's row with
`select_for_update()` before reading anything it will change (so any number of daphne
processes can serve one table), and pushes each seat its own view with
`transaction.on_commit`, so nobody ever sees a state that was rolled back. Refusals raise
`TableError` (a code from docs/protocol.md and a translatable message) and change nothing.

| service | what | locks |
|---|---|---|
| `table_create` | a new table; its master sits in seat 0 | the master's user row |
| `table_sit` | sit in a free seat | the table |
| `table_stand` | leave a seat before the game starts | the table |
| `table_practice` | a practice table against robots, its game started at once | the master |
| `table_set_options` | the master changes §10 options between games | the table |
| `table_invite` | the master invites a player by username | the table |
| `table_close` | a moderator closes a table | the table |
| `game_start` | the master starts a game: stakes to the pot, first deal | the table, ledger rows |
| `game_act` | one action, checked and applied by the engine, appended to the record | the table |
| `game_next_deal` | deal the next deal of a running game | the table |
| `game_hand_off` | the finished game's one call to rankings, in the finishing transaction | - |
| `game_timer_fire` | a due move timer: a robot acts for the seat waited for | (see next) |
| `game_timer_act` | the action a due timer's robot chose, if the timer still stands | the table |
| `game_resume` | a player takes their seat back from the robot after timeouts | the table |
| `game_leave` | a player leaves a running game on purpose: they abandon it | the table |
| `game_seat_abandon` | a disconnected player's grace period ran out: they abandoned | the table |
| `table_socket_open` | a user's table socket opened: an away player is back | the table |
| `table_socket_close` | a table socket closed: with none left, the player is away | the table |
| `server_process_beat` | a daphne process says it is alive | its own row |
| `server_process_sweep` | the sockets of a killed process are closed | each table in turn |
| `game_cancel_propose` | a player proposes to cancel the game | the table |
| `game_cancel_answer` | a player accepts or refuses the proposal | the table, ledger rows |
| `game_cancel_expire` | an unanswered proposal ends after its 60 seconds | the table |
| `chat_post` | a chat line, at most 5 per user in 10 s | the table, then the author's user row |
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import ModerationAction, User
from accounts.selectors import are_friends, can_chat
from accounts.services import moderation_log
from games import push
from games.bots import bot_action, get_bot
from games.bots.base import default_rng
from games.engine import Action, IllegalAction, MalformedAction, new_game
from games.errors import translate_engine_error
from games.feats import game_feats
from games.models import (
    CancelProposal,
    ChatMessage,
    Deadline,
    Game,
    GameSeat,
    Invitation,
    ServerProcess,
    Table,
    TableSeat,
    TableSocket,
)
from games.selectors import (
    TABLE_OPTIONS,
    TAKEOVER_ROBOT,
    action_count,
    chat_json,
    game_state,
    remember_state,
    robot_playing,
    seat_of,
    state_frames,
    state_key,
    table_options,
    table_seats,
    table_summary,
)
from games.table.options import DEFAULT_OPTIONS, clean_table_options
from rankings.selectors import chips_balance
from rankings.services import (
    InsufficientChips,
    SeatResult,
    chips_refund,
    chips_stake,
    game_result_submit,
)

logger = logging.getLogger(__name__)

CHAT_BURST = 5  # messages a user may post ...
CHAT_WINDOW = timedelta(seconds=10)  # ... within this time


class TableError(Exception):
    """A refused request: `code` is one of docs/protocol.md's error codes, `message` a
    translatable sentence, `rule` a RULES.md section or None, `field` an option name or None."""

    def __init__(
        self, code: str, message: Any, *, rule: str | None = None, field: str | None = None
    ) -> None:
        super().__init__(str(message))
        self.code = code
        self.message = message
        self.rule = rule
        self.field = field


# --- Helpers ------------------------------------------------------------------------------


def _locked_table(table_id: Any) -> Table:
    """The table's row, locked until the transaction ends. Every service starts here."""
    if not isinstance(table_id, int) or isinstance(table_id, bool):
        raise TableError("unknown_table", _("There is no such table."))
    # Lock first, then read the table with its master and game in a second statement. In
    # PostgreSQL's READ COMMITTED a statement sees the rows as they were when it started: a
    # game joined into the locking query would be the one from before the lock was granted,
    # without the move its holder just committed (that move would be lost, overwritten).
    if Table.objects.select_for_update().filter(pk=table_id).values_list("pk").first() is None:
        raise TableError("unknown_table", _("There is no such table."))
    return Table.objects.select_related("master", "game").get(pk=table_id)


def _open_table(table_id: Any) -> Table:
    table = _locked_table(table_id)
    if table.status == Table.Status.CLOSED:
        raise TableError("invalid", _("This table is closed."))
    return table


def _require_user(user: User | None) -> User:
    if user is None or not user.is_authenticated:
        raise TableError("login_required", _("Log in to do that."))
    return user


def _require_master(table: Table, user: User) -> None:
    if table.master_id != user.pk:
        raise TableError("not_master", _("Only the table's master may do that."))


def _broadcast(
    table: Table,
    event: dict[str, Any],
    *,
    lobby: bool = True,
    seats: list[TableSeat] | None = None,
    state: Any = None,
    game_seats: list[GameSeat] | None = None,
    skip_seat: int | None = None,
) -> None:
    """After commit, push each seat its own view and the spectators theirs (and the lobby
    the table's new row). The frames are built now, so they describe this transaction.
    `seats`, `state` and `game_seats` may be passed when the caller has them current.
    `skip_seat`'s group gets nothing (a player coming back reads the whole state as their
    socket connects).

    Each push is a new version of the table (the table is locked, so no two share one)."""
    table.version += 1
    Table.objects.filter(pk=table.pk).update(version=table.version)
    if seats is None:
        seats = table_seats(table=table)
    game = table.game
    if state is None and game is not None:
        state = game_state(game=game)
    frames = state_frames(table=table, seats=seats, game=game, state=state, game_seats=game_seats)
    if skip_seat is not None:
        frames.pop(skip_seat, None)
    messages = push.table_messages(table.pk, frames, event)
    if lobby:
        messages.append(push.lobby_message(table_summary(table=table, seats=seats)))
    transaction.on_commit(lambda: push.send(messages), robust=True)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_chips(user: User, stake: int) -> None:
    if stake and chips_balance(user=user) < stake:
        raise TableError(
            "invalid",
            _("%(player)s holds fewer than %(stake)s chips, the table's stake.")
            % {"player": user.username, "stake": stake},
            field="stake",
        )


# --- Tables -------------------------------------------------------------------------------


@transaction.atomic
def table_create(
    *, master: User, options: Mapping[str, Any], ip_address: str | None = None
) -> Table:
    """A new table with `options` (RULES.md §10); its master sits in seat 0.

    Locks the master's user row, so that the chips checked stay theirs."""
    master = _require_user(master)
    User.objects.select_for_update().filter(pk=master.pk).first()
    values = clean_table_options(data=options, current=DEFAULT_OPTIONS)
    _check_chips(master, values["stake"] if values["competitive"] else 0)
    table = Table.objects.create(master=master, **values)
    TableSeat.objects.create(table=table, seat=0, user=master, ip_address=ip_address)
    _broadcast(table, {"kind": "open", "by": master.username})
    return table


@transaction.atomic
def table_sit(
    *, table_id: int, user: User, seat: int | None = None, ip_address: str | None = None
) -> Table:
    """Sit `user` in `seat` (None: the first free one). Locks the table.

    A seat needs the stake in chips; a private table needs an invitation or the master's
    friendship; nobody sits down while a game runs."""
    user = _require_user(user)
    table = _open_table(table_id)
    if table.status == Table.Status.PLAYING:
        raise TableError("invalid", _("A game is running at this table."))
    seats = table_seats(table=table)
    if seat_of(seats=seats, user=user) is not None:
        raise TableError("invalid", _("You are already seated at this table."))
    taken = {s.seat for s in seats}
    if seat is None:
        free = [n for n in range(table.players) if n not in taken]
        if not free:
            raise TableError("invalid", _("Every seat is taken."))
        seat = free[0]
    elif not _is_int(seat) or not 0 <= seat < table.players:
        raise TableError("invalid", _("There is no such seat at this table."))
    elif seat in taken:
        raise TableError("invalid", _("That seat is taken."))
    if (
        table.private
        and user.pk != table.master_id
        and not Invitation.objects.filter(table=table, user=user).exists()
        and not are_friends(table.master, user)
    ):
        raise TableError(
            "invalid",
            _("This table is private: you need an invitation or the master's friendship."),
        )
    if table.competitive and table.stake and chips_balance(user=user) < table.stake:
        raise TableError(
            "invalid",
            _("You need %(stake)s chips to sit at this table.") % {"stake": table.stake},
        )
    TableSeat.objects.create(table=table, seat=seat, user=user, ip_address=ip_address)
    _broadcast(table, {"kind": "sit", "by": user.username, "seat": seat})
    return table


@transaction.atomic
def table_stand(*, table_id: int, user: User) -> Table:
    """`user` leaves their seat, before a game starts or between games. Locks the table.

    When the master stands, the player in the lowest seat becomes master; when nobody is
    left, the table closes."""
    user = _require_user(user)
    table = _open_table(table_id)
    seats = table_seats(table=table)
    seat = seat_of(seats=seats, user=user)
    if seat is None:
        raise TableError("not_seated", _("You are not seated at this table."))
    if table.status == Table.Status.PLAYING:
        raise TableError("invalid", _("You cannot leave your seat while a game runs."))
    TableSeat.objects.filter(table=table, user=user).delete()
    _pass_mastery(table, [s for s in seats if s.user_id != user.pk], leaving=user)
    _broadcast(table, {"kind": "stand", "by": user.username, "seat": seat})
    return table


def _pass_mastery(table: Table, others: list[TableSeat], *, leaving: User) -> None:
    """When the master leaves, the player in the lowest seat becomes master; a table left
    with no player at all (robots do not count) closes, or will once its game is over."""
    humans = [s for s in others if s.user_id is not None]
    if table.master_id == leaving.pk and humans:
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
    user = _require_user(user)
    table = _open_table(table_id)
    _require_master(table, user)
    if table.status == Table.Status.PLAYING:
        raise TableError("invalid", _("Options change only before a game or between games."))
    current = table_options(table)
    values = clean_table_options(data=options, current=current)
    seats = table_seats(table=table)
    robots = [s for s in seats if s.robot]
    if robots and (values["competitive"] or values["stake"]):
        raise TableError(
            "invalid", _("A table with robots is for practice only."), field="competitive"
        )
    beyond = [s for s in seats if s.seat >= values["players"] and not s.robot]
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
        for s in seats:
            if s.user_id is not None:
                _check_chips(s.user, values["stake"])
    changed = [name for name in TABLE_OPTIONS if values[name] != current[name]]
    for name in changed:
        setattr(table, name, values[name])
    table.save()
    if robots:
        _seat_robots(table)
    _broadcast(table, {"kind": "options", "by": user.username, "changed": changed})
    return table


@transaction.atomic
def table_invite(*, table_id: int, user: User, username: str) -> Invitation:
    """The master invites a player, by username, to sit at the table. Locks the table."""
    user = _require_user(user)
    table = _open_table(table_id)
    _require_master(table, user)
    name = username.strip() if isinstance(username, str) else ""
    guest = User.objects.filter(username__iexact=name, is_active=True).first() if name else None
    if guest is None:
        raise TableError(
            "invalid", _("No player is called %(name)s.") % {"name": name}, field="username"
        )
    if guest.pk == user.pk:
        raise TableError("invalid", _("You cannot invite yourself."), field="username")
    invitation, _created = Invitation.objects.get_or_create(
        table=table, user=guest, defaults={"invited_by": user}
    )
    _broadcast(table, {"kind": "invite", "by": user.username, "user": guest.username}, lobby=False)
    return invitation


@transaction.atomic
def table_close(*, table_id: int, moderator: User, reason: str = "") -> Table:
    """A moderator closes a table, saying why: the players read the reason at the table. A
    game still running is cancelled and its stakes go back to the players through the
    ledger. The closing goes to the moderation log. Locks the table (and the ledger its
    refund touches)."""
    if not (moderator.is_staff and moderator.has_perm("games.close_table")):
        raise TableError("not_master", _("Only moderators may close a table."))
    table = _locked_table(table_id)
    if table.status == Table.Status.CLOSED:
        return table
    reason = reason.strip()
    game = table.game
    if game is not None and game.status == Game.Status.PLAYING:
        _void_game(table=table, game=game, key=f"table-close-refund:game-{game.pk}")
    table.status = Table.Status.CLOSED
    table.closed_at = timezone.now()
    table.close_reason = reason
    table.save(update_fields=["status", "closed_at", "close_reason"])
    moderation_log(
        moderator=moderator, kind=ModerationAction.Kind.CLOSE, reason=reason, table_id=table.pk
    )
    _broadcast(table, {"kind": "closed", "by": moderator.username, "reason": reason})
    return table


# --- Games --------------------------------------------------------------------------------


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
                % {"player": s.user.username, "stake": game.stake},
            ) from None


@transaction.atomic
def game_start(*, table_id: int, user: User) -> Game:
    """The master starts a game once every seat is taken: the stakes go into the pot, the
    first deal is dealt, each player's address is recorded. Locks the table."""
    user = _require_user(user)
    table = _open_table(table_id)
    _require_master(table, user)
    if table.status == Table.Status.PLAYING:
        raise TableError("invalid", _("A game is already running at this table."))
    seats = table_seats(table=table)
    if len(seats) < table.players:
        raise TableError("invalid", _("Every seat must be taken before the game starts."))
    return _start_game(table=table, seats=seats, by=user)


def _start_game(*, table: Table, seats: list[TableSeat], by: User) -> Game:
    """Deal a new game at a locked table whose seats are all taken: stakes to the pot, the
    first deal, each player's address, the first timer."""
    rule_options = table.rule_options
    state = new_game({"variant": table.variant, **rule_options}, secrets.SystemRandom())
    addresses = [s.ip_address for s in seats if s.ip_address and s.user_id is not None]
    game = Game.objects.create(
        variant=table.variant,
        options=rule_options,
        record=state.to_record(),
        competitive=table.competitive,
        stake=table.stake if table.competitive else 0,
        shared_ip=len(addresses) != len(set(addresses)),
        table=table,
        started_at=timezone.now(),
    )
    GameSeat.objects.bulk_create(
        GameSeat(game=game, seat=s.seat, user=s.user, robot=s.robot, ip_address=s.ip_address)
        for s in seats
    )
    if game.competitive and game.stake:
        _take_stakes(game=game, seats=seats)
    table.game = game
    table.status = Table.Status.PLAYING
    table.save(update_fields=["game", "status"])
    _schedule(table=table, game=game, state=state)
    game.save(update_fields=DEADLINE_FIELDS)
    _broadcast(table, {"kind": "start", "by": by.username})
    return game


def _remember_on_commit(game: Game, state: Any) -> None:
    """Keep the new state for the next move in this process, once (and if) it is stored."""
    key, copy_of_state = state_key(game), state.clone()
    transaction.on_commit(lambda: remember_state(key=key, state=copy_of_state), robust=True)


def _running_game(table: Table) -> Game:
    game = table.game
    if game is None or game.status != Game.Status.PLAYING:
        raise TableError("no_game", _("No game is running at this table."))
    return game


def _seated(seats: list[TableSeat], user: User) -> int:
    seat = seat_of(seats=seats, user=user)
    if seat is None:
        raise TableError("not_seated", _("You are not seated at this table."))
    return seat


@transaction.atomic
def game_act(
    *, table_id: int, user: User, action: Mapping[str, Any], count: int | None = None
) -> Game:
    """Apply one action of `user`'s seat: the engine checks it, the record gets it, every
    seat is pushed its own view after commit. Locks the table.

    `count`, when given, must be the game's action count: an action sent from an older
    screen is refused (`stale`)."""
    user = _require_user(user)
    table = _open_table(table_id)
    seats = table_seats(table=table)
    seat = _seated(seats, user)
    game = _running_game(table)
    record = game.record
    if count is not None and count != action_count(record):
        raise TableError("stale", _("The game has moved on; here is the current position."))
    try:
        act = Action.from_dict(action, game.players)
    except MalformedAction as exc:
        raise TableError("malformed", translate_engine_error(exc).message) from None
    if act.seat != seat:
        raise TableError("not_your_seat", _("That seat is not yours."))
    # The game's seats are read once for the whole move: the check, the timer, the frames.
    game_seats = _game_seats(game)
    game_seat = _playing_seat(game, seat, game_seats)
    if game_seat.timeouts:
        # The player acts again: the seat is theirs again (RULES.md §11).
        game_seat.timeouts = 0
        game_seat.save(update_fields=["timeouts"])
    event = {"kind": "act", "action": act.to_dict(), "by": user.username}
    _apply(
        table=table,
        game=game,
        state=game_state(game=game),
        act=act,
        event=event,
        seats=seats,
        game_seats=game_seats,
    )
    return game


def _game_seats(game: Game) -> list[GameSeat]:
    """A game's seats with their users, in seat order."""
    return list(game.seats.select_related("user").order_by("seat"))


def _seat_in(game_seats: list[GameSeat], seat: int) -> GameSeat:
    return next(gs for gs in game_seats if gs.seat == seat)


def _playing_seat(game: Game, seat: int, game_seats: list[GameSeat] | None = None) -> GameSeat:
    game_seat = _seat_in(game_seats, seat) if game_seats else game.seats.get(seat=seat)
    if game_seat.abandoned:
        raise TableError("invalid", _("You abandoned this game: a robot plays your seat."))
    return game_seat


def _apply(
    *,
    table: Table,
    game: Game,
    state: Any,
    act: Action,
    event: dict[str, Any],
    seats: list[TableSeat] | None = None,
    game_seats: list[GameSeat] | None = None,
) -> None:
    """Apply one action to a locked table's running game: the engine checks it, the record
    gets it, the next timer is set (or the game ends), everyone is pushed their view.
    `seats` and `game_seats`, when given, are the table's and the game's seats, current."""
    if game_seats is None:
        game_seats = _game_seats(game)
    try:
        state.apply(act)
    except IllegalAction as exc:
        error = translate_engine_error(exc)
        raise TableError("illegal", error.message, rule=error.rule) from None
    game.record["deals"][-1]["actions"].append(act.to_dict())
    _remember_on_commit(game, state)
    if state.over:
        _finish(table=table, game=game, state=state, game_seats=game_seats)
        event = {**event, "kind": "end"}
        game.save()
        # In the same transaction as the end: a finished game is never without its result.
        game_hand_off(game=game)
    else:
        _schedule(table=table, game=game, state=state, game_seats=game_seats)
        game.save(update_fields=["record", *DEADLINE_FIELDS])
    _broadcast(table, event, lobby=state.over, state=state, seats=seats, game_seats=game_seats)


def _finish(
    *, table: Table, game: Game, state: Any, game_seats: list[GameSeat] | None = None
) -> None:
    """Mark a game over: result, end time, each seat's outcome; the table waits for the next.
    `game_seats`, when given, are the game's seats, current; they get their outcomes."""
    outcome = state.outcome()
    winners = set(outcome.winner if isinstance(outcome.winner, list) else [outcome.winner])
    now = timezone.now()
    game.status = Game.Status.FINISHED
    game.result = {"winner": outcome.winner, "score": list(outcome.score)}
    game.finished_at = game.ended_at = now
    _clear_deadline(game)
    for gs in game_seats if game_seats is not None else game.seats.all():
        # A player who abandoned loses whatever the result (RULES.md §11).
        won = state.side_of[gs.seat] in winners and not gs.abandoned
        gs.outcome = GameSeat.Outcome.WON if won else GameSeat.Outcome.LOST
        gs.abandon_at = None
        gs.save(update_fields=["outcome", "abandon_at"])
    _table_after_game(table)


def _table_after_game(table: Table) -> None:
    """The table waits for the next game; one with no player left closes."""
    if TableSeat.objects.filter(table=table, user__isnull=False).exists():
        table.status = Table.Status.OPEN
    else:
        table.status = Table.Status.CLOSED
        table.closed_at = timezone.now()
    table.save(update_fields=["status", "closed_at"])


@transaction.atomic
def game_next_deal(*, table_id: int, user: User) -> Game:
    """Any seated player deals the next deal of a running game once a deal ended. Locks the
    table."""
    user = _require_user(user)
    table = _open_table(table_id)
    _seated(table_seats(table=table), user)
    game = _running_game(table)
    state = game_state(game=game)
    if not state.needs_deal:
        raise TableError("no_game", _("The deal is not over yet."))
    _deal_next(table=table, game=game, state=state, by=user.username)
    return game


def _deal_next(*, table: Table, game: Game, state: Any, by: str | None) -> None:
    state.deal_next(secrets.SystemRandom())
    game.record["deals"].append(state.to_record()["deals"][-1])
    _remember_on_commit(game, state)
    _schedule(table=table, game=game, state=state)
    game.save(update_fields=["record", *DEADLINE_FIELDS])
    _broadcast(table, {"kind": "deal", "by": by}, lobby=False, state=state)


def game_result_arguments(*, game: Game) -> dict[str, Any]:
    """What rankings is told of a finished game."""
    state = game_state(game=game)
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
            for gs in game.seats.order_by("seat")
        ],
    }


def game_hand_off(*, game: Game) -> None:
    """The finished game's one call to rankings (XP, chips from the pot, statistics).

    Runs inside the transaction that finished the game: rankings records the result with it
    and queues its award task on commit; its sweep awards any result whose task was lost."""
    game_result_submit(**game_result_arguments(game=game))
    # The game's analysis, at low priority once the end is committed (games/analysis.py).
    from games.analysis import game_analysis_queue

    transaction.on_commit(lambda: game_analysis_queue(game.pk), robust=True)


# --- Practice tables, timers and robots (RULES.md §11) --------------------------------------

DEADLINE_FIELDS = [
    "deadline_at",
    "deadline_kind",
    "deadline_seat",
    "deadline_count",
    "deadline_claimed_until",
]
# Robots that act one after the other with no delay are chained in one timer run, up to this.
MAX_CHAINED_ACTIONS = 400


def _seconds(value: float) -> timedelta:
    return timedelta(seconds=value)


def _clear_deadline(game: Game) -> None:
    game.deadline_at = game.deadline_claimed_until = game.deadline_seat = None
    game.deadline_kind = ""


def _schedule(
    *, table: Table, game: Game, state: Any, game_seats: list[GameSeat] | None = None
) -> None:
    """Set the game's one timer from the position (the caller saves `DEADLINE_FIELDS`).

    The seat the game waits for gets `move_time` seconds, or a robot acts for it after the
    robot delay: at a robot's seat, at a seat taken over (away, abandoned, three timeouts)
    and at every seat in automatic mode (`move_time` 0). A robot that may sing goes before
    the seat on turn; a robot on turn gives a player who may still sing their move time.
    A timer that did not change keeps its deadline, so a countdown never starts again."""
    now = timezone.now()
    seats = game_seats if game_seats is not None else list(game.seats.all())
    move_time = table.move_time
    robots = {gs.seat for gs in seats if robot_playing(gs, move_time=move_time)}
    # Nobody to show the cards to: robots play on at once.
    watched = any(gs.user_id is not None and not gs.abandoned for gs in seats)
    delay = settings.ROBOT_DELAY_SECONDS if watched else 0
    kind, seat, wait = "", None, 0.0
    if state.needs_deal:
        kind = Deadline.DEAL
        wait = move_time if move_time and len(robots) < len(seats) else delay
    elif not state.over:
        legal = state.legal_actions()
        turn = state.to_move
        waiting = [s for s in legal if s != turn]
        robot_waiting = [s for s in waiting if s in robots]
        if robot_waiting:
            kind, seat, wait = Deadline.ROBOT, robot_waiting[0], delay
        elif turn in legal and turn in robots:
            kind, seat = Deadline.ROBOT, turn
            wait = move_time if waiting and move_time else delay
        elif turn in legal:
            kind, seat, wait = Deadline.MOVE, turn, move_time
    count = action_count(game.record)
    if not kind:
        _clear_deadline(game)
        game.deadline_count = count
        return
    same = (game.deadline_kind, game.deadline_seat, game.deadline_count) == (kind, seat, count)
    if same and game.deadline_at is not None:
        return
    game.deadline_kind, game.deadline_seat, game.deadline_count = kind, seat, count
    game.deadline_at = now + _seconds(wait)
    game.deadline_claimed_until = None


def _reschedule(table: Table, game: Game) -> None:
    _schedule(table=table, game=game, state=game_state(game=game))
    game.save(update_fields=DEADLINE_FIELDS)


def _seat_robots(table: Table) -> None:
    """A practice table: robots of the table's level in every seat no player holds, none
    beyond the table's size."""
    TableSeat.objects.filter(table=table, seat__gte=table.players).delete()
    TableSeat.objects.filter(table=table, user__isnull=True).update(robot=table.robot_level)
    taken = set(TableSeat.objects.filter(table=table).values_list("seat", flat=True))
    TableSeat.objects.bulk_create(
        TableSeat(table=table, seat=n, robot=table.robot_level)
        for n in range(table.players)
        if n not in taken
    )


@transaction.atomic
def table_practice(
    *, master: User, options: Mapping[str, Any], ip_address: str | None = None
) -> Table:
    """A practice table against robots, its game started at once (RULES.md §11): the player
    in seat 0, robots of `options["robot_level"]` in the others (in 4-player pairs the
    partner, seat 2, sits opposite). Nothing is at stake. Locks the master's user row."""
    master = _require_user(master)
    User.objects.select_for_update().filter(pk=master.pk).first()
    practice = {**options, "competitive": False, "stake": 0, "private": True}
    values = clean_table_options(data=practice, current=DEFAULT_OPTIONS)
    table = Table.objects.create(master=master, **values)
    TableSeat.objects.create(table=table, seat=0, user=master, ip_address=ip_address)
    _seat_robots(table)
    _start_game(table=table, seats=table_seats(table=table), by=master)
    return table


def _due(game: Game | None, count: int | None, now: Any) -> bool:
    return (
        game is not None
        and game.status == Game.Status.PLAYING
        and game.deadline_at is not None
        and game.deadline_at <= now
        and (count is None or game.deadline_count == count)
    )


def _robot_choice(game: Game) -> tuple[dict[str, Any] | None, str]:
    """What the robot playing the game's timed seat does, from that seat's view alone."""
    if game.deadline_kind == Deadline.DEAL:
        return None, ""
    game_seat = game.seats.get(seat=game.deadline_seat)
    name = game_seat.robot or TAKEOVER_ROBOT
    try:
        bot = get_bot(name, default_rng())
    except KeyError:
        # A robot level this process does not know (e.g. registered by a newer release).
        name, bot = TAKEOVER_ROBOT, get_bot(TAKEOVER_ROBOT, default_rng())
    action = bot_action(bot, game_state(game=game), game.deadline_seat)
    return action.to_dict(), name


def game_timer_fire(*, game_id: int, count: int, now: Any = None) -> int:
    """Act on a game's timer if it is due and was set at action count `count` (otherwise it
    is stale, and nothing happens). Returns how many actions were taken.

    The robot thinks outside any lock, from its seat's view; `game_timer_act` then applies
    its choice only if the timer still stands. Robots due one after the other at once (no
    delay) are chained here, so an automatic game never waits for the next sweep."""
    taken = 0
    expected: int | None = count
    for _step in range(MAX_CHAINED_ACTIONS):
        game = Game.objects.filter(pk=game_id).first()
        at = now or timezone.now()
        if not _due(game, expected, at):
            break
        action, robot = _robot_choice(game)
        if not game_timer_act(
            table_id=game.table_id,
            game_id=game_id,
            count=game.deadline_count,
            kind=game.deadline_kind,
            seat=game.deadline_seat,
            action=action,
            robot=robot,
            now=at,
        ):
            break
        taken += 1
        expected = None
    return taken


@transaction.atomic
def game_timer_act(
    *,
    table_id: int,
    game_id: int,
    count: int,
    kind: str,
    seat: int | None,
    action: Mapping[str, Any] | None,
    robot: str,
    now: Any = None,
) -> bool:
    """Apply what a due timer's robot chose (or deal the next deal), if the game's timer is
    still that one: same kind, seat and action count, and due. Returns whether it acted.
    A timeout counts toward the player's three in a row. Locks the table."""
    table = _locked_table(table_id)
    game = table.game
    if game is None or game.pk != game_id or not _due(game, count, now or timezone.now()):
        return False
    if (game.deadline_kind, game.deadline_seat) != (kind, seat):
        return False
    if action_count(game.record) != count:
        return False
    state = game_state(game=game)
    if kind == Deadline.DEAL:
        _deal_next(table=table, game=game, state=state, by=None)
        return True
    game_seats = _game_seats(game)
    game_seat = _seat_in(game_seats, seat)
    if kind == Deadline.MOVE:
        game_seat.timeouts += 1
        game_seat.save(update_fields=["timeouts"])
    act = Action.from_dict(action, game.players)
    event = {
        "kind": "act",
        "action": act.to_dict(),
        "by": game_seat.user.username if game_seat.user_id else None,
        "robot": robot,
        "timeout": kind == Deadline.MOVE,
    }
    _apply(table=table, game=game, state=state, act=act, event=event, game_seats=game_seats)
    return True


@transaction.atomic
def game_resume(*, table_id: int, user: User) -> Game:
    """A player takes their seat back from the robot that played it after three timeouts in
    a row. Locks the table."""
    user = _require_user(user)
    table = _open_table(table_id)
    seat = _seated(table_seats(table=table), user)
    game = _running_game(table)
    game_seat = _playing_seat(game, seat)
    if game_seat.timeouts:
        game_seat.timeouts = 0
        game_seat.save(update_fields=["timeouts"])
        _reschedule(table, game)
        _broadcast(table, {"kind": "resume", "by": user.username, "seat": seat}, lobby=False)
    return game


def _abandon(*, table: Table, game: Game, game_seat: GameSeat, event: dict[str, Any]) -> None:
    game_seat.abandoned = True
    game_seat.abandon_at = None
    game_seat.save(update_fields=["abandoned", "abandon_at"])
    _reschedule(table, game)
    _broadcast(table, event)


@transaction.atomic
def game_leave(*, table_id: int, user: User) -> Table:
    """A player leaves a running game on purpose (the page asks them to confirm): they have
    abandoned it, so they lose it whatever its result; a robot finishes it for them. They
    leave the table too. Locks the table."""
    user = _require_user(user)
    table = _open_table(table_id)
    seats = table_seats(table=table)
    seat = _seated(seats, user)
    game = _running_game(table)
    game_seat = game.seats.get(seat=seat)
    TableSeat.objects.filter(table=table, user=user).delete()
    _pass_mastery(table, [s for s in seats if s.user_id != user.pk], leaving=user)
    if game_seat.abandoned:
        _broadcast(table, {"kind": "leave", "by": user.username, "seat": seat})
    else:
        event = {"kind": "leave", "by": user.username, "seat": seat}
        _abandon(table=table, game=game, game_seat=game_seat, event=event)
    return table


@transaction.atomic
def game_seat_abandon(*, game_id: int, seat: int, now: Any = None) -> bool:
    """A disconnected player's grace period is over: they have abandoned, and the robot that
    plays their seat finishes the game. Run by the sweeper. Locks the table."""
    now = now or timezone.now()
    table_id = Game.objects.filter(pk=game_id).values_list("table_id", flat=True).first()
    if table_id is None:
        return False
    table = _locked_table(table_id)
    game = table.game
    game_seat = (
        GameSeat.objects.select_related("user")
        .filter(game_id=game_id, seat=seat, abandoned=False, away_since__isnull=False)
        .filter(abandon_at__lte=now)
        .first()
    )
    if game is None or game.pk != game_id or game.status != Game.Status.PLAYING:
        return False
    if game_seat is None:
        return False
    event = {"kind": "abandoned", "by": game_seat.user.username, "seat": seat}
    _abandon(table=table, game=game, game_seat=game_seat, event=event)
    return True


# --- Presence: who has a socket open at a table --------------------------------------------


@transaction.atomic
def server_process_beat(*, process_id: Any) -> None:
    """A daphne process says it is alive. Locks its own row."""
    ServerProcess.objects.update_or_create(id=process_id, defaults={"last_seen": timezone.now()})


@transaction.atomic
def table_socket_open(
    *, table_id: int, user: User, channel_name: str, process_id: Any, ip_address: str | None
) -> None:
    """A logged-in user's table socket opened in process `process_id`. A seated player's
    address is noted for the next game; a player who was away is back in their seat, where
    it stands. Locks the table."""
    if user is None or not user.is_authenticated:
        return
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None:
        return
    now = timezone.now()
    ServerProcess.objects.get_or_create(id=process_id, defaults={"last_seen": now})
    TableSocket.objects.update_or_create(
        channel_name=channel_name,
        defaults={"table": table, "user": user, "process_id": process_id},
    )
    if ip_address is not None:
        TableSeat.objects.filter(table=table, user=user).exclude(ip_address=ip_address).update(
            ip_address=ip_address
        )
    game = table.game
    if game is None or game.status != Game.Status.PLAYING:
        return
    game_seat = GameSeat.objects.filter(
        game=game, user=user, abandoned=False, away_since__isnull=False
    ).first()
    if game_seat is not None:
        game_seat.away_since = game_seat.abandon_at = None
        game_seat.save(update_fields=["away_since", "abandon_at"])
        _reschedule(table, game)
        event = {"kind": "back", "by": user.username, "seat": game_seat.seat}
        _broadcast(table, event, skip_seat=game_seat.seat)


@transaction.atomic
def table_socket_close(*, channel_name: str, now: Any = None) -> None:
    """A table socket closed (or its process died). A player with no socket left at a
    running game is away: a robot plays their seat, and after the grace period they have
    abandoned. Locks the table."""
    row = TableSocket.objects.filter(pk=channel_name).select_related("user").first()
    if row is None:
        return
    table = _locked_table(row.table_id)
    TableSocket.objects.filter(pk=channel_name).delete()
    if TableSocket.objects.filter(table=table, user_id=row.user_id).exists():
        return
    game = table.game
    if game is None or game.status != Game.Status.PLAYING:
        return
    game_seat = GameSeat.objects.filter(
        game=game, user_id=row.user_id, abandoned=False, away_since__isnull=True
    ).first()
    if game_seat is None:
        return
    now = now or timezone.now()
    game_seat.away_since = now
    game_seat.abandon_at = now + _seconds(settings.DISCONNECT_GRACE_SECONDS)
    game_seat.save(update_fields=["away_since", "abandon_at"])
    _reschedule(table, game)
    # The player has no socket left at this table: their seat's group needs nothing.
    event = {"kind": "away", "by": row.user.username, "seat": game_seat.seat}
    _broadcast(table, event, skip_seat=game_seat.seat)


def server_process_sweep(*, now: Any = None, alive: Any = None) -> int:
    """Close the sockets of every daphne process that stopped beating (killed): their
    players are away unless they reconnected elsewhere. Returns how many sockets closed.
    `alive`, the process sweeping (the embedded default), is never taken for dead: under
    load its beat may be late, but it is running. Each socket is closed in its own
    transaction, locking its table."""
    now = now or timezone.now()
    dead_before = now - _seconds(settings.SERVER_DEAD_SECONDS)
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


# --- Friendly cancel -------------------------------------------------------------------------


def _voters(game: Game) -> set[int]:
    """The players who vote on a cancel: every human seat that has not abandoned."""
    return set(
        game.seats.filter(user__isnull=False, abandoned=False).values_list("user_id", flat=True)
    )


def _open_proposal(game: Game) -> CancelProposal | None:
    return CancelProposal.objects.filter(game=game, status=CancelProposal.Status.OPEN).first()


def _refund_stakes(*, game: Game, key: str) -> None:
    """Each stake back to its player, except to a player who abandoned (RULES.md §11): that
    stake goes to the bank. The one call to the ledger's refund."""
    forfeit = [gs.user for gs in game.seats.select_related("user") if gs.abandoned and gs.user_id]
    chips_refund(game_id=game.pk, key=key, forfeit=forfeit)


def _void_game(*, table: Table, game: Game, key: str) -> None:
    """Cancel a running game at a locked table: no XP, no ranking, no statistics (it is
    never handed to rankings), every stake refunded but the abandoners'."""
    now = timezone.now()
    game.status = Game.Status.CANCELLED
    game.ended_at = game.finished_at = now
    _clear_deadline(game)
    game.save(update_fields=["status", "ended_at", "finished_at", *DEADLINE_FIELDS])
    GameSeat.objects.filter(game=game).update(outcome=GameSeat.Outcome.VOID, abandon_at=None)
    CancelProposal.objects.filter(game=game, status=CancelProposal.Status.OPEN).update(
        status=CancelProposal.Status.ACCEPTED
    )
    if game.competitive and game.stake:
        _refund_stakes(game=game, key=key)
    _table_after_game(table)


def _answered(*, table: Table, game: Game, proposal: CancelProposal, by: User) -> None:
    """Cancel the game if every voter accepted the proposal, else tell everyone the vote."""
    if _voters(game) <= set(proposal.accepted):
        _void_game(table=table, game=game, key=f"cancel-refund:game-{game.pk}")
        _broadcast(table, {"kind": "cancelled", "by": by.username})
    else:
        kind = "cancel_proposed" if proposal.proposed_by_id == by.pk else "cancel_accepted"
        _broadcast(table, {"kind": kind, "by": by.username}, lobby=False)


@transaction.atomic
def game_cancel_propose(*, table_id: int, user: User) -> CancelProposal:
    """A seated player proposes to cancel the running game; the others have 60 seconds to
    accept or refuse. A player alone with robots cancels at once. Locks the table."""
    user = _require_user(user)
    table = _open_table(table_id)
    seat = _seated(table_seats(table=table), user)
    game = _running_game(table)
    _playing_seat(game, seat)
    now = timezone.now()
    pending = _open_proposal(game)
    if pending is not None and pending.expires_at <= now:
        # Its time ran out and the sweeper has not ended it yet: it is over all the same.
        pending.status = CancelProposal.Status.EXPIRED
        pending.save(update_fields=["status"])
    elif pending is not None:
        raise TableError("invalid", _("A proposal to cancel is already waiting for answers."))
    proposal = CancelProposal.objects.create(
        game=game,
        proposed_by=user,
        accepted=[user.pk],
        expires_at=now + _seconds(settings.CANCEL_PROPOSAL_SECONDS),
    )
    _answered(table=table, game=game, proposal=proposal, by=user)
    return proposal


@transaction.atomic
def game_cancel_answer(*, table_id: int, user: User, accept: bool) -> CancelProposal:
    """A player accepts or refuses the proposal to cancel. Every player accepting cancels the
    game (its stakes refunded); one refusal ends the proposal. Locks the table (and the
    ledger rows of a refund)."""
    user = _require_user(user)
    table = _open_table(table_id)
    seat = _seated(table_seats(table=table), user)
    game = _running_game(table)
    _playing_seat(game, seat)
    proposal = _open_proposal(game)
    if proposal is None or proposal.expires_at <= timezone.now():
        raise TableError("invalid", _("Nobody is proposing to cancel this game."))
    if not accept:
        proposal.status = CancelProposal.Status.REFUSED
        proposal.save(update_fields=["status"])
        _broadcast(table, {"kind": "cancel_refused", "by": user.username}, lobby=False)
        return proposal
    if user.pk not in proposal.accepted:
        proposal.accepted = [*proposal.accepted, user.pk]
        proposal.save(update_fields=["accepted"])
    _answered(table=table, game=game, proposal=proposal, by=user)
    return proposal


@transaction.atomic
def game_cancel_expire(*, proposal_id: int, now: Any = None) -> bool:
    """A proposal to cancel that not everyone accepted in time ends; the game goes on. Run
    by the sweeper. Locks the table."""
    now = now or timezone.now()
    proposals = CancelProposal.objects.filter(pk=proposal_id)
    table_id = proposals.values_list("game__table_id", flat=True).first()
    if table_id is None:
        return False
    table = _locked_table(table_id)
    updated = CancelProposal.objects.filter(
        pk=proposal_id, status=CancelProposal.Status.OPEN, expires_at__lte=now
    ).update(status=CancelProposal.Status.EXPIRED)
    if updated:
        _broadcast(table, {"kind": "cancel_expired", "by": None}, lobby=False)
    return bool(updated)


# --- Chat ---------------------------------------------------------------------------------


@transaction.atomic
def chat_post(*, table_id: int, user: User, text: str) -> ChatMessage:
    """Post a chat message at a table. Locks the table, then the author's user row, whose
    latest messages are counted: at most 5 in 10 seconds, in whichever process they came."""
    user = _require_user(user)
    table = _open_table(table_id)
    seats = table_seats(table=table)
    if seat_of(seats=seats, user=user) is None and not table.guests:
        raise TableError("not_seated", _("Only the players may chat at this table."))
    author = User.objects.select_for_update().get(pk=user.pk)
    if not can_chat(author):
        raise TableError("muted", _("You are muted and cannot chat for now."))
    text = text.strip() if isinstance(text, str) else ""
    if not text or len(text) > ChatMessage.MAX_LENGTH:
        raise TableError(
            "invalid",
            _("A chat message has 1 to %(max)s characters.") % {"max": ChatMessage.MAX_LENGTH},
        )
    since = timezone.now() - CHAT_WINDOW
    if ChatMessage.objects.filter(user=author, created_at__gte=since).count() >= CHAT_BURST:
        raise TableError("rate_limited", _("Not so fast: at most 5 messages in 10 seconds."))
    message = ChatMessage.objects.create(table=table, user=author, text=text)
    game = table.game
    frame = {
        "type": "chat",
        "table_id": table.pk,
        "version": table.version,  # chat is no new version: a lost line is only a line
        "count": action_count(game.record) if game is not None else 0,
        "message": chat_json(message),
    }
    groups = [push.seat_group(table.pk, n) for n in range(table.players)]
    if table.guests:
        groups.append(push.watch_group(table.pk))
    messages = [(group, {"type": "table.chat", "frame": frame}) for group in groups]
    transaction.on_commit(lambda: push.send(messages), robust=True)
    return message
