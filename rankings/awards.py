"""A finished game's result and its award (RULES.md §12): the result submitted by live play,
then, once, its pot paid, its XP, its leaderboard rows, its ratings and trophies.
"""

import logging
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.dispatch import Signal
from django.utils import timezone

from accounts.models import User
from rankings.boards import board_add
from rankings.ledger import (
    Reason,
)
from rankings.models import (
    VARIANTS,
    ChipAccount,
    GameResult,
    GameResultSeat,
    LedgerEntry,
    XpEvent,
)
from rankings.pots import settle_pot
from rankings.ratings import rating_award
from rankings.trophies import trophies_award
from rankings.xp import xp_for_game

logger = logging.getLogger(__name__)

# Sent once a game's result is committed, with its `game_id`: its award is queued
# (rankings/signals.py, rankings/tasks.py).
result_submitted = Signal()

# --- XP ------------------------------------------------------------------------------------


@transaction.atomic
def xp_award(
    *, user: User, amount: int, reason: str, key: str, game_id: int | None = None
) -> XpEvent:
    """Record an XP award, once per key: the same key again returns the first event.

    Locks nothing: an award only adds a row, and the unique key settles a race.
    """
    if amount <= 0:
        raise ValueError(f"an XP award is positive, not {amount}")
    existing = XpEvent.objects.filter(key=key).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            return XpEvent.objects.create(
                user=user, amount=amount, reason=reason, key=key, game_id=game_id
            )
    except IntegrityError:
        existing = XpEvent.objects.filter(key=key).first()
        if existing is None:
            raise
        return existing


# --- Game results and their awards (RULES.md §12) -------------------------------------------


class GameResultInvalid(ValueError):
    """A finished game handed over with seats that do not add up."""


@dataclass(frozen=True)
class SeatResult:
    seat: int
    user_id: int | None  # None for a robot
    side: int  # 0..sides-1; in pairs seats 0,2 are side 0
    won: bool  # the seat's side won the game
    abandoned: bool
    ip_address: str | None  # as seen when the game started
    feats: tuple[str, ...] = ()  # what the seat did that a trophy may ask for (games.feats)


def _check_seats(*, variant: str, players: int, pairs: bool, seats: Sequence[SeatResult]) -> None:
    if variant not in dict(VARIANTS):
        raise GameResultInvalid(f"unknown variant {variant!r}")
    if players not in (2, 3, 4) or (pairs and players != 4):
        raise GameResultInvalid(f"{players} players{' in pairs' if pairs else ''} is no game")
    if sorted(seat.seat for seat in seats) != list(range(players)):
        raise GameResultInvalid(f"seats {[seat.seat for seat in seats]} for {players} players")
    humans = [seat.user_id for seat in seats if seat.user_id is not None]
    if len(set(humans)) != len(humans):
        raise GameResultInvalid("a player sits twice")
    sides = 2 if pairs else players
    if any(seat.side != (seat.seat % 2 if pairs else seat.seat) for seat in seats):
        raise GameResultInvalid(f"sides {[seat.side for seat in seats]} for {sides} sides")
    if any(seat.won != seats_by_side_won(seats)[seat.side] for seat in seats):
        raise GameResultInvalid("partners who did not both win or both lose")


def seats_by_side_won(seats: Sequence[SeatResult]) -> dict[int, bool]:
    """Whether each side won, by side (a side won when any of its seats says so)."""
    won: dict[int, bool] = defaultdict(bool)
    for seat in seats:
        won[seat.side] |= seat.won
    return won


def shared_ip_note(seats: Iterable[SeatResult]) -> str:
    """Which registered players shared an address at the start, or "" if none did. For the
    moderators only (the admin): a public page says why in words, never this note
    (games.views.game_pages.EXCLUDED).

    >>> shared_ip_note([SeatResult(0, 1, 0, True, False, "192.0.2.1"),
    ...                 SeatResult(1, 2, 1, False, False, "192.0.2.1")])
    '192.0.2.1: players 1, 2'
    """
    by_ip: dict[str, set[int]] = defaultdict(set)
    for seat in seats:
        if seat.user_id is not None and seat.ip_address:
            by_ip[seat.ip_address].add(seat.user_id)
    return "; ".join(
        f"{ip}: players {', '.join(str(pk) for pk in sorted(users))}"
        for ip, users in sorted(by_ip.items())
        if len(users) > 1
    )


