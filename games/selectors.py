"""Reads about tables and games that are not live play: the lobby's list and a player's
games. Live play's reads (frames, states, the room) live in games/table/.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from accounts.models import User
from games.models import Game, GameSeat, Table, TableSeat
from games.table.frames import table_summary
from games.table.record import game_state


def game_outcome(*, game: Game) -> dict:
    """The result the record gives: {"over", "winner", "score"}, as the replay command says it."""
    outcome = game_state(game=game).outcome()
    return {"over": outcome.over, "winner": outcome.winner, "score": list(outcome.score)}


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
