"""Reads about tables and games. The engine state is rebuilt from the stored record, never stored.

The payloads here are the JSON of docs/protocol.md. A seat's payload holds that seat's view
alone; the spectators' holds the view of seat None, with no hand at all.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import User
from games.engine import GameState, from_record
from games.engine.cards import SUITS
from games.engine.rulebook import cante_value
from games.models import CancelProposal, ChatMessage, Game, GameSeat, Table, TableSeat
from rankings import selectors as rankings_selectors

CHAT_HISTORY = 50
# The robot that plays a player's seat when their time runs out or they are away (§11).
TAKEOVER_ROBOT = "heuristic"
# Timeouts in a row after which the robot keeps the seat until the player acts again.
TIMEOUTS_TO_ROBOT = 3
TABLE_OPTIONS = (
    "variant",
    "players",
    "pairs",
    "rounds",
    "points_to_win",
    "move_time",
    "competitive",
    "stake",
    "private",
    "guests",
    "allow_tute",
    "stock_play",
    "robot_level",
)


# Rebuilt states by (game, deals, actions): a record only ever grows, so that key names one
# record exactly. A miss (another process served the last move, a restart) rebuilds it.
_STATES: OrderedDict[tuple[int, int, int], GameState] = OrderedDict()
_STATES_KEPT = 1024
_STATES_LOCK = threading.Lock()  # daphne runs sync code in more than one thread


def state_key(game: Game) -> tuple[Any, ...]:
    # The creation time too: a game id alone may come again (a database emptied and filled
    # anew, as between tests), and a state of another game must never be taken for it.
    return (
        game.pk,
        game.created_at,
        len(game.record.get("deals", [])),
        action_count(game.record),
    )


def game_state(*, game: Game) -> GameState:
    """The engine state of a stored game, rebuilt from its record (or a copy of the one this
    process last rebuilt or reached for the very same record)."""
    key = state_key(game)
    with _STATES_LOCK:
        cached = _STATES.get(key) if game.pk is not None else None
        if cached is not None:
            _STATES.move_to_end(key)
            return cached.clone()
    state = from_record(game.record)
    if game.pk is not None:
        remember_state(key=key, state=state)
    return state


def remember_state(*, key: tuple[Any, ...], state: GameState) -> None:
    """Keep a copy of `state`, the state of the record `key` names. Call it only for a
    committed record (services do it in `transaction.on_commit`)."""
    copy = state.clone()
    with _STATES_LOCK:
        _STATES[key] = copy
        _STATES.move_to_end(key)
        while len(_STATES) > _STATES_KEPT:
            _STATES.popitem(last=False)


def game_outcome(*, game: Game) -> dict:
    """The result the record gives: {"over", "winner", "score"}, as the replay command says it."""
    outcome = game_state(game=game).outcome()
    return {"over": outcome.over, "winner": outcome.winner, "score": list(outcome.score)}


def action_count(record: dict) -> int:
    """The number of actions in a record, across all its deals."""
    return sum(len(deal.get("actions", [])) for deal in record.get("deals", []))


def table_options(table: Table) -> dict[str, Any]:
    """Every §10 option of a table, by name."""
    return {name: getattr(table, name) for name in TABLE_OPTIONS}


def table_seats(*, table: Table) -> list[TableSeat]:
    return list(table.seats.select_related("user").order_by("seat"))


def table_summary(*, table: Table, seats: list[TableSeat] | None = None) -> dict[str, Any]:
    """A table as the lobby and the table socket show it (docs/protocol.md)."""
    if seats is None:
        seats = table_seats(table=table)
    by_seat = {s.seat: s for s in seats}
    row: list[dict[str, Any] | None] = [
        seat_json(by_seat[n]) if n in by_seat else None for n in range(table.players)
    ]
    return {
        "id": table.pk,
        "url": table.get_absolute_url(),
        "status": table.status,
        "master": table.master.username,
        "options": table_options(table),
        "seats": row,
        "free_seats": sum(1 for entry in row if entry is None),
        "game_id": table.game_id,
        # Why a moderator closed the table ("" otherwise).
        "close_reason": table.close_reason,
    }


def seat_json(seat: TableSeat) -> dict[str, Any]:
    """A taken seat: a player's username, or a robot's name (practice tables)."""
    if seat.user_id is None:
        return {"seat": seat.seat, "user": None, "robot": seat.robot}
    return {"seat": seat.seat, "user": seat.user.username, "robot": None}


def robot_playing(game_seat: GameSeat, *, move_time: int) -> str | None:
    """The robot that plays a game's seat now, or None when its player does: a robot's own
    seat, and a player's seat while they are away, after they abandoned, after three
    timeouts in a row, and always in automatic mode (`move_time` 0)."""
    if game_seat.robot:
        return game_seat.robot
    if (
        game_seat.abandoned
        or game_seat.away_since is not None
        or game_seat.timeouts >= TIMEOUTS_TO_ROBOT
        or move_time == 0
    ):
        return TAKEOVER_ROBOT
    return None


def _utc(moment: Any) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def game_live(*, game: Game, move_time: int, seats: list[GameSeat] | None = None) -> dict[str, Any]:
    """Who plays each seat, the running timer and the open cancel proposal of a game: the
    parts of a `state` frame every seat sees alike (docs/protocol.md). `seats`, when given,
    are the game's seats with their users, in seat order."""
    now = timezone.now()
    if seats is None:
        seats = list(game.seats.select_related("user").order_by("seat"))
    names = {gs.user_id: gs.user.username for gs in seats if gs.user_id is not None}
    deadline = None
    if game.status == Game.Status.PLAYING and game.deadline_at is not None:
        deadline = {
            "kind": game.deadline_kind,
            "seat": game.deadline_seat,
            "at": _utc(game.deadline_at),
            "seconds": round(max(0.0, (game.deadline_at - now).total_seconds()), 1),
        }
    cancel = None
    proposal = (
        CancelProposal.objects.filter(game=game, status=CancelProposal.Status.OPEN).first()
        if game.status == Game.Status.PLAYING
        else None
    )
    if proposal is not None:
        voters = [gs.user_id for gs in seats if gs.user_id is not None and not gs.abandoned]
        cancel = {
            "by": names.get(proposal.proposed_by_id),
            "expires_at": _utc(proposal.expires_at),
            "seconds": round(max(0.0, (proposal.expires_at - now).total_seconds()), 1),
            "accepted": [names[u] for u in proposal.accepted if u in names],
            "waiting": [names[u] for u in voters if u not in proposal.accepted],
        }
    return {
        "seats": [
            {
                "seat": gs.seat,
                "user": names.get(gs.user_id),
                "robot": robot_playing(gs, move_time=move_time),
                "away": gs.away_since is not None and not gs.abandoned,
                "abandoned": gs.abandoned,
                "timeouts": gs.timeouts,
                # The robot keeps the seat until its player acts again (§11).
                "robot_holds": gs.user_id is not None
                and not gs.abandoned
                and gs.timeouts >= TIMEOUTS_TO_ROBOT,
            }
            for gs in seats
        ],
        "deadline": deadline,
        "cancel": cancel,
    }