def game_result_submit(
    *,
    game_id: int,
    variant: str,
    players: int,
    pairs: bool,
    deals_to_win: int,
    competitive: bool,
    stake: int,
    finished_at: datetime,
    seats: Sequence[SeatResult],
) -> GameResult:
    """Record a finished game for the awards, inside the caller's transaction (the one that
    finishes the game); idempotent by game_id. Queues rankings.tasks.award_game(game_id)
    with transaction.on_commit.

    A table where two registered players shared an IP address is recorded as excluded: it
    still pays, but counts toward no leaderboard. Every seat marked `won` is a winner: in a
    tie (several winning sides) they share the pot and each gets the winner's XP. Raises
    `GameResultInvalid` on seats that do not make a game. Locks nothing: the unique
    `game_id` settles a race.
    """
    _check_seats(variant=variant, players=players, pairs=pairs, seats=seats)
    if deals_to_win < 1:
        raise GameResultInvalid(f"{deals_to_win} deals to win")
    with transaction.atomic():
        existing = GameResult.objects.filter(game_id=game_id).first()
        if existing is not None:
            return existing
        note = shared_ip_note(seats)
        try:
            with transaction.atomic():
                result = GameResult.objects.create(
                    game_id=game_id,
                    variant=variant,
                    players=players,
                    pairs=pairs,
                    deals_to_win=deals_to_win,
                    competitive=competitive,
                    stake=stake,
                    finished_at=finished_at,
                    exclusion=GameResult.Exclusion.SAME_IP if note else "",
                    exclusion_note=note,
                    excluded_at=timezone.now() if note else None,
                )
        except IntegrityError:
            return GameResult.objects.get(game_id=game_id)
        GameResultSeat.objects.bulk_create(
            GameResultSeat(
                result=result,
                seat=seat.seat,
                user_id=seat.user_id,
                side=seat.side,
                won=seat.won,
                abandoned=seat.abandoned,
                ip_address=seat.ip_address or None,
                feats=list(seat.feats),
            )
            for seat in sorted(seats, key=lambda seat: seat.seat)
        )
        # Robust: a broker down at this moment must not fail the finished game; the sweep
        # awards it later.
        transaction.on_commit(
            lambda: result_submitted.send(sender=GameResult, game_id=game_id), robust=True
        )
    return result


def _stakes_by_user(game_id: int) -> dict[int, int]:
    rows = (
        LedgerEntry.objects.filter(
            destination__game_id=game_id,
            destination__kind=ChipAccount.Kind.POT,
            transfer__reason=Reason.STAKE,
        )
        .values("source__user")
        .annotate(total=Sum("amount"))
        .order_by("source__user")
    )
    return {row["source__user"]: row["total"] for row in rows}


@transaction.atomic
def game_result_award(*, game_id: int) -> GameResult | None:
    """Pay a finished game's pot and XP and put it on the leaderboards, exactly once.

    Locks the result's row first: a second run, even at the same instant in another
    process, waits and then finds it awarded. The transfers, the XP events, the
    leaderboard rows and `awarded_at` commit together, or not at all. Every ledger key
    comes from the game id, so even a run that lost its lock cannot pay twice.
    Practice games get `awarded_at` and nothing else. A counting game also moves its
    players' ratings (rankings.ratings, which then takes the kind's lock) and may earn them
    trophies (rankings.trophies). None when no such result exists.
    """
    result = GameResult.objects.select_for_update().filter(game_id=game_id).first()
    if result is None or result.awarded_at is not None:
        return result
    seats = list(result.seats.select_related("user").order_by("seat"))
    if result.competitive:
        staked = _stakes_by_user(game_id)
        winners = [seat for seat in seats if seat.user_id and seat.credited_win]
        if staked:
            transfer = settle_pot(
                game_id=game_id, winners=[seat.user for seat in winners], key=f"award:{game_id}:pot"
            )
            paid = {
                entry.destination.user_id: entry.amount
                for entry in transfer.entries.select_related("destination")
            }
        else:
            paid = {}
        for seat in seats:
            if seat.user_id is None:
                continue  # robots earn nothing
            seat.staked = staked.get(seat.user_id, 0)
            seat.chips = paid.get(seat.user_id, 0)
            seat.xp = xp_for_game(
                players=result.players,
                pairs=result.pairs,
                deals_to_win=result.deals_to_win,
                won=seat.credited_win,
            )
            xp_award(
                user=seat.user,
                amount=seat.xp,
                reason=XpEvent.Reason.WON if seat.credited_win else XpEvent.Reason.LOST,
                key=f"award:{game_id}:xp:{seat.user_id}",
                game_id=game_id,
            )
        GameResultSeat.objects.bulk_update(seats, ["staked", "chips", "xp"])
        if result.counts:
            board_add(result, seats, sign=1)
            rating_award(result=result, seats=seats)
            trophies_award(result=result, seats=seats)
    result.awarded_at = timezone.now()
    result.save(update_fields=["awarded_at"])
    return result


def game_results_unawarded(*, older_than: timedelta = timedelta(0)) -> list[int]:
    """Game ids of results still waiting for their award, submitted before now - older_than."""
    return list(
        GameResult.objects.filter(
            awarded_at__isnull=True, submitted_at__lte=timezone.now() - older_than
        )
        .order_by("submitted_at")
        .values_list("game_id", flat=True)[:1000]
    )
