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
| `table_seen` | note the address a seated player's socket comes from | the table |
| `table_set_options` | the master changes §10 options between games | the table |
| `table_invite` | the master invites a player by username | the table |
| `table_close` | a moderator closes a table | the table |
| `game_start` | the master starts a game: stakes to the pot, first deal | the table, ledger rows |
| `game_act` | one action, checked and applied by the engine, appended to the record | the table |
| `game_next_deal` | deal the next deal of a running game | the table |
| `game_hand_off` | the finished game's one call to rankings (run after commit) | nothing itself |
| `chat_post` | a chat line, at most 5 per user in 10 s | the table, then the author's user row |
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.selectors import are_friends, can_chat
from games import push
from games.engine import Action, IllegalAction, MalformedAction, Options, new_game
from games.engine.options import PLAYERS_ALLOWED, OptionError
from games.errors import translate_engine_error
from games.models import ChatMessage, Game, GameSeat, Invitation, StockPlay, Table, TableSeat
from games.selectors import (
    TABLE_OPTIONS,
    action_count,
    chat_json,
    game_state,
    remember_state,
    seat_of,
    state_frames,
    state_key,
    table_options,
    table_seats,
    table_summary,
)
from rankings.selectors import chips_balance
from rankings.services import InsufficientChips, chips_refund, chips_stake

logger = logging.getLogger(__name__)

CHAT_BURST = 5  # messages a user may post ...
CHAT_WINDOW = timedelta(seconds=10)  # ... within this time
MAX_MOVE_TIME = 300
MAX_STAKE = 1_000_000
DEFAULT_OPTIONS: dict[str, Any] = {
    "variant": "tute",
    "players": 4,
    "pairs": True,
    "rounds": 1,
    "points_to_win": 4,
    "move_time": 30,
    "competitive": True,
    "stake": 0,
    "private": False,
    "guests": True,
    "allow_tute": True,
    "stock_play": "free",
}


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
    # The master and the game come in the same query; only the table's row is locked.
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("master", "game")
        .filter(pk=table_id)
        .first()
    )
    if table is None:
        raise TableError("unknown_table", _("There is no such table."))
    return table


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
) -> None:
    """After commit, push each seat its own view and the spectators theirs (and the lobby
    the table's new row). The frames are built now, so they describe this transaction.
    `seats` and `state` may be passed when the caller has them current."""
    if seats is None:
        seats = table_seats(table=table)
    game = table.game
    if state is None and game is not None:
        state = game_state(game=game)
    frames = state_frames(table=table, seats=seats, game=game, state=state)
    messages = push.table_messages(table.pk, frames, event)
    if lobby:
        messages.append(push.lobby_message(table_summary(table=table, seats=seats)))
    transaction.on_commit(lambda: push.send(messages))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def clean_table_options(*, data: Mapping[str, Any], current: Mapping[str, Any]) -> dict[str, Any]:
    """`current` options changed by `data`, checked against RULES.md §10.

    Raises TableError("invalid", field=...) naming the first wrong option. An option `data`
    leaves out keeps its value, except `players` when the variant changes to one that is not
    played by that many (habanero: 2).
    """
    if not isinstance(data, Mapping):
        raise TableError("malformed", _("Options must be an object."))
    for name in data:
        if name not in TABLE_OPTIONS:
            raise TableError("invalid", _("There is no such option."), field=str(name))
    out = {**current, **data}
    variant = out["variant"]
    if variant not in PLAYERS_ALLOWED:
        raise TableError("invalid", _("Choose tute, habanero or pocha."), field="variant")
    allowed = PLAYERS_ALLOWED[variant]
    if "players" not in data and out["players"] not in allowed:
        out["players"] = 2 if variant == "habanero" else 4
    if not _is_int(out["players"]) or out["players"] not in allowed:
        raise TableError(
            "invalid",
            _("This variant is played by %(allowed)s players.")
            % {"allowed": ", ".join(str(n) for n in allowed)},
            field="players",
        )
    for name in ("pairs", "competitive", "private", "guests", "allow_tute"):
        if not isinstance(out[name], bool):
            raise TableError("invalid", _("Choose yes or no."), field=name)
    for name in ("rounds", "points_to_win"):
        if not _is_int(out[name]) or not 1 <= out[name] <= 5:
            raise TableError("invalid", _("Choose a number from 1 to 5."), field=name)
    if not _is_int(out["move_time"]) or not 0 <= out["move_time"] <= MAX_MOVE_TIME:
        raise TableError(
            "invalid",
            _("Choose a number of seconds from 0 to %(max)s.") % {"max": MAX_MOVE_TIME},
            field="move_time",
        )
    if not _is_int(out["stake"]) or not 0 <= out["stake"] <= MAX_STAKE:
        raise TableError(
            "invalid",
            _("A stake is a number of chips from 0 to %(max)s.") % {"max": MAX_STAKE},
            field="stake",
        )
    if out["stake"] and not out["competitive"]:
        raise TableError("invalid", _("Only a competitive table plays for a stake."), field="stake")
    if out["stock_play"] not in StockPlay.values:
        raise TableError("invalid", _("Choose free, follow_trump or strict."), field="stock_play")
    try:
        Options.from_dict({name: out[name] for name in ("variant", *RULE_NAMES)})
    except OptionError:
        # The checks above cover every rule option; this only guards against them drifting.
        raise TableError("invalid", _("These options do not make a game.")) from None
    return out