def seat_of(*, seats: list[TableSeat], user: User | None) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    for s in seats:
        if s.user_id == user.pk:
            return s.seat
    return None


def chat_json(message: ChatMessage) -> dict[str, Any]:
    return {
        "id": message.pk,
        "user": message.user.username,
        "text": message.text,
        "at": message.created_at.isoformat().replace("+00:00", "Z"),
    }


def chat_history(*, table: Table) -> list[dict[str, Any]]:
    latest = table.chat_messages.select_related("user").order_by("-created_at", "-pk")
    return [chat_json(m) for m in reversed(latest[:CHAT_HISTORY])]


def game_json(
    *, game: Game, state: GameState, seat: int | None, watch: bool, live: dict[str, Any]
) -> dict[str, Any]:
    """The `game` part of a state frame for one seat (None: spectator; watch False: may not
    watch, so no view at all). `live` is `game_live()`'s."""
    over = game.status != Game.Status.PLAYING
    view = state.view(seat).to_dict() if watch else None
    trump = view["trump_suit"] if view else None
    return {
        **live,
        "id": game.pk,
        "status": game.status,
        "count": action_count(game.record),
        "deals": len(game.record.get("deals", [])),
        "view": view,
        # What a cante in each suit is worth (§7), None before there is a trump.
        "sing_values": None
        if trump is None
        else {suit: cante_value(i, SUITS.index(trump)) for i, suit in enumerate(SUITS)},
        # Hands are shown once the game is over, never before.
        "deal_summaries": state.deal_summaries() if over and watch else None,
        "result": {"over": True, **game.result} if over and game.result else None,
    }


