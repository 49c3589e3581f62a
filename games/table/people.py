"""Invitations and friends: who is invited where, who is online and at which table.

An invited player learns it at once wherever they are on the site: every page of a
logged-in player holds a socket (`/ws/me/`, `games.sockets.me.UserConsumer`) in their own
group, and an invitation pushes them the new count for the header's badge. They accept by
sitting at the table (`seating.table_sit`, which an invitation lets through at a private
table) or decline it here. A player is online while they have such a socket open.

| service | what | locks |
|---|---|---|
| `invitation_decline` | the invited player declines | the invitation's row |
| `user_socket_open`, `user_socket_close` | a player's site socket opened or closed | none |
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.selectors import friends_of
from games import push
from games.models import (
    Invitation,
    Table,
    TableSeat,
    TableSocket,
    UserSocket,
    forget_socket,
    note_socket,
)
from games.table.refusals import TableError


def pending_invitations(*, user: User) -> QuerySet[Invitation]:
    """The invitations `user` has not answered, to tables still open where they do not sit,
    newest first."""
    seated = TableSeat.objects.filter(table=OuterRef("table"), user=user)
    return (
        Invitation.objects.filter(user=user, declined_at__isnull=True)
        .filter(table__status=Table.Status.OPEN)
        .exclude(Exists(seated))
        .select_related("table", "invited_by")
    )


def invitations_frame(*, user_id: int) -> dict[str, Any]:
    """What a player's site socket is told when their invitations change."""
    count = pending_invitations(user=User(pk=user_id)).count()
    return {"type": "invitations", "count": count}


def notify_invited(user_id: int) -> None:
    """After commit: tell the player's site sockets their new count of invitations."""

    def send() -> None:
        push.send([push.user_message(user_id, invitations_frame(user_id=user_id))])

    transaction.on_commit(send, robust=True)


@transaction.atomic
def invitation_decline(*, user: User, invitation_id: int) -> Invitation:
    """`user` declines their invitation: the master's list says so. Locks the invitation."""
    invitation = Invitation.objects.select_for_update().filter(pk=invitation_id, user=user).first()
    if invitation is None:
        raise TableError("invalid", _("There is no such invitation."))
    if invitation.declined_at is None:
        invitation.declined_at = timezone.now()
        invitation.save(update_fields=["declined_at"])
        notify_invited(user.pk)
        _notify_master(invitation, user)
    return invitation


def _notify_master(invitation: Invitation, user: User) -> None:
    """After commit: the master's site sockets hear that `user` declined (their table page
    reads its list of invited again)."""
    master_id = Table.objects.values_list("master_id", flat=True).get(pk=invitation.table_id)
    frame = {"type": "invitation_declined", "table_id": invitation.table_id, "user": user.username}
    message = push.user_message(master_id, frame)
    transaction.on_commit(lambda: push.send([message]), robust=True)


def table_invitations(*, table: Table, seats: list[TableSeat]) -> list[dict[str, Any]]:
    """Who the master invited and what became of it: accepted (seated), declined, waiting."""
    seated = {s.user_id for s in seats if s.user_id is not None}
    rows = []
    for invitation in table.invitations.select_related("user").order_by("created_at"):
        if invitation.user_id in seated:
            state = "accepted"
        elif invitation.declined_at is not None:
            state = "declined"
        else:
            state = "waiting"
        rows.append({"user": invitation.user.username, "state": state})
    return rows


def user_socket_open(*, user: User, channel_name: str, process_id: Any) -> None:
    note_socket(UserSocket, channel_name=channel_name, process_id=process_id, user=user)


def user_socket_close(*, channel_name: str) -> None:
    forget_socket(UserSocket, channel_name=channel_name)


def friends_status(*, user: User) -> list[dict[str, Any]]:
    """`user`'s friends, each online or not, and the table they sit at (or watch), if any."""
    friends = list(friends_of(user))
    ids = [f.pk for f in friends]
    online = set(UserSocket.objects.filter(user_id__in=ids).values_list("user_id", flat=True))
    online |= set(TableSocket.objects.filter(user_id__in=ids).values_list("user_id", flat=True))
    at: dict[int, tuple[int, bool]] = {}
    for user_id, table_id in TableSocket.objects.filter(user_id__in=ids).values_list(
        "user_id", "table_id"
    ):
        at[user_id] = (table_id, False)
    for user_id, table_id in (
        TableSeat.objects.filter(user_id__in=ids)
        .exclude(table__status=Table.Status.CLOSED)
        .values_list("user_id", "table_id")
    ):
        at[user_id] = (table_id, True)
    return [
        {
            "user": f,
            "online": f.pk in online,
            "table_id": at[f.pk][0] if f.pk in at else None,
            "seated": at[f.pk][1] if f.pk in at else False,
        }
        for f in friends
    ]