RULE_NAMES = ("players", "pairs", "rounds", "points_to_win", "allow_tute", "stock_play")


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
    others = [s for s in seats if s.user_id != user.pk]
    if table.master_id == user.pk:
        if others:
            table.master = others[0].user
        else:
            table.status = Table.Status.CLOSED
            table.closed_at = timezone.now()
        table.save(update_fields=["master", "status", "closed_at"])
    _broadcast(table, {"kind": "stand", "by": user.username, "seat": seat})
    return table


@transaction.atomic
def table_seen(*, table_id: int, user: User, ip_address: str | None) -> None:
    """Note the address a seated player's socket comes from: the game that starts next
    records it. Locks the table."""
    if ip_address is None or user is None or not user.is_authenticated:
        return
    table = _locked_table(table_id)
    TableSeat.objects.filter(table=table, user=user).exclude(ip_address=ip_address).update(
        ip_address=ip_address
    )


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
    beyond = [s for s in seats if s.seat >= values["players"]]
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
            _check_chips(s.user, values["stake"])
    changed = [name for name in TABLE_OPTIONS if values[name] != current[name]]
    for name in changed:
        setattr(table, name, values[name])
    table.save()
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
def table_close(*, table_id: int, moderator: User) -> Table:
    """A moderator closes a table. A game still running is cancelled and its stakes go back
    to the players. Locks the table (and the ledger its refund touches)."""
    if not (moderator.is_staff and moderator.has_perm("games.close_table")):
        raise TableError("not_master", _("Only moderators may close a table."))
    table = _locked_table(table_id)
    if table.status == Table.Status.CLOSED:
        return table
    game = table.game
    now = timezone.now()
    if game is not None and game.status == Game.Status.PLAYING:
        game.status = Game.Status.CANCELLED
        game.ended_at = game.finished_at = now
        game.save(update_fields=["status", "ended_at", "finished_at"])
        GameSeat.objects.filter(game=game).update(outcome=GameSeat.Outcome.VOID)
        if game.competitive and game.stake:
            chips_refund(game=game, key=f"table-close-refund:game-{game.pk}")
    table.status = Table.Status.CLOSED
    table.closed_at = now
    table.save(update_fields=["status", "closed_at"])
    _broadcast(table, {"kind": "closed", "by": moderator.username})
    return table


# --- Games --------------------------------------------------------------------------------


def _take_stakes(*, game: Game, seats: list[TableSeat]) -> None:
    """Each seated player's stake into the game's pot, through the ledger.

    The one place that calls the ledger's stake service."""
    for s in seats:
        try:
            chips_stake(
                user=s.user, game=game, amount=game.stake, key=f"stake:game-{game.pk}:seat-{s.seat}"
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
    rule_options = table.rule_options
    state = new_game({"variant": table.variant, **rule_options}, secrets.SystemRandom())
    addresses = [s.ip_address for s in seats if s.ip_address]
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
        GameSeat(game=game, seat=s.seat, user=s.user, ip_address=s.ip_address) for s in seats
    )
    if game.competitive and game.stake:
        _take_stakes(game=game, seats=seats)
    table.game = game
    table.status = Table.Status.PLAYING
    table.save(update_fields=["game", "status"])
    _broadcast(table, {"kind": "start", "by": user.username})
    return game


