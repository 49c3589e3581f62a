"""The frames a table's sockets get (docs/protocol.md), built from the room.

A seat's frame holds that seat's view alone; the spectators' holds the view of seat None,
with no hand at all. Two kinds:

- `state`, the whole table as one seat sees it: on connect and on `sync`;
- `update`, after each change: the event, the table's new version and only what changed:
  the parts of the seat's `game` that changed (after a move: its view, count and timer),
  the `table` (with `chances`) after a change of the table's summary. Chat lines have their
  own frame (games/table/chat.py).

A lost update is harmless: the next frame's version shows the gap and the client asks for
the whole state again (`sync`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from games import push
from games.engine.cards import SUITS
from games.engine.rulebook import cante_value
from games.models import ChatMessage, Game, Table, TableSeat, TableSocket, seats_share_address
from games.robot_names import robot_name
from games.table.clock import robot_holds, robot_playing
from games.table.explain import dimmed_reason, score_sheet, trick_explained
from games.table.options import table_options
from games.table.options_text import options_text
from games.table.permits import narrow, open_offer, person, rematch_waits, seat_may
from games.table.room import NOTHING, Part, Room
from rankings import selectors as rankings_selectors

CHAT_HISTORY = 50
# What a move changes of a seat's `game` (the score sheet too when it ended a deal): the rest
# (who plays each seat, the proposal to cancel, the cantes' values) stays as last said.
MOVE = ("count", "view", "deadline", "explain")
# The parts of a `game` that `game_live` works out.
LIVE = ("seats", "deadline", "cancel")


def seat_json(seat: TableSeat) -> dict[str, Any]:
    """A taken seat: a player's username, or a robot: its level's registry name (`robot`) and
    its seat's own name (`name`, games/robot_names.py)."""
    if seat.user_id is None:
        return {"seat": seat.seat, "user": None, "robot": seat.robot, "name": robot_name(seat.seat)}
    return {"seat": seat.seat, "user": seat.user.username, "robot": None}


def watcher_count(*, table_id: int, seated: set[int]) -> int:
    """How many logged-in people have the table open without a seat at it."""
    return (
        TableSocket.objects.filter(table_id=table_id)
        .exclude(user_id__in=seated)
        .values("user_id")
        .distinct()
        .count()
    )


def rematch_json(table: Table, seats: list[TableSeat]) -> dict[str, Any] | None:
    """The open offer as frames show it: who offered, who accepted, who must still answer
    (the players seated now, by username)."""
    offer = open_offer(table)
    if offer is None:
        return None
    players = [s for s in seats if s.user_id is not None]
    accepted = set(offer["accepted"])
    names = {s.user_id: s.user.username for s in players}
    return {
        "by": names.get(offer["by"]),
        "accepted": [names[s.user_id] for s in players if s.user_id in accepted],
        "waiting": [names[s.user_id] for s in players if s.user_id not in accepted],
    }


def table_summary(
    *, table: Table, seats: list[TableSeat], watchers: int | None = None
) -> dict[str, Any]:
    """A table as the lobby and the table socket show it (docs/protocol.md). `watchers`:
    how many watch it (counted here when not given)."""
    by_seat = {s.seat: s for s in seats}
    players = [s.user_id for s in seats if s.user_id is not None]
    if watchers is None:
        watchers = watcher_count(table_id=table.pk, seated=set(players))
    row: list[dict[str, Any] | None] = [
        seat_json(by_seat[n]) if n in by_seat else None for n in range(table.players)
    ]
    options = table_options(table)
    return {
        "id": table.pk,
        "url": table.get_absolute_url(),
        "status": table.status,
        "master": table.master.username,
        "options": options,
        # The sentence about them, in each language (games/table/options_text.py).
        # A table robots sit at plays practice (RULES.md §11): its sentence says why, which a
        # "Play now" table the robots filled needs said.
        "options_text": options_text(options, robots=any(s.robot for s in seats)),
        "seats": row,
        "free_seats": sum(1 for entry in row if entry is None),
        "game_id": table.game_id,
        "watchers": watchers,
        "rematch": rematch_json(table, seats),
        # Who offers a rematch accepts it: with every seat taken and no other player to ask
        # (robots alone), it starts at once, a new game.
        "rematch_at_once": not rematch_waits(table, seats, players[:1]),
        # Two registered players sit from one address: the game will count for no ranking.
        "same_address": table.competitive and seats_share_address(seats),
        # Why a moderator closed the table ("" otherwise).
        "close_reason": table.close_reason,
    }


def chat_json(message: ChatMessage) -> dict[str, Any]:
    return {
        "id": message.pk,
        "user": message.user.username,
        "text": message.text,
        "at": push.utc(message.created_at),
    }


def chat_history(*, table: Table) -> list[dict[str, Any]]:
    latest = table.chat_messages.select_related("user").order_by("-created_at", "-pk")
    return [chat_json(m) for m in reversed(latest[:CHAT_HISTORY])]


