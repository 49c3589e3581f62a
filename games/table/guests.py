"""Guests: visitors who practise against robots without an account.

A guest is a `User` row marked `is_guest` (accounts.services.guest_create), logged in for
the visit's session, with no password and no chips. A guest only ever sits at their own
practice tables: they never sit with people, never chat, never open, join or are invited
to a table, and their games are staked and ranked nowhere (no result goes to rankings).

Guests cost the site little: a guest's practice table and its games are deleted as soon as
the table closes (games/table/practice.py), and a guest idle for `GUEST_IDLE_HOURS` is
deleted with whatever is left of theirs (`guests_sweep`). A guest who signs up gets a new
account, which starts as any new player's.

| service | what | locks |
|---|---|---|
| `guest_table_delete` | a guest's closed practice table and its games deleted | (held) |
| `guests_sweep` | idle guests deleted, with their tables and games | each guest's tables |
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.db.models.deletion import ProtectedError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.models import Game, Table, TableSeat
from games.table.refusals import TableError

logger = logging.getLogger(__name__)

GUEST_IDLE_HOURS = 6
# The requests a guest may make at their practice table (games/table/requests.py).
# (A guest only ever sits at their own practice tables, so these are about those alone.)
GUEST_REQUESTS = (
    *("act", "next_deal", "start", "stand", "leave", "resume", "cancel", "cancel_answer"),
    *("hint", "rematch", "rematch_answer"),
)
GUEST_REFUSAL = _("Guests practise against robots only: sign up to play with people.")


def is_guest(user: Any) -> bool:
    return bool(getattr(user, "is_guest", False))


def refuse_guest(user: Any) -> None:
    """Refuse what only players may do (sit, open a table, chat, invite, "Play now")."""
    if is_guest(user):
        raise TableError("invalid", GUEST_REFUSAL)


def guest_table_delete(table: Table) -> None:
    """Delete a closed practice table of a guest and its games (under the table's lock): a
    guest's practice leaves nothing behind."""
    Game.objects.filter(table=table).delete()
    Table.objects.filter(pk=table.pk).delete()


def guests_sweep(*, now: Any = None, limit: int = 100) -> int:
    """Delete the guests idle for `GUEST_IDLE_HOURS` (since they came, or last logged in),
    with their tables and games; how many were deleted."""
    now = now or timezone.now()
    before = now - timedelta(hours=GUEST_IDLE_HOURS)
    idle = list(
        User.objects.filter(is_guest=True, date_joined__lt=before)
        .exclude(last_login__gte=before)
        .values_list("pk", flat=True)[:limit]
    )
    deleted = 0
    for user_id in idle:
        try:
            _guest_delete(user_id)
        except ProtectedError:
            # A row that must outlive them (none should): kept, and said in the log.
            logger.warning("guest %s kept: a protected row refers to them", user_id)
            continue
        deleted += 1
    return deleted


@transaction.atomic
def _guest_delete(user_id: int) -> None:
    seated = TableSeat.objects.filter(user_id=user_id).values("table_id")
    tables = Table.objects.select_for_update().filter(Q(master_id=user_id) | Q(pk__in=seated))
    for table in tables:
        guest_table_delete(table)
    Game.objects.filter(seats__user_id=user_id).delete()
    User.objects.filter(pk=user_id, is_guest=True).delete()
