"""Arenas: players join and pause, the arena starts, pairs, scores and ends by itself.

| service | what | locks |
|---|---|---|
| `arena_join` | join (the entry into the pot), or come back from a pause | arena, ledger |
| `arena_pause` | no new game for this player until they join again | the arena |
| `arena_start` | a scheduled arena whose time came runs | the arena |
| `arena_finish` | the end: ranks, the podium paid, trophies, the next one | arena, ledger |
| `arena_tick` | what is due now, for every arena: beat runs it every second | each arena in turn |
| `arena_socket_open`, `arena_socket_close` | who watches the arena now (is seated) | nothing |

Every service locks the arena's row first, so join, pause, pairing, scoring and the end of
one arena follow one another. The end is one transaction: the status, the ranks, the payout
(under its own idempotency key besides) and the trophies are written together, once.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.arenas.frames import (
    PODIUM_TROPHIES,
    STANDING_ORDER,
    arena_announce,
    arena_push_on_commit,
    places,
)
from games.arenas.models import Arena, ArenaGame, ArenaPlayer, ArenaSocket
from games.arenas.pairing import arena_pair
from games.arenas.scoring import arena_game_score, arena_unscored_games
from games.models import forget_socket, note_socket
from games.table.refusals import TableError, require_user
from rankings.selectors import shown_rating
from rankings.services import (
    InsufficientChips,
    chips_arena_entry,
    chips_arena_payout,
    trophies_grant,
)

REPEATS = {Arena.Recurrence.DAILY: timedelta(days=1), Arena.Recurrence.WEEKLY: timedelta(days=7)}


def _locked(arena_id: int) -> Arena:
    arena = Arena.objects.select_for_update().filter(pk=arena_id).first()
    if arena is None:
        raise TableError("unknown_arena", _("There is no such arena."))
    return arena


def player_rating(*, user: User, arena: Arena) -> int:
    """The player's shown rating at the arena's kind of table (a new player's if none)."""
    return shown_rating(user=user, variant=arena.variant, players=arena.players, pairs=arena.pairs)


@transaction.atomic
def arena_join(*, arena_id: int, user: User | None, ip_address: str | None = None) -> ArenaPlayer:
    """`user` joins the arena before or during it (paying the entry into its pot once), or
    comes back after a pause. Refused once no new game starts, outside the rating band, or
    without the entry in chips. Locks the arena (then the ledger's rows)."""
    user = require_user(user)
    arena = _locked(arena_id)
    now = timezone.now()
    if arena.status == Arena.Status.FINISHED or now >= arena.closes_at:
        raise TableError("invalid", _("This arena takes no new games any more."))
    player = ArenaPlayer.objects.filter(arena=arena, user=user).first()
    if player is not None:
        if player.paused:
            player.paused = False
            player.free_since = None if player.playing_id else now
            player.ip_address = ip_address or player.ip_address
            player.save(update_fields=["paused", "free_since", "ip_address"])
            arena_push_on_commit(arena.pk)
        return player
    rating = player_rating(user=user, arena=arena)
    if (arena.rating_min is not None and rating < arena.rating_min) or (
        arena.rating_max is not None and rating > arena.rating_max
    ):
        raise TableError(
            "invalid",
            _("This arena is for ratings from %(low)s to %(high)s; yours is %(rating)s.")
            % {"low": arena.rating_min or 0, "high": arena.rating_max or "∞", "rating": rating},
        )
    if arena.entry:
        try:
            chips_arena_entry(
                user=user,
                arena_id=arena.pk,
                amount=arena.entry,
                key=f"arena-entry:{arena.pk}:{user.pk}",
            )
        except InsufficientChips:
            raise TableError(
                "invalid",
                _("You need %(entry)s chips to join this arena.") % {"entry": arena.entry},
            ) from None
    player = ArenaPlayer.objects.create(
        arena=arena, user=user, free_since=now, ip_address=ip_address, rating=rating
    )
    arena_push_on_commit(arena.pk)
    return player


@transaction.atomic
def arena_pause(*, arena_id: int, user: User | None) -> ArenaPlayer:
    """`user` is seated at no new game until they join again; a game they are playing goes
    on (leaving it is abandoning it). Locks the arena."""
    user = require_user(user)
    arena = _locked(arena_id)
    player = ArenaPlayer.objects.filter(arena=arena, user=user).first()
    if player is None:
        raise TableError("invalid", _("You have not joined this arena."))
    if not player.paused:
        player.paused = True
        player.save(update_fields=["paused"])
        arena_push_on_commit(arena.pk)
    return player


@transaction.atomic
def arena_start(*, arena_id: int, now=None) -> bool:
    """A scheduled arena whose start time came runs. Locks the arena."""
    now = now or timezone.now()
    arena = _locked(arena_id)
    if arena.status != Arena.Status.SCHEDULED or now < arena.starts_at:
        return False
    arena.status = Arena.Status.RUNNING
    arena.save(update_fields=["status"])
    arena_push_on_commit(arena.pk)
    return True


@transaction.atomic
def arena_finish(*, arena_id: int, now=None) -> bool:
    """End a running arena once its time is up and its last game is scored: final ranks,
    the pot paid to the podium (less the bank's 25%), the podium's trophies, the next arena
    when it repeats. Done once: a second call finds it finished. Locks the arena (then the
    ledger's rows)."""
    now = now or timezone.now()
    arena = _locked(arena_id)
    if arena.status != Arena.Status.RUNNING or now < arena.ends_at:
        return False
    if ArenaGame.objects.filter(arena=arena, scored_at__isnull=True).exists():
        return False  # games still running finish and count
    players = list(
        ArenaPlayer.objects.filter(arena=arena).select_related("user").order_by(*STANDING_ORDER)
    )
    # A player none of whose games counted (cancelled, or played from a shared address) has
    # no place: a tie at zero between such players is no "#1".
    place = places(players)
    for player in players:
        player.rank = place.get(player.pk)
    ArenaPlayer.objects.bulk_update(players, ["rank"])
    scored = [p for p in players if p.rank is not None]
    podium = scored[:3]
    arena.status, arena.finished_at = Arena.Status.FINISHED, now
    arena.save(update_fields=["status", "finished_at"])
    if arena.entry:
        chips_arena_payout(
            arena_id=arena.pk, podium=[p.user for p in podium], key=f"arena-payout:{arena.pk}"
        )
    last_games = dict(
        ArenaGame.objects.filter(arena=arena, results__player__in=podium)
        .order_by("created_at")
        .values_list("results__player__user_id", "game_id")
    )
    trophies_grant(
        grants=[
            (p.user_id, code, last_games[p.user_id])
            for rank, p in enumerate(podium, start=1)
            for code in PODIUM_TROPHIES[rank]
        ],
        earned_at=now,
    )
    _repeat(arena)
    arena_push_on_commit(arena.pk)
    transaction.on_commit(lambda: arena_announce(arena.pk), robust=True)
    return True


def arena_socket_open(*, arena_id: int, user: User, channel_name: str, process_id) -> None:
    """A logged-in player's arena socket opened in daphne process `process_id`: while one is
    open they are present, and may be seated."""
    if not Arena.objects.filter(pk=arena_id).exists():
        return
    note_socket(
        ArenaSocket, channel_name=channel_name, process_id=process_id, arena_id=arena_id, user=user
    )


def arena_socket_close(*, channel_name: str) -> None:
    forget_socket(ArenaSocket, channel_name=channel_name)


def _repeat(arena: Arena) -> None:
    """The next arena of a repeating one, made once (the arena's `next_arena`)."""
    step = REPEATS.get(arena.recurrence)
    if step is None or arena.next_arena_id is not None:
        return
    fields = {
        f.name: getattr(arena, f.name)
        for f in Arena._meta.concrete_fields
        if f.name not in ("id", "status", "created_at", "finished_at", "next_arena", "starts_at")
    }
    arena.next_arena = Arena.objects.create(**fields, starts_at=arena.starts_at + step)
    arena.save(update_fields=["next_arena"])


def arena_tick(*, now=None) -> dict[str, int]:
    """Everything due now, arena by arena: starts, games left unscored (their task was
    lost), pairings, ends. Run again, it does nothing twice. Counts, by kind."""
    now = now or timezone.now()
    counts = {"started": 0, "scored": 0, "tables": 0, "finished": 0}
    for arena_id in Arena.objects.filter(
        status=Arena.Status.SCHEDULED, starts_at__lte=now
    ).values_list("pk", flat=True):
        counts["started"] += arena_start(arena_id=arena_id, now=now)
    for arena in Arena.objects.filter(status=Arena.Status.RUNNING):
        for game_id in arena_unscored_games(arena_id=arena.pk):
            counts["scored"] += arena_game_score(game_id=game_id)
        if now < arena.closes_at:
            counts["tables"] += len(arena_pair(arena_id=arena.pk, now=now))
        elif now >= arena.ends_at:
            counts["finished"] += arena_finish(arena_id=arena.pk, now=now)
    return counts
