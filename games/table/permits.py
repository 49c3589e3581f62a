"""Who may do what at a table now: one check per table request, the services' and the page's.

Each request a player makes at a table (games/table/requests.py) has one check here. A
check looks at the room, under the service's lock, and at who asks, and answers with the
refusal (a value, `Refused`) or None. The services refuse with these checks through
`require`, the one place a check raises, and nothing else decides; each seat's frame
carries their answers for that seat's player (`may`, docs/protocol.md), so the page shows
the buttons the server would accept and decides nothing itself. A move (`act`) is the
engine's to check: the seat's view lists its legal actions.

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

from collections.abc import Callable, Collection
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.selectors import are_friends, can_chat
from games.models import Game, Invitation, Table, TableSeat
from games.table.guests import GUEST_REFUSAL, GUEST_REQUESTS, is_guest
from games.table.refusals import Refused, require_user
from games.table.room import NO_GAME, NOT_SEATED, Part, Room
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
# Each answers with the refusal (a value) or None: a frame's `may` asks every check for every
# seat after each change, and only the door (`require`) raises.

Answer = Refused | None


def _start(room: Room, user: User) -> Answer:
    if refused := room.refuse_master(user):
        return refused
    if room.table.status == PLAYING:
        return Refused("invalid", _("A game is already running at this table."))
    if room.table.game_id is not None:
        # One way to play again: the rematch, which asks every player.
        return Refused("invalid", _("After a game, the next one starts with a rematch."))
    if len(room.seats) < room.table.players:
        return Refused("invalid", _("Every seat must be taken before the game starts."))
    return None


def _sit(room: Room, user: User) -> Answer:
    table = room.table
    if table.status == PLAYING:
        return Refused("invalid", _("A game is running at this table."))
    if room.seat_of(user) is not None:
        return Refused("invalid", _("You are already seated at this table."))
    if len(room.seats) >= table.players:
        return TAKEN
    if user is not SOMEONE:
        return refuse_person(table, user)
    return None


def refuse_person(table: Table, user: User) -> Answer:
    """What the person must have to sit at `table`, whatever the moment: an invitation or
    the master's friendship at a private table, the stake in chips at a staked one."""
    if is_guest(user):
        return Refused("invalid", GUEST_REFUSAL)
    if (
        table.private
        and user.pk != table.master_id
        and not Invitation.objects.filter(table=table, user=user).exists()
        and not are_friends(table.master, user)
    ):
        return Refused(
            "invalid",
            _("This table is private: you need an invitation or the master's friendship."),
        )
    if table.competitive and table.stake and chips_balance(user=user) < table.stake:
        return Refused(
            "invalid",
            _("You need %(stake)s chips to sit at this table.") % {"stake": table.stake},
        )
    return None


def _stand(room: Room, user: User) -> Answer:
    if refused := room.refuse_seated(user):
        return refused
    if room.table.status == PLAYING:
        return Refused("invalid", _("You cannot leave your seat while a game runs."))
    return None


def _options(room: Room, user: User) -> Answer:
    if refused := room.refuse_master(user):
        return refused
    if room.table.status == PLAYING:
        return Refused("invalid", _("Options change only before a game or between games."))
    return None


def _invite(room: Room, user: User) -> Answer:
    # A master who left the table's seats (their game runs on with a robot) invites no one.
    return room.refuse_master(user) or room.refuse_seated(user)


def _next_deal(room: Room, user: User) -> Answer:
    if refused := room.refuse_player(user):
        return refused
    if not room.state.needs_deal:
        return Refused("no_game", _("The deal is not over yet."))
    return None


def _hint(room: Room, user: User) -> Answer:
    game = room.game
    if game is None or game.status != Game.Status.PLAYING:
        return NO_GAME
    mine = next(
        (gs for gs in room.game_seats if gs.user_id is not None and gs.user_id == user.pk), None
    )
    if mine is None:
        return NOT_SEATED
    people = [gs for gs in room.game_seats if gs.user_id is not None and gs.user_id != user.pk]
    if people or room.table.competitive:
        return Refused("invalid", _("Hints are given at practice tables only, against robots."))
    if not room.state.legal_actions_for(mine.seat):
        return Refused("invalid", _("There is nothing for you to do just now."))
    return None


def _between_games(room: Room, user: User) -> Answer:
    if refused := room.refuse_seated(user):
        return refused
    table = room.table
    if table.status != Table.Status.OPEN or table.game_id is None:
        return Refused("invalid", _("A rematch is offered once a game is over."))
    return None


def _rematch(room: Room, user: User) -> Answer:
    if refused := _between_games(room, user):
        return refused
    if open_offer(room.table) is not None:
        return Refused("invalid", _("A rematch is already on offer: answer it."))
    return None


def _rematch_answer(room: Room, user: User) -> Answer:
    if refused := _between_games(room, user):
        return refused
    offer = open_offer(room.table)
    if offer is None:
        return Refused("invalid", _("No rematch is on offer at this table."))
    if user.pk in offer["accepted"]:
        return Refused("invalid", _("You have already accepted this rematch."))
    return None


