"""A friendly cancel (RULES.md §11): every player agrees, and the game is void.

| service | what | locks |
|---|---|---|
| `game_cancel_propose` | a player proposes to cancel the game | the table |
| `game_cancel_answer` | a player accepts or refuses the proposal | the table, ledger rows |
| `game_cancel_expire` | an unanswered proposal ends after its 60 seconds | the table |
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.events import Ending
from games.models import CancelProposal, Game, GameSeat
from games.table import permits, record
from games.table.clock import DEADLINE_FIELDS, clear_deadline
from games.table.frames import broadcast
from games.table.play import end_game
from games.table.refusals import require_user
from games.table.room import Part, Room, locked_room
from rankings.services import chips_refund


def void_game(room: Room, *, key: str, push: dict[str, Any]) -> None:
    """Cancel the running game of a locked room: no XP, no ranking, no statistics (it is
    never handed to rankings), every stake refunded but the abandoners' (RULES.md §11:
    theirs goes to the bank). Its record is folded whole, as a finished game's. It ends as
    every game does (games/table/play.py `end_game`), everyone pushed `push`."""
    game = room.game
    record.fold_record(game=game)  # while it still reads as running: its rows are its own
    now = timezone.now()
    game.status = Game.Status.CANCELLED
    game.ended_at = game.finished_at = now
    clear_deadline(game)
    game.save(
        update_fields=[
            "status",
            "ended_at",
            "finished_at",
            "record",
            "action_count",
            *DEADLINE_FIELDS,
        ]
    )
    for gs in room.game_seats:
        gs.outcome, gs.abandon_at = GameSeat.Outcome.VOID, None
    GameSeat.objects.filter(game=game).update(outcome=GameSeat.Outcome.VOID, abandon_at=None)
    CancelProposal.objects.filter(game=game, status=CancelProposal.Status.OPEN).update(
        status=CancelProposal.Status.ACCEPTED
    )
    room.proposal = None
    if game.competitive and game.stake:
        forfeit = [gs.user for gs in room.game_seats if gs.abandoned and gs.user_id]
        chips_refund(game_id=game.pk, key=key, forfeit=forfeit)
    end_game(room, ending=Ending.CANCELLED, push=push)


def _voters(room: Room) -> set[int]:
    """The players who vote on a cancel: every human seat that has not abandoned."""
    return {gs.user_id for gs in room.game_seats if gs.user_id is not None and not gs.abandoned}


def _answered(room: Room, proposal: CancelProposal, *, by: User) -> None:
    """Cancel the game if every voter accepted the proposal, else tell everyone the vote."""
    if _voters(room) <= set(proposal.accepted):
        cancelled = {"kind": "cancelled", "by": by.username}
        void_game(room, key=f"cancel-refund:game-{room.game.pk}", push=cancelled)
    else:
        kind = "cancel_proposed" if proposal.proposed_by_id == by.pk else "cancel_accepted"
        broadcast(room, {"kind": kind, "by": by.username})


@transaction.atomic
def game_cancel_propose(*, table_id: int, user: User) -> CancelProposal:
    """A seated player proposes to cancel the running game; the others have 60 seconds to
    accept or refuse. A player alone with robots cancels at once. Locks the table."""
    user = require_user(user)
    room = locked_room(table_id, load=Part.SEATS | Part.GAME)
    permits.require("cancel", room, user)
    now = timezone.now()
    pending = room.proposal
    if pending is not None:
        # Its time ran out and the sweeper has not ended it yet: it is over all the same.
        pending.status = CancelProposal.Status.EXPIRED
        pending.save(update_fields=["status"])
    proposal = CancelProposal.objects.create(
        game=room.game,
        proposed_by=user,
        accepted=[user.pk],
        expires_at=now + timedelta(seconds=settings.CANCEL_PROPOSAL_SECONDS),
    )
    room.proposal = proposal
    _answered(room, proposal, by=user)
    return proposal


@transaction.atomic
def game_cancel_answer(*, table_id: int, user: User, accept: bool) -> CancelProposal:
    """A player accepts or refuses the proposal to cancel. Every player accepting cancels the
    game (its stakes refunded); one refusal ends the proposal. Locks the table (and the
    ledger rows of a refund)."""
    user = require_user(user)
    room = locked_room(table_id, load=Part.SEATS | Part.GAME)
    permits.require("cancel_answer", room, user)
    proposal = room.proposal
    if not accept:
        proposal.status = CancelProposal.Status.REFUSED
        proposal.save(update_fields=["status"])
        room.proposal = None
        broadcast(room, {"kind": "cancel_refused", "by": user.username})
        return proposal
    proposal.accepted = [*proposal.accepted, user.pk]
    proposal.save(update_fields=["accepted"])
    _answered(room, proposal, by=user)
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
    room = locked_room(table_id, load=Part.GAME, closed=True)
    updated = CancelProposal.objects.filter(
        pk=proposal_id, status=CancelProposal.Status.OPEN, expires_at__lte=now
    ).update(status=CancelProposal.Status.EXPIRED)
    if updated:
        room.proposal = None
        broadcast(room, {"kind": "cancel_expired", "by": None})
    return bool(updated)
