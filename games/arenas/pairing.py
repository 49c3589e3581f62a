"""The pairing: free players of a running arena seated at new tables, a game started at each.

Whenever enough joined players are free (not paused, not playing, and on the arena's page:
an open arena socket, `ArenaSocket`), they are seated, closest
scores together (then closest ratings), never with the opponents of their last game nor
with a player from the same address while anybody else could make the table; a player who
has waited `Arena.pairing_wait` takes the first table that can be made. Each table is an
ordinary competitive table of the live-play wing, its game started on the same path as any
(games/table/play.py: hidden hands, timers, robots for the absent, the award).

`arena_pair` holds the arena's row lock from the read of the free players to the last seat,
so two workers pairing at once never seat one player twice: the second waits, then finds
them playing.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games.arenas.frames import arena_push_on_commit
from games.arenas.models import Arena, ArenaGame, ArenaPlayer, ArenaSocket
from games.models import Table, TableSeat
from games.table.seating import table_for_players


@dataclass(frozen=True)
class Waiting:
    """A free player as the pairing sees them."""

    user_id: int
    score: int
    rating: int
    free_since: datetime
    last_opponents: frozenset[int] = frozenset()
    ip_address: str | None = None


def _compatible(a: Waiting, b: Waiting) -> bool:
    if b.user_id in a.last_opponents or a.user_id in b.last_opponents:
        return False
    return not (a.ip_address and a.ip_address == b.ip_address)


def tables_from(
    waiting: Sequence[Waiting], *, size: int, now: datetime, wait: timedelta
) -> list[list[Waiting]]:
    """The tables to seat now, each a list of `size` players, best score first.

    >>> t0 = datetime(2026, 1, 1)
    >>> a, b, c = (Waiting(n, score, 0, t0) for n, score in ((1, 6), (2, 0), (3, 4)))
    >>> [[w.user_id for w in t] for t in tables_from([a, b, c], size=2, now=t0, wait=timedelta(1))]
    [[1, 3]]
    """
    queue = sorted(waiting, key=lambda w: (-w.score, -w.rating, w.free_since, w.user_id))
    tables: list[list[Waiting]] = []
    start = 0
    while len(queue) - start >= size:
        first, rest = queue[start], queue[start + 1 :]
        table = [first]
        for other in rest:
            if len(table) == size:
                break
            if all(_compatible(other, seated) for seated in table):
                table.append(other)
        if len(table) < size:
            if now - first.free_since < wait:
                start += 1  # they wait for a new opponent; the others may still meet
                continue
            table = [first, *rest[: size - 1]]
        tables.append(table)
        taken = {w.user_id for w in table}
        queue = [w for w in queue if w.user_id not in taken]
    return tables


def _seat_order(table: list[Waiting], *, pairs: bool) -> list[Waiting]:
    """Seats 0..n-1: in pairs the first and fourth against the second and third (seats 0
    and 2 are partners); otherwise in a random order (who deals first)."""
    if pairs and len(table) == 4:
        return [table[0], table[1], table[3], table[2]]
    order = list(table)
    secrets.SystemRandom().shuffle(order)
    return order


def _busy_elsewhere(user_ids: list[int]) -> set[int]:
    """Players seated at a game running at another table: not seated twice at once."""
    return set(
        TableSeat.objects.filter(
            user_id__in=user_ids, table__status=Table.Status.PLAYING
        ).values_list("user_id", flat=True)
    )


@transaction.atomic
def arena_pair(*, arena_id: int, now: datetime | None = None) -> list[int]:
    """Seat the arena's free players at new tables and start their games; the new tables'
    ids. Locks the arena's row (then its players', then each new table's own)."""
    now = now or timezone.now()
    arena = Arena.objects.select_for_update().get(pk=arena_id)
    if arena.status != Arena.Status.RUNNING or now >= arena.closes_at:
        return []
    free = {
        p.user_id: p
        for p in ArenaPlayer.objects.select_for_update()
        .filter(arena=arena, paused=False, playing__isnull=True)
        .filter(user_id__in=ArenaSocket.objects.filter(arena=arena).values("user_id"))
        .select_related("user")
    }
    if len(free) < arena.players:
        return []
    for user_id in _busy_elsewhere(list(free)):
        del free[user_id]
    waiting = [
        Waiting(
            user_id=p.user_id,
            score=p.score,
            rating=p.rating,
            free_since=p.free_since or now,
            last_opponents=frozenset(p.last_opponents),
            ip_address=p.ip_address,
        )
        for p in free.values()
    ]
    made = []
    for table in tables_from(waiting, size=arena.players, now=now, wait=arena.pairing_wait):
        seated = [free[w.user_id] for w in _seat_order(table, pairs=arena.pairs)]
        made.append(_seat(arena, seated))
    if made:
        arena_push_on_commit(arena.pk)
    return made


def _seat(arena: Arena, seated: list[ArenaPlayer]) -> int:
    """One new table of the arena, its players seated and its game started (the wing's
    door for a table of one game)."""
    room = table_for_players(
        options=arena.table_options, players=[(p.user, p.ip_address) for p in seated]
    )
    arena_game = ArenaGame.objects.create(arena=arena, table=room.table, game=room.game)
    for p in seated:
        p.playing, p.free_since = arena_game, None
    ArenaPlayer.objects.bulk_update(seated, ["playing", "free_since"])
    return room.table.pk
