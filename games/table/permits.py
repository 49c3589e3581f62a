"""Who may do what at a table now: one check per table request, the services' and the page's.

Each request a player makes at a table (games/table/requests.py) has one check here. A
check looks at the room, under the service's lock, and at who asks, and raises the
`TableError` that refuses the request, or returns. The services refuse with these checks
(`require`) and nothing else decides; each seat's frame carries their answers for that
seat's player (`may`, docs/protocol.md), so the page shows the buttons the server would
accept and decides nothing itself. A move (`act`) is the engine's to check: the seat's view
lists its legal actions.

Two kinds of facts decide:

- the moment: the table's status, its seats, the game and its deal, the open proposal to
  cancel, the open rematch offer (the room);
- the person: logged in, a guest, muted, invited to a private table, chips for the stake.

A seat's frame is built for the player in the seat, so it answers for both. The spectators
share one frame, built for `SOMEONE`, a logged-in player with no seat and nothing against
them: their socket narrows it with what it knows of its own user (`narrow`), which the
table socket reads as it joins (`person`).

A request's own values (which seat, which options, whose name, what text) are the
services' to check once the request is allowed at all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.selectors import are_friends, can_chat
from games.models import Game, Invitation, Table
from games.table.guests import GUEST_REQUESTS, is_guest, refuse_guest
from games.table.refusals import TableError, require_user
from games.table.room import Room
from rankings.selectors import chips_balance

PLAYING = Table.Status.PLAYING


class _Someone:
    """A logged-in player with no seat at the table, not its master, not muted, and whose
    invitations and chips are their own socket's to check (`narrow`)."""

    pk = None
    username = None
    is_authenticated = True
    is_active = True
    is_guest = False
    is_muted = False


SOMEONE: Any = _Someone()


# --- The checks, one per request -----------------------------------------------------------


def _start(room: Room, user: User) -> None:
    room.require_master(user)
    if room.table.status == PLAYING:
        raise TableError("invalid", _("A game is already running at this table."))
    if room.table.game_id is not None:
        # One way to play again: the rematch, which asks every player.
        raise TableError("invalid", _("After a game, the next one starts with a rematch."))
    if len(room.seats) < room.table.players:
        raise TableError("invalid", _("Every seat must be taken before the game starts."))


def _sit(room: Room, user: User) -> None:
    table = room.table
    if table.status == PLAYING:
        raise TableError("invalid", _("A game is running at this table."))
    if room.seat_of(user) is not None:
        raise TableError("invalid", _("You are already seated at this table."))
    if len(room.seats) >= table.players:
        raise TableError("invalid", _("Every seat is taken."))
    if user is not SOMEONE:
        sit_person(table, user)


def sit_person(table: Table, user: User) -> None:
    """What the person must have to sit at `table`, whatever the moment: an invitation or
    the master's friendship at a private table, the stake in chips at a staked one."""
    refuse_guest(user)
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


def _stand(room: Room, user: User) -> None:
    room.require_seated(user)
    if room.table.status == PLAYING:
        raise TableError("invalid", _("You cannot leave your seat while a game runs."))


def _options(room: Room, user: User) -> None:
    room.require_master(user)
    if room.table.status == PLAYING:
        raise TableError("invalid", _("Options change only before a game or between games."))


def _invite(room: Room, user: User) -> None:
    room.require_master(user)
    # A master who left the table's seats (their game runs on with a robot) invites no one.
    room.require_seated(user)


def _next_deal(room: Room, user: User) -> None:
    room.player_seat(user)
    if not room.state.needs_deal:
        raise TableError("no_game", _("The deal is not over yet."))


def _hint(room: Room, user: User) -> None:
    game = room.game
    if game is None or game.status != Game.Status.PLAYING:
        raise TableError("no_game", _("No game is running at this table."))
    mine = next(
        (gs for gs in room.game_seats if gs.user_id is not None and gs.user_id == user.pk), None
    )
    if mine is None:
        raise TableError("not_seated", _("You are not seated at this table."))
    people = [gs for gs in room.game_seats if gs.user_id is not None and gs.user_id != user.pk]
    if people or room.table.competitive:
        raise TableError("invalid", _("Hints are given at practice tables only, against robots."))
    if not room.state.legal_actions_for(mine.seat):
        raise TableError("invalid", _("There is nothing for you to do just now."))


def _between_games(room: Room, user: User) -> None:
    room.require_seated(user)
    table = room.table
    if table.status != Table.Status.OPEN or table.game_id is None:
        raise TableError("invalid", _("A rematch is offered once a game is over."))


def _rematch(room: Room, user: User) -> None:
    _between_games(room, user)
    if open_offer(room.table) is not None:
        raise TableError("invalid", _("A rematch is already on offer: answer it."))


def _rematch_answer(room: Room, user: User) -> None:
    _between_games(room, user)
    offer = open_offer(room.table)
    if offer is None:
        raise TableError("invalid", _("No rematch is on offer at this table."))
    if user.pk in offer["accepted"]:
        raise TableError("invalid", _("You have already accepted this rematch."))


def open_offer(table: Table) -> dict[str, Any] | None:
    """The table's open rematch offer, if it follows the table's last game."""
    offer = table.rematch or None
    if offer is None or offer.get("game") != table.game_id or table.status != Table.Status.OPEN:
        return None
    return offer


def _cancel(room: Room, user: User) -> None:
    room.player_seat(user)
    pending = room.proposal
    if pending is not None and pending.expires_at > timezone.now():
        raise TableError("invalid", _("A proposal to cancel is already waiting for answers."))


