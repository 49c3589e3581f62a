"""Reads about tables and games that are not live play: the lobby's list and a player's
games. Live play's reads (frames, states, the room) live in games/table/.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet

from accounts.models import User
from accounts.selectors import are_friends, friends_of
from games.models import GameSeat, Invitation, Table, TableSeat, TableSocket
from games.table.frames import table_summary


def lobby_tables(
    *,
    user: User | None = None,
    variant: str | None = None,
    free_seats: bool = False,
    max_stake: int | None = None,
) -> list[dict[str, Any]]:
    """The tables of the lobby as `user` (None: a visitor) sees them, newest first: none
    closed, no practice table (one with robots: it is one player's), none whose game is
    over and whose players all left it, and a private table
    only for those who may sit at it (its master, the invited, the master's friends). Each
    row says whether `user` is `invited` and how many watch. Optionally only one variant,
    only tables with a free seat, only stakes up to `max_stake`."""
    tables = (
        Table.objects.exclude(status=Table.Status.CLOSED)
        .exclude(Exists(TableSeat.objects.filter(table=OuterRef("pk")).exclude(robot="")))
        # A table whose game is over and whose players all left it waits for nobody: it is
        # not shown, and closes a few minutes later (games.table.practice).
        .exclude(
            Q(status=Table.Status.OPEN, game__ended_at__isnull=False)
            & ~Exists(TableSocket.objects.filter(table=OuterRef("pk")))
        )
        .select_related("master")
    )
    member = user is not None and user.is_authenticated
    if member:
        friends = friends_of(user).values("pk")
        invited_to = Invitation.objects.filter(user=user).values("table_id")
        tables = tables.filter(
            Q(private=False) | Q(master=user) | Q(pk__in=invited_to) | Q(master__in=friends)
        )
    else:
        tables = tables.filter(private=False)
    if variant:
        tables = tables.filter(variant=variant)
    if max_stake is not None:
        tables = tables.filter(stake__lte=max_stake)
    tables = list(tables)
    ids = [t.pk for t in tables]
    seats: dict[int, list[TableSeat]] = {}
    for s in TableSeat.objects.filter(table_id__in=ids).select_related("user"):
        seats.setdefault(s.table_id, []).append(s)
    watching: dict[int, set[int]] = {}
    for table_id, user_id in TableSocket.objects.filter(table_id__in=ids).values_list(
        "table_id", "user_id"
    ):
        watching.setdefault(table_id, set()).add(user_id)
    invited = (
        set(
            Invitation.objects.filter(user=user, table_id__in=ids).values_list(
                "table_id", flat=True
            )
        )
        if member
        else set()
    )
    rows = [
        {
            **table_summary(
                table=t,
                seats=seats.get(t.pk, []),
                watchers=len(watching.get(t.pk, set()) - {s.user_id for s in seats.get(t.pk, [])}),
            ),
            "invited": t.pk in invited,
        }
        for t in tables
    ]
    return [row for row in rows if row["free_seats"]] if free_seats else rows


def lobby_row_for(*, row: dict[str, Any], user: User | None) -> dict[str, Any] | None:
    """A pushed lobby row as `user` sees it (None: not theirs to see): a private table only
    for those who may sit at it, with `invited` set."""
    if any(seat is not None and seat["robot"] for seat in row["seats"]):
        return None
    member = user is not None and user.is_authenticated
    invited = member and Invitation.objects.filter(table_id=row["id"], user=user).exists()
    if row["options"]["private"] and not (
        member
        and (
            invited
            or row["master"] == user.username
            or are_friends(User.objects.get(username=row["master"]), user)
        )
    ):
        return None
    return {**row, "invited": invited}


# --- A player's games, for their profile ------------------------------------------------


def players_with_profile() -> QuerySet[User]:
    """Everyone who has a public profile: the players. Staff accounts (moderators, the
    superuser) are not players: they have one only once they have sat at a game. Guests
    never have one."""
    players = User.objects.filter(is_guest=False)  # a guest practises, and is no player
    return players.filter(Q(is_staff=False) | Q(pk__in=GameSeat.objects.values("user_id")))


def player_recent_games(*, user: User, limit: int = 20) -> QuerySet[GameSeat]:
    return (
        GameSeat.objects.filter(user=user)
        .select_related("game")
        .order_by("-game__created_at", "-game__pk")[:limit]
    )