def table_chances(*, table: Table, seats: list[TableSeat], game: Game | None) -> list | None:
    """Each side's chance to win the game about to start at a full competitive table, from
    the ratings: [{"seats": [0, 2], "percent": 62}, …]; None at any other moment."""
    if not table.competitive or (game is not None and game.status == Game.Status.PLAYING):
        return None
    users = {seat.seat: seat.user_id for seat in seats}
    if len(users) < table.players or None in users.values():
        return None
    pairs = table.variant == "tute" and table.players == 4 and table.pairs
    sides = [[0, 2], [1, 3]] if pairs else [[seat] for seat in range(table.players)]
    chances = rankings_selectors.win_chances_for(
        variant=table.variant,
        players=table.players,
        pairs=pairs,
        sides=[[users[seat] for seat in side] for side in sides],
    )
    return [
        {"seats": side, "percent": round(100 * chance)}
        for side, chance in zip(sides, chances, strict=True)
    ]


def state_frames(
    *,
    table: Table,
    seats: list[TableSeat],
    game: Game | None,
    state: GameState | None,
    only: list[int | None] | None = None,
    game_seats: list[GameSeat] | None = None,
) -> dict[int | None, dict[str, Any]]:
    """One `state` frame per seat (keyed by seat number) and one for spectators (key None),
    each holding only what that seat may see; `only` picks some of them. `event` is None and
    `you` is left for the socket to add. `game_seats`: as `game_live()` takes them."""
    summary = table_summary(table=table, seats=seats)
    chat = chat_history(table=table)
    count = action_count(game.record) if game is not None else 0
    live = (
        game_live(game=game, move_time=table.move_time, seats=game_seats)
        if game is not None
        else {}
    )
    chances = table_chances(table=table, seats=seats, game=game)
    frames: dict[int | None, dict[str, Any]] = {}
    for seat in [*range(table.players), None] if only is None else only:
        # A spectator sees the game and the chat only while the table admits guests.
        watch = seat is not None or table.guests
        frames[seat] = {
            "type": "state",
            "table_id": table.pk,
            "version": table.version,
            "count": count,
            "event": None,
            "table": summary,
            "game": None
            if game is None or state is None
            else game_json(game=game, state=state, seat=seat, watch=watch, live=live),
            "chat": chat if watch else [],
            "chances": chances,
        }
    return frames


def table_state_for(*, table_id: int, user: User | None) -> dict[str, Any] | None:
    """The whole current state as `user` may see it (None: no such table)."""
    table = Table.objects.select_related("master", "game").filter(pk=table_id).first()
    if table is None:
        return None
    seats = table_seats(table=table)
    seat = seat_of(seats=seats, user=user)
    game = table.game
    state = game_state(game=game) if game is not None else None
    return state_frames(table=table, seats=seats, game=game, state=state, only=[seat])[seat]


def lobby_tables(
    *, variant: str | None = None, free_seats: bool = False, max_stake: int | None = None
) -> list[dict[str, Any]]:
    """Every table that is not closed, newest first, as the lobby shows them; optionally only
    one variant, only tables with a free seat, only stakes up to `max_stake`."""
    tables = Table.objects.exclude(status=Table.Status.CLOSED).select_related("master")
    if variant:
        tables = tables.filter(variant=variant)
    if max_stake is not None:
        tables = tables.filter(stake__lte=max_stake)
    seats: dict[int, list[TableSeat]] = {}
    for s in TableSeat.objects.filter(table__in=tables).select_related("user"):
        seats.setdefault(s.table_id, []).append(s)
    rows = [table_summary(table=t, seats=seats.get(t.pk, [])) for t in tables]
    return [row for row in rows if row["free_seats"]] if free_seats else rows


# --- A player's games, for their profile ------------------------------------------------


def players_with_profile() -> QuerySet[User]:
    """Everyone who has a public profile: the players. Staff accounts (moderators, the
    superuser) are not players: they have one only once they have sat at a game."""
    return User.objects.filter(Q(is_staff=False) | Q(pk__in=GameSeat.objects.values("user_id")))


def player_recent_games(*, user: User, limit: int = 20) -> QuerySet[GameSeat]:
    return (
        GameSeat.objects.filter(user=user)
        .select_related("game")
        .order_by("-game__created_at", "-game__pk")[:limit]
    )