def _live_seats(room: Room, now: Any) -> list[dict[str, Any]]:
    return [
        {
            "seat": gs.seat,
            "user": gs.user.username if gs.user_id is not None else None,
            "robot": robot_playing(gs, move_time=room.table.move_time),
            "robot_holds": robot_holds(gs),
            "away": gs.away_since is not None and not gs.abandoned,
            "abandoned": gs.abandoned,
            "timeouts": gs.timeouts,
            # A robot's seat has its own name; a player keeps theirs (`user`).
            "name": gs.user.username if gs.user_id is not None else robot_name(gs.seat),
            # What a robot did in the player's name during their last absence.
            "while_away": gs.while_away,
            # How many of the seat's decisions a robot made this game (timeouts, away).
            "robot_decisions": gs.robot_decisions if gs.user_id is not None else 0,
        }
        for gs in room.game_seats
    ]


def _live_deadline(room: Room, now: Any) -> dict[str, Any] | None:
    game = room.game
    if game.status != Game.Status.PLAYING or game.deadline_at is None:
        return None
    return {
        "kind": game.deadline_kind,
        "seat": game.deadline_seat,
        "at": push.utc(game.deadline_at),
        "seconds": round(max(0.0, (game.deadline_at - now).total_seconds()), 1),
    }


def _live_cancel(room: Room, now: Any) -> dict[str, Any] | None:
    if room.game.status != Game.Status.PLAYING or (proposal := room.proposal) is None:
        return None
    names = {gs.user_id: gs.user.username for gs in room.game_seats if gs.user_id is not None}
    voters = [gs.user_id for gs in room.game_seats if gs.user_id and not gs.abandoned]
    return {
        "by": names.get(proposal.proposed_by_id),
        "expires_at": push.utc(proposal.expires_at),
        "seconds": round(max(0.0, (proposal.expires_at - now).total_seconds()), 1),
        "accepted": [names[u] for u in proposal.accepted if u in names],
        "waiting": [names[u] for u in voters if u not in proposal.accepted],
    }


_LIVE_PARTS = {"seats": _live_seats, "deadline": _live_deadline, "cancel": _live_cancel}


def game_live(room: Room, keys: Iterable[str] = LIVE) -> dict[str, Any]:
    """The parts of a frame's `game` every seat sees alike (who plays each seat, the timer,
    the proposal to cancel), those of `keys` alone: a move's frames ask for the deadline."""
    now = timezone.now()
    return {key: _LIVE_PARTS[key](room, now) for key in LIVE if key in keys}


def sing_values(room: Room) -> dict[str, int] | None:
    """What a cante in each suit is worth this deal (RULES.md §7), or None where nothing is
    sung (pocha, or before the deal)."""
    state = room.state
    if not state.rules.cantes or state.deal_index < 0:
        return None
    return {suit: cante_value(n, state.trump) for n, suit in enumerate(SUITS)}


def game_json(
    room: Room,
    *,
    seat: int | None,
    watch: bool,
    live: dict[str, Any],
    sings: Any,
    sheet: list | None = None,
) -> dict[str, Any]:
    """The `game` part of a frame for one seat (None: spectator; `watch` False: may not
    watch, so no view at all). `live` is `game_live()`'s, `sings` `sing_values()`'s, `sheet`
    `score_sheet()`'s."""
    game, state = room.game, room.state
    over = game.status != Game.Status.PLAYING
    return {
        **live,
        "id": game.pk,
        "status": game.status,
        "count": game.action_count,
        "deals": game.deal_count,
        "view": state.view(seat).to_dict() if watch else None,
        "explain": game_explain(state, seat) if watch else None,
        "sheet": sheet if watch else None,
        "sing_values": sings,
        # Hands are shown once the game is over, never before.
        "deal_summaries": state.deal_summaries() if over and watch else None,
        "result": {"over": True, **game.result} if over and game.result else None,
    }


def game_explain(state: Any, seat: int | None) -> dict[str, Any] | None:
    """What the page explains of the trick, and why this seat's dimmed cards are dimmed."""
    trick = trick_explained(state)
    if trick is None:
        return None
    return {**trick, "dimmed": dimmed_reason(state, seat)}


def table_chances(room: Room) -> list | None:
    """Each side's chance to win the game about to start at a full competitive table, from
    the ratings: [{"seats": [0, 2], "percent": 62}, …]; None at any other moment: while a
    game runs, once it is over for the same players (its summary is up), and where two
    players share an address (the game will count for no rating)."""
    table, seats = room.table, room.seats
    if not table.competitive or room.playing or seats_share_address(seats):
        return None
    users = {seat.seat: seat.user_id for seat in seats}
    if len(users) < table.players or None in users.values():
        return None
    if room.game is not None and {s.user_id for s in room.game_seats} == set(users.values()):
        return None
    pairs = table.rules.pairs
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


def _watchers(room: Room, only: list[int | None] | None) -> list[int | None]:
    return [*range(room.table.players), None] if only is None else only