def open_offer(table: Table) -> dict[str, Any] | None:
    """The table's open rematch offer, if it follows the table's last game."""
    offer = table.rematch or None
    if offer is None or offer.get("game") != table.game_id or table.status != Table.Status.OPEN:
        return None
    return offer


def rematch_waits(table: Table, seats: list[TableSeat], accepted: Collection[int]) -> bool:
    """Whether a rematch accepted by `accepted` (user ids) still waits: for a seat to be
    taken, or for a player seated to accept (robots need not answer)."""
    players = {s.user_id for s in seats if s.user_id is not None}
    return len(seats) < table.players or not players <= set(accepted)


def _cancel(room: Room, user: User) -> Answer:
    if refused := room.refuse_player(user):
        return refused
    pending = room.proposal
    if pending is not None and pending.expires_at > timezone.now():
        return Refused("invalid", _("A proposal to cancel is already waiting for answers."))
    return None


def _cancel_answer(room: Room, user: User) -> Answer:
    if refused := room.refuse_player(user):
        return refused
    proposal = room.proposal
    if proposal is None or proposal.expires_at <= timezone.now():
        return Refused("invalid", _("Nobody is proposing to cancel this game."))
    if user.pk in proposal.accepted:
        return Refused("invalid", _("You have already accepted to cancel this game."))
    return None


def _robots(room: Room, user: User) -> Answer:
    if refused := room.refuse_seated(user):
        return refused
    if not room.table.matchmaking and (refused := room.refuse_master(user)):
        return refused
    if room.table.status != Table.Status.OPEN:
        return Refused("invalid", _("A game is running at this table."))
    if len(room.seats) >= room.table.players:
        return TAKEN
    return None


def _leave(room: Room, user: User) -> Answer:
    return room.refuse_seated(user) or room.refuse_game()


def _resume(room: Room, user: User) -> Answer:
    if refused := room.refuse_player(user):
        return refused
    if not room.player_seat(user).timeouts:
        return Refused("invalid", _("No robot is playing your seat."))
    return None


def _chat(room: Room, user: User) -> Answer:
    if room.seat_of(user) is None and not room.table.guests:
        return Refused("not_seated", _("Only the players may chat at this table."))
    if not can_chat(user):
        return Refused("muted", _("You are muted and cannot chat for now."))
    return None


TAKEN = Refused("invalid", _("Every seat is taken."))

CHECKS: dict[str, Callable[[Room, User], Answer]] = {
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
# What each check reads of the room (loaded before it asks; a part is read once): the game's
# requests, the game alone (and its state, for those that ask the engine).
NEEDS: dict[str, Part] = {
    **dict.fromkeys(KINDS, Part.SEATS | Part.GAME),
    **dict.fromkeys(GAME_KINDS, Part.GAME),
    "next_deal": Part.STATE,
    "hint": Part.STATE,
}


# --- Asking --------------------------------------------------------------------------------


def refusal(kind: str, room: Room, user: User) -> Answer:
    """What refuses logged-in `user`'s request of `kind` at `room` now, or None. Nothing may
    be asked at a closed table, and a guest asks only what a guest may."""
    if refused := room.refuse_open():
        return refused
    if kind not in GUEST_REQUESTS and is_guest(user):
        return Refused("invalid", GUEST_REFUSAL)
    return CHECKS[kind](room.load(NEEDS[kind]), user)


def require(kind: str, room: Room, user: Any) -> User:
    """Refuse `user`'s request of `kind` at `room` unless it may be made now; returns the
    user, logged in. The door: the one place a permit raises."""
    user = require_user(user)
    if refused := refusal(kind, room, user):
        raise refused.error()
    return user


def allowed(kind: str, room: Room, user: Any) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return refusal(kind, room, user) is None


def may(room: Room, user: Any, kinds: tuple[str, ...] = KINDS) -> dict[str, bool]:
    """What `user` may ask at `room` now, request by request (those of `kinds`): a frame's
    `may`. None (a robot's seat) may ask nothing."""
    if user is None or not user.is_authenticated:
        return dict.fromkeys(kinds, False)
    return {kind: refusal(kind, room, user) is None for kind in kinds}


def seat_may(room: Room, seats: list[int | None], *, table: bool) -> dict[int | None, dict]:
    """Each seat's `may` in a frame, for the player in the seat; the
    spectators' for `SOMEONE`. With the table's summary (`table`) every request is answered;
    after a move only those a move changes, from the game's seats alone."""
    if table:
        users = {s.seat: s.user for s in room.load(Part.SEATS).seats if s.user_id is not None}
        return {seat: may(room, SOMEONE if seat is None else users.get(seat)) for seat in seats}
    users = {gs.seat: gs.user for gs in room.game_seats if gs.user_id is not None}
    # A spectator plays no part in the game.
    return {
        seat: may(room, None if seat is None else users.get(seat), GAME_KINDS) for seat in seats
    }


def may_for(room: Room, user: Any) -> dict[str, bool]:
    """What `user` may ask at `room` now, whether seated or not (the table page's first
    drawing; a socket narrows the spectators' frames itself)."""
    if room.load(Part.SEATS).seat_of(user) is not None:
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
    sits = refuse_person(table, user) is None
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
