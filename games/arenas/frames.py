"""What an arena's page and socket show: one `arena` frame, public, the same for everyone.

It holds the arena (its table, times, its pot and, once over, where the pot went), the
standings (each player's score, games and each game's points, whether on a streak, paused
or playing and where), the running tables (each a link to watch it) and, once the arena is
over, the podium with its prizes and trophies. Nothing in it is secret, and nothing names
a player but their username (no address, no account id): a player's own Join or Pause is
read from it by their username. It is pushed whole after every change, once committed
(`arena_push`).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from games.arenas.models import Arena, ArenaGame, ArenaPlayer, ArenaResult
from games.models import GameSeat
from games.push import send, user_message, utc
from rankings.selectors import arena_pot_entered, arena_pot_paid, podium_split

PODIUM_TROPHIES = {1: ("arena_winner", "arena_podium"), 2: ("arena_podium",), 3: ("arena_podium",)}


def arena_group(arena_id: int) -> str:
    return f"arena-{arena_id}"


def _seconds(moment, now) -> float:
    return max(0.0, round((moment - now).total_seconds(), 1))


def arena_json(arena: Arena, *, now=None) -> dict[str, Any]:
    now = now or timezone.now()
    return {
        "id": arena.pk,
        "url": arena.get_absolute_url(),
        "name": arena.name,
        "status": arena.status,
        "variant": arena.variant,
        "players": arena.players,
        "pairs": arena.pairs,
        "move_time": arena.move_time,
        "starts_at": utc(arena.starts_at),
        "ends_at": utc(arena.ends_at),
        "closes_at": utc(arena.closes_at),
        "seconds_to_start": _seconds(arena.starts_at, now),
        "seconds_left": _seconds(arena.ends_at, now),
        "seconds_to_close": _seconds(arena.closes_at, now),
        "entry": arena.entry,
        # Every chip entered, while the arena runs and after its pot was paid out.
        "pot": arena_pot_entered(arena_id=arena.pk),
        "paid": _paid(arena),
        "rating_min": arena.rating_min,
        "rating_max": arena.rating_max,
    }


def _paid(arena: Arena) -> dict[str, int] | None:
    """Where a finished arena's pot went (prizes + bank + refunds = pot), from the ledger;
    None while it runs, and for an arena without an entry."""
    if arena.status != Arena.Status.FINISHED:
        return None
    paid = arena_pot_paid(arena_id=arena.pk)
    if paid is None:
        return None
    return {"prizes": paid.prizes, "bank": paid.bank, "refunds": paid.refunds}


# Ties on score, then wins, then games (fewer first) go to who joined the arena first.
STANDING_ORDER = ("-score", "-wins", "games", "joined_at", "pk")


def places(players: list[ArenaPlayer]) -> dict[int, int]:
    """Each placed player's place, by ArenaPlayer id, for `players` in STANDING_ORDER: 1, 2,
    3… among those who have a game that counted, whoever stands between them. A player
    none of whose games counted yet has no place and pushes nobody back.

    >>> places([ArenaPlayer(pk=7, games=2), ArenaPlayer(pk=8, games=0), ArenaPlayer(pk=9, games=1)])
    {7: 1, 9: 2}
    """
    placed = [p for p in players if p.games]
    return {p.pk: n for n, p in enumerate(placed, start=1)}


def arena_standings(arena: Arena) -> list[dict[str, Any]]:
    """Every player in rank order, each with every arena game they played that is over, in
    the order they were scored: `points` of a game that did not count (cancelled, or played
    from a shared address) is None, and `shared` says which were played from a shared
    address. A player none of whose games counted has no `rank` (None)."""
    players = list(
        ArenaPlayer.objects.filter(arena=arena)
        .select_related("user", "playing")
        .order_by(*STANDING_ORDER)
    )
    by_user = {p.user_id: p.pk for p in players}
    points: dict[int, list[int | None]] = {p.pk: [] for p in players}
    games: dict[int, list[int]] = {p.pk: [] for p in players}
    shared: dict[int, list[bool]] = {p.pk: [] for p in players}
    scored = dict(
        ((player_id, game_id), value)
        for player_id, value, game_id in ArenaResult.objects.filter(
            player__arena=arena
        ).values_list("player_id", "points", "arena_game__game_id")
    )
    for game_id, user_id, shared_ip in (
        GameSeat.objects.filter(
            game__arena_game__arena=arena,
            game__arena_game__scored_at__isnull=False,
            user__isnull=False,
        )
        .order_by("game__arena_game__scored_at", "game__arena_game__pk")
        .values_list("game_id", "user_id", "game__shared_ip")
    ):
        player_id = by_user.get(user_id)
        if player_id is None:
            continue
        points[player_id].append(scored.get((player_id, game_id)))
        games[player_id].append(game_id)
        shared[player_id].append(shared_ip)
    # No place without a game that counted; the final ones are arena_finish's, the same.
    place = places(players)
    return [
        {
            "rank": p.rank or place.get(p.pk),
            "user": p.user.username,
            "score": p.score,
            "games": p.games,
            "wins": p.wins,
            "points": points[p.pk],
            "game_ids": games[p.pk],
            "shared": shared[p.pk],
            "streak": p.streak,
            "fire": p.streak >= 2,
            "paused": p.paused,
            "table": p.playing.table_id if p.playing else None,
        }
        for p in players
    ]


def arena_tables(arena: Arena) -> list[dict[str, Any]]:
    running = list(
        ArenaGame.objects.filter(arena=arena, scored_at__isnull=True)
        .select_related("table")
        .order_by("pk")
    )
    seats: dict[int, list[str]] = {g.game_id: [] for g in running}
    for game_id, username in (
        GameSeat.objects.filter(game_id__in=seats)
        .order_by("game_id", "seat")
        .values_list("game_id", "user__username")
    ):
        seats[game_id].append(username)
    return [
        {
            "id": g.table_id,
            "url": g.table.get_absolute_url(),
            "game_id": g.game_id,
            "players": seats[g.game_id],
        }
        for g in running
    ]


def arena_podium(arena: Arena, standings: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    if arena.status != Arena.Status.FINISHED:
        return None
    podium = [s for s in standings if s["rank"] is not None][:3]
    pot = arena_pot_entered(arena_id=arena.pk)
    _bank, prizes = podium_split(pot, len(podium)) if podium else (0, [])
    return [
        {
            "rank": s["rank"],
            "user": s["user"],
            "score": s["score"],
            "prize": prize,
            "trophies": list(PODIUM_TROPHIES[s["rank"]]),
        }
        for s, prize in zip(podium, prizes, strict=True)
    ]


def arena_state(arena_id: int) -> dict[str, Any] | None:
    """The whole `arena` frame of arena `arena_id`, None for an unknown arena."""
    arena = Arena.objects.filter(pk=arena_id).first()
    if arena is None:
        return None
    standings = arena_standings(arena)
    return {
        "type": "arena",
        "arena": arena_json(arena),
        "standings": standings,
        "tables": arena_tables(arena),
        "podium": arena_podium(arena, standings),
    }


def arena_push(arena_id: int) -> None:
    """Push the arena's whole frame to its sockets (best effort: a lost push is made good by
    the next one, or a `sync`)."""
    frame = arena_state(arena_id)
    if frame is not None:
        send([(arena_group(arena_id), {"type": "arena.frame", "frame": frame})])


def arena_push_on_commit(arena_id: int) -> None:
    transaction.on_commit(lambda: arena_push(arena_id), robust=True)


def arena_over_messages(arena_id: int) -> list[tuple[str, dict[str, Any]]]:
    """The podium announced to each of a finished arena's players, on their own socket
    (`/ws/me/`, on whatever page they are): an `arena_over` frame with their own place."""
    arena = Arena.objects.filter(pk=arena_id, status=Arena.Status.FINISHED).first()
    if arena is None:
        return []
    standings = arena_standings(arena)
    podium = [
        {"rank": p["rank"], "user": p["user"], "prize": p["prize"]}
        for p in arena_podium(arena, standings) or []
    ]
    about = {"id": arena.pk, "name": arena.name, "url": arena.get_absolute_url()}
    ranks = dict(ArenaPlayer.objects.filter(arena=arena).values_list("user_id", "rank"))
    return [
        user_message(
            user_id,
            {
                "type": "arena_over",
                "arena": about,
                "rank": rank,
                "players": len(ranks),
                "podium": podium,
            },
        )
        for user_id, rank in ranks.items()
    ]


def arena_announce(arena_id: int) -> None:
    """Send the podium to every player of the arena (best effort, as every push)."""
    send(arena_over_messages(arena_id))