def _games(
    room: Room, seats: list[int | None], keys: tuple[str, ...] | None = None
) -> dict[int | None, dict[str, Any] | None]:
    """Each seat's `game` (only its `id` and `keys`, when given), built from one reading of
    what every seat sees alike; what no key asks for is not worked out."""
    if room.load(Part.STATE).game is None:
        return dict.fromkeys(seats)
    live = game_live(room, LIVE if keys is None else keys)
    sings = sing_values(room) if keys is None or "sing_values" in keys else None
    sheet = score_sheet(room.state) if keys is None or "sheet" in keys else None
    # A spectator sees the game and the chat only while the table admits guests.
    games = {
        seat: game_json(
            room,
            seat=seat,
            watch=seat is not None or room.table.guests,
            live=live,
            sings=sings,
            sheet=sheet,
        )
        for seat in seats
    }
    if keys is None:
        return games
    return {seat: {key: games[seat][key] for key in ("id", *keys)} for seat in seats}


def state_frames(room: Room, *, only: list[int | None] | None = None) -> dict[int | None, dict]:
    """One `state` frame per seat (keyed by seat number) and one for spectators (key
    None), each holding only what that seat may see; `only` picks some of them. `event` is
    None and `you` is left for the socket to add."""
    table = room.load(Part.SEATS | Part.GAME).table
    seats = _watchers(room, only)
    summary = table_summary(table=table, seats=room.seats)
    chat = chat_history(table=table)
    chances = table_chances(room)
    games = _games(room, seats)
    allowed = seat_may(room, seats, table=True)
    return {
        seat: {
            "type": "state",
            "table_id": table.pk,
            "version": table.version,
            "count": room.game.action_count if room.game is not None else 0,
            "event": None,
            "table": summary,
            "game": games[seat],
            "chat": chat if seat is not None or table.guests else [],
            "chances": chances,
            "may": allowed[seat],
        }
        for seat in seats
    }


def update_frames(
    room: Room, event: dict[str, Any], *, table: bool, game: bool | tuple[str, ...]
) -> dict[int | None, dict[str, Any]]:
    """One `update` frame per seat and one for spectators: the event, and this seat's
    `game` (if `game` is true; only those of its keys if it names some) and the table's
    summary (if `table` changed)."""
    seats = _watchers(room.load(Part.GAME | (Part.SEATS if table else NOTHING)), None)
    base: dict[str, Any] = {
        "type": "update",
        "table_id": room.table.pk,
        "version": room.table.version,
        "count": room.game.action_count if room.game is not None else 0,
        "event": event,
    }
    if table:
        base["table"] = table_summary(table=room.table, seats=room.seats)
        base["chances"] = table_chances(room)
    frames = {seat: dict(base) for seat in seats}
    if game and room.game is not None:
        games = _games(room, seats, None if game is True else game)
        for seat, frame in frames.items():
            frame["game"] = games[seat]
    # What each seat may ask: all of it with the table's summary; otherwise, while a game
    # runs, what a change of the game may change (nothing else moved).
    if table or room.playing:
        for seat, allowed in seat_may(room, seats, table=table).items():
            frames[seat]["may"] = allowed
    return frames


def broadcast(
    room: Room,
    event: dict[str, Any],
    *,
    table: bool = False,
    game: bool | tuple[str, ...] = True,
    skip_seat: int | None = None,
) -> None:
    """After commit, push each seat its own update and the spectators theirs, and the lobby
    the table's new row when the table's summary changed (`table`). The frames are built now,
    so they describe this transaction. Each push is a new version of the table (the table is
    locked, so no two share one). `game` is true when the game changed, or names the keys
    of its frame that did (e.g. `MOVE`). `skip_seat`'s group gets nothing: a player coming back
    reads the whole state as their socket connects."""
    if not room.bumped:
        Table.objects.filter(pk=room.table.pk).update(version=F("version") + 1)
        room.table.version += 1
        room.bumped = True
    frames = update_frames(room, event, table=table, game=game)
    if skip_seat is not None:
        frames.pop(skip_seat, None)
    messages = push.table_messages(room.table.pk, frames)
    if table:
        messages.append(push.lobby_message(frames[None]["table"]))
    transaction.on_commit(lambda: push.send(messages), robust=True)


def socket_state(
    *, table_id: int, user: User | None
) -> tuple[dict[str, Any], dict[str, Any] | None] | None:
    """The whole current state as `user` may see it, and what a spectator's socket knows
    of its user to narrow the spectators' `may` (None for a seated player, whose frames are
    built for them): permits.person. None: no such table."""
    table = Table.objects.select_related("master").filter(pk=table_id).first()
    if table is None:
        return None
    room = Room(table=table).load(Part.SEATS)
    seat = room.seat_of(user)
    frame = state_frames(room, only=[seat])[seat]
    if seat is not None:
        return frame, None
    facts = person(table, user)
    frame["may"] = narrow(frame["may"], facts)
    return frame, facts