def _cancel_answer(room: Room, user: User) -> None:
    room.player_seat(user)
    proposal = room.proposal
    if proposal is None or proposal.expires_at <= timezone.now():
        raise TableError("invalid", _("Nobody is proposing to cancel this game."))
    if user.pk in proposal.accepted:
        raise TableError("invalid", _("You have already accepted to cancel this game."))


def _robots(room: Room, user: User) -> None:
    room.require_seated(user)
    if not room.table.matchmaking:
        room.require_master(user)
    if room.table.status != Table.Status.OPEN:
        raise TableError("invalid", _("A game is running at this table."))
    if len(room.seats) >= room.table.players:
        raise TableError("invalid", _("Every seat is taken."))


def _leave(room: Room, user: User) -> None:
    room.require_seated(user)
    room.require_game()


def _resume(room: Room, user: User) -> None:
    if not room.player_seat(user).timeouts:
        raise TableError("invalid", _("No robot is playing your seat."))


def _chat(room: Room, user: User) -> None:
    if room.seat_of(user) is None and not room.table.guests:
        raise TableError("not_seated", _("Only the players may chat at this table."))
    if not can_chat(user):
        raise TableError("muted", _("You are muted and cannot chat for now."))


CHECKS: dict[str, Callable[[Room, User], None]] = {
    "start": _start,
    "sit": _sit,
    "stand": _stand,
    "options": _options,
    "invite": _invite,
    "next_deal": _next_deal,
    "hint": _hint,
    "rematch": _rematch,
    "rematch_answer": _rematch_answer,
    "cancel": _cancel,
    "cancel_answer": _cancel_answer,
    "robots": _robots,
    "leave": _leave,
    "resume": _resume,
    "chat": _chat,
}
# Every request but a move, which the engine checks (the view's legal actions).
KINDS = tuple(CHECKS)
# The requests a move may allow or refuse: they read the game and its seats alone (a player
# of the running game is seated at its table). The others change only with a change that
# is pushed with the table's summary (a seat taken or left, a game begun or over...).
GAME_KINDS = ("next_deal", "hint", "cancel", "cancel_answer", "resume")


# --- Asking --------------------------------------------------------------------------------


def require(kind: str, room: Room, user: Any) -> User:
    """Refuse `user`'s request of `kind` at `room` unless it may be made now; returns the
    user, logged in. Nothing may be asked at a closed table."""
    user = require_user(user)
    room.require_open()
    if kind not in GUEST_REQUESTS and is_guest(user):
        refuse_guest(user)
    CHECKS[kind](room, user)
    return user


def allowed(kind: str, room: Room, user: Any) -> bool:
    try:
        require(kind, room, user)
    except TableError:
        return False
    return True


def may(room: Room, user: Any, kinds: tuple[str, ...] = KINDS) -> dict[str, bool]:
    """What `user` may ask at `room` now, request by request (those of `kinds`): a frame's
    `may`. None (a robot's seat) may ask nothing."""
    if user is None:
        return dict.fromkeys(kinds, False)
    return {kind: allowed(kind, room, user) for kind in kinds}


def seat_may(room: Room, seats: list[int | None], *, table: bool) -> dict[int | None, dict]:
    """Each seat's `may` in a frame, for the player in the seat; the
    spectators' for `SOMEONE`. With the table's summary (`table`) every request is answered;
    after a move only those a move changes, from the game's seats alone."""
    if table:
        users = {s.seat: s.user for s in room.seats if s.user_id is not None}
        return {seat: may(room, SOMEONE if seat is None else users.get(seat)) for seat in seats}
    users = {gs.seat: gs.user for gs in room.game_seats if gs.user_id is not None}
    # A spectator plays no part in the game.
    return {
        seat: may(room, None if seat is None else users.get(seat), GAME_KINDS) for seat in seats
    }


def may_for(room: Room, user: Any) -> dict[str, bool]:
    """What `user` may ask at `room` now, whether seated or not (the table page's first
    drawing; a socket narrows the spectators' frames itself)."""
    if room.seat_of(user) is not None:
        return may(room, user)
    return narrow(may(room, SOMEONE), person(room.table, user))


# --- A spectator's socket ------------------------------------------------------------------


def person(table: Table, user: Any) -> dict[str, Any]:
    """What a spectator's socket knows of its user, read as it joins (and again with each
    whole state): whether they are anonymous or a guest, whether they may sit at `table`
    as a person (invited or a friend at a private table, the stake in chips), whether they
    are banned, and until when they are muted (None: not muted)."""
    if user is None or not user.is_authenticated:
        return {"anonymous": True}
    # As the user is now: a moderator may have muted them since their socket opened.
    user = User.objects.filter(pk=user.pk).first()
    if user is None:
        return {"anonymous": True}
    try:
        sit_person(table, user)
        sits = True
    except TableError:
        sits = False
    return {
        "anonymous": False,
        "guest": is_guest(user),
        "sit": sits,
        "banned": not user.is_active,
        "muted_until": user.muted_until,
    }


def narrow(frame_may: dict[str, bool], facts: dict[str, Any]) -> dict[str, bool]:
    """The spectators' `may` (built for `SOMEONE`) as this socket's user has it."""
    if facts.get("anonymous", True):
        return dict.fromkeys(frame_may, False)
    if facts["guest"]:
        return {kind: ok and kind in GUEST_REQUESTS for kind, ok in frame_may.items()}
    until = facts["muted_until"]
    muted = facts["banned"] or (until is not None and until > timezone.now())
    return {
        **frame_may,
        "sit": frame_may["sit"] and facts["sit"],
        "chat": frame_may["chat"] and not muted,
    }