def _remember_on_commit(game: Game, state: Any) -> None:
    """Keep the new state for the next move in this process, once (and if) it is stored."""
    key, copy_of_state = state_key(game), state.clone()
    transaction.on_commit(lambda: remember_state(key=key, state=copy_of_state))


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
        raise TableError("malformed", translate_engine_error(str(exc)).message) from None
    if act.seat != seat:
        raise TableError("not_your_seat", _("That seat is not yours."))
    state = game_state(game=game)
    try:
        state.apply(act)
    except IllegalAction as exc:
        error = translate_engine_error(str(exc))
        raise TableError("illegal", error.message, rule=error.rule) from None
    record["deals"][-1]["actions"].append(act.to_dict())
    _remember_on_commit(game, state)
    event: dict[str, Any] = {"kind": "act", "action": act.to_dict(), "by": user.username}
    if state.over:
        _finish(table=table, game=game, state=state)
        event = {**event, "kind": "end"}
        game.save()
    else:
        game.save(update_fields=["record"])
    _broadcast(table, event, lobby=state.over, seats=seats, state=state)
    if state.over:
        # The one hand-off to rankings, after the push: a failure there never hides the end.
        transaction.on_commit(lambda: game_hand_off(game=game), robust=True)
    return game


def _finish(*, table: Table, game: Game, state: Any) -> None:
    """Mark a game over: result, end time, each seat's outcome; the table waits for the next."""
    outcome = state.outcome()
    winners = set(outcome.winner if isinstance(outcome.winner, list) else [outcome.winner])
    now = timezone.now()
    game.status = Game.Status.FINISHED
    game.result = {"winner": outcome.winner, "score": list(outcome.score)}
    game.finished_at = game.ended_at = now
    for gs in game.seats.all():
        won = state.side_of[gs.seat] in winners
        gs.outcome = GameSeat.Outcome.WON if won else GameSeat.Outcome.LOST
        gs.save(update_fields=["outcome"])
    table.status = Table.Status.OPEN
    table.save(update_fields=["status"])


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
    state.deal_next(secrets.SystemRandom())
    game.record["deals"].append(state.to_record()["deals"][-1])
    _remember_on_commit(game, state)
    game.save(update_fields=["record"])
    _broadcast(table, {"kind": "deal", "by": user.username}, lobby=False)
    return game


def game_result_arguments(*, game: Game) -> dict[str, Any]:
    """What rankings is told of a finished game, seats as plain dicts."""
    state = game_state(game=game)
    rules = state.rules
    winner = game.result["winner"] if game.result else None
    winners = set(winner if isinstance(winner, list) else [winner])
    deals_to_win = {"tute": rules.rounds, "habanero": rules.points_to_win}.get(game.variant, 1)
    return {
        "game_id": game.pk,
        "variant": game.variant,
        "players": rules.players,
        "pairs": rules.pairs,
        "deals_to_win": deals_to_win,
        "competitive": game.competitive,
        "stake": game.stake,
        "finished_at": game.finished_at,
        "seats": [
            {
                "seat": gs.seat,
                "user_id": gs.user_id,  # None for a robot
                "side": state.side_of[gs.seat],
                "won": state.side_of[gs.seat] in winners,
                "abandoned": gs.abandoned,
                "ip_address": gs.ip_address,
            }
            for gs in game.seats.order_by("seat")
        ],
    }


def game_hand_off(*, game: Game) -> None:
    """The finished game's one call to rankings (XP, chips from the pot, statistics).

    Queued with `transaction.on_commit` by the transaction that finished the game."""
    # Imported here: rankings.services.game_result_submit is being built in another branch.
    from rankings import services as rankings_services

    submit = getattr(rankings_services, "game_result_submit", None)
    seat_result = getattr(rankings_services, "SeatResult", None)
    if submit is None or seat_result is None:
        logger.error(
            "rankings.services.game_result_submit is missing: game %s not handed off", game.pk
        )
        return
    arguments = game_result_arguments(game=game)
    arguments["seats"] = [seat_result(**seat) for seat in arguments["seats"]]
    submit(**arguments)


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
        "count": action_count(game.record) if game is not None else 0,
        "message": chat_json(message),
    }
    groups = [push.seat_group(table.pk, n) for n in range(table.players)]
    if table.guests:
        groups.append(push.watch_group(table.pk))
    messages = [(group, {"type": "table.chat", "frame": frame}) for group in groups]
    transaction.on_commit(lambda: push.send(messages))
    return message
