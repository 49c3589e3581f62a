"""The leaderboards' rows: a counting game added to (or taken back from) every row it
belongs to, and the moderators' exclusion and re-inclusion of a game.
"""

import logging
from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import ModerationAction, User
from accounts.services import ModerationError, moderation_log
from rankings.models import (
    BoardCount,
    BoardRow,
    ChipAccount,
    GameResult,
    GameResultSeat,
)
from rankings.ratings import ratings_count_again, ratings_rerun
from rankings.trophies import trophies_recount, trophies_withdraw

logger = logging.getLogger(__name__)
ALL_TIME = date(1970, 1, 1)


def board_periods(when: datetime) -> list[tuple[str, date]]:
    """The leaderboard periods a moment falls in: all time, its week (from Monday, UTC) and
    its month.

    >>> thursday = datetime(2026, 11, 26, 23, 0, tzinfo=UTC)
    >>> [(period, str(start)) for period, start in board_periods(thursday)]
    [('all', '1970-01-01'), ('week', '2026-11-23'), ('month', '2026-11-01')]
    """
    day = when.astimezone(UTC).date()
    return [
        (BoardRow.Period.ALL.value, ALL_TIME),
        (BoardRow.Period.WEEK.value, day - timedelta(days=day.weekday())),
        (BoardRow.Period.MONTH.value, day.replace(day=1)),
    ]


def board_add(result: GameResult, seats: Sequence[GameResultSeat], sign: int) -> None:
    """Add (sign 1) or take back (sign -1) a counting game's seats on every leaderboard row
    they belong to, in one statement. Rows are written in a fixed order, so two awards over
    the same players wait for each other instead of deadlocking."""
    rows = sorted(
        (seat.user_id, period, start, variant, seat)
        for seat in seats
        if seat.user_id is not None
        for period, start in board_periods(result.finished_at)
        for variant in ("", result.variant)
    )
    if not rows:
        return
    table = connection.ops.quote_name(BoardRow._meta.db_table)
    values = ", ".join(["(%s, %s, %s, %s, %s, %s, %s, %s, %s)"] * len(rows))
    params: list = []
    for user_id, period, start, variant, seat in rows:
        params += [
            period,
            start,
            variant,
            user_id,
            sign * seat.xp,
            sign,
            sign * int(seat.credited_win),
            sign * seat.chips_net,
            seat.user.is_active,
        ]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} "
            "(period, start, variant, user_id, xp, games, wins, chips, active) "
            f"VALUES {values} ON CONFLICT (period, start, variant, user_id) DO UPDATE SET "
            f"xp = {table}.xp + EXCLUDED.xp, games = {table}.games + EXCLUDED.games, "
            f"wins = {table}.wins + EXCLUDED.wins, chips = {table}.chips + EXCLUDED.chips "
            "RETURNING period, start, variant, user_id, games, active",
            params,
        )
        written = cursor.fetchall()
    # A row joins its board with its first game and leaves it with its last one taken back.
    counts: dict[tuple[str, date, str], int] = defaultdict(int)
    ranked = []
    for period, start, variant, user_id, games, active in written:
        if active and games == (1 if sign > 0 else 0):
            counts[(period, _as_date(start), variant)] += sign
            if period == BoardRow.Period.ALL and not variant:
                ranked.append(user_id)
    board_count_add(counts)
    if ranked:
        # The chips board's players are the all-time board's: their accounts say so.
        ChipAccount.objects.filter(kind=ChipAccount.Kind.PLAYER, user_id__in=ranked).update(
            ranked=sign > 0
        )


def _as_date(value) -> date:
    # SQLite hands a date back as its text.
    return value if isinstance(value, date) else date.fromisoformat(value)


def board_count_add(counts: dict[tuple[str, date, str], int]) -> None:
    """Add to the leaderboards' counts of players, in a fixed order (no deadlock)."""
    rows = sorted((key, delta) for key, delta in counts.items() if delta)
    if not rows:
        return
    table = connection.ops.quote_name(BoardCount._meta.db_table)
    params: list = []
    for (period, start, variant), delta in rows:
        params += [period, start, variant, delta]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (period, start, variant, players) VALUES "
            + ", ".join(["(%s, %s, %s, %s)"] * len(rows))
            + f" ON CONFLICT (period, start, variant) DO UPDATE SET "
            f"players = {table}.players + EXCLUDED.players",
            params,
        )


class NotOnAnyBoard(ModerationError):
    """A practice game is on no leaderboard: there is nothing to exclude or count again."""


def _locked_board_result(result: GameResult) -> GameResult:
    """The result's row, locked; a practice game, on no board, is refused (`NotOnAnyBoard`)."""
    locked = GameResult.objects.select_for_update().get(pk=result.pk)
    if not locked.competitive:
        raise NotOnAnyBoard(
            _("Game %(game)s is a practice game: it is on no leaderboard, so nothing changed.")
            % {"game": locked.game_id}
        )
    return locked


@transaction.atomic
def game_result_exclude(*, result: GameResult, moderator: User, reason: str) -> bool:
    """A moderator takes a game off the leaderboards (collusion). Its chips and XP stay
    paid; the result and its seats stay. False when it was already excluded. Raises
    `NotOnAnyBoard` for a practice game. Logs the exclusion (who, when, the game, why).

    Locks the result's row, so an award running at the same moment either counted the game
    first (and this takes it back) or finds it excluded. The game's kind is rated again from
    this game on, without it (rankings.ratings.ratings_rerun), and the trophies it earned go
    with it (rankings.trophies.trophies_withdraw).
    """
    reason = reason.strip()
    if not reason:
        raise ModerationError(_("Excluding a game needs a reason."))
    locked = _locked_board_result(result)
    if locked.exclusion:
        return False
    if locked.awarded_at is not None:
        board_add(locked, list(locked.seats.select_related("user").order_by("seat")), sign=-1)
    locked.exclusion = GameResult.Exclusion.MODERATOR
    locked.exclusion_note = reason
    locked.excluded_by = moderator
    locked.excluded_at = timezone.now()
    locked.save(update_fields=["exclusion", "exclusion_note", "excluded_by", "excluded_at"])
    if locked.awarded_at is not None:
        ratings_rerun(result=locked)
        trophies_withdraw(result=locked)
    moderation_log(
        moderator=moderator,
        kind=ModerationAction.Kind.EXCLUDE,
        reason=reason,
        game_id=locked.game_id,
    )
    return True


@transaction.atomic
def game_result_include(*, result: GameResult, moderator: User, reason: str) -> bool:
    """A moderator counts an excluded game again ("Count it again"): it goes back on every
    leaderboard row it belongs to, as if it had never been excluded. Works on a game
    excluded by a moderator or for a shared address. False when it was counting already.
    Raises `NotOnAnyBoard` for a practice game. Logs the re-inclusion.

    Locks the result's row: an award running at the same moment either finds the game
    counting (and puts it on the boards itself) or has already been and this adds it. The
    game's kind is rated again from this game on, with it (rankings.ratings), and it earns
    the trophies it would have earned (rankings.trophies.trophies_recount).
    """
    reason = reason.strip()
    if not reason:
        raise ModerationError(_("Counting a game again needs a reason."))
    locked = _locked_board_result(result)
    if not locked.exclusion:
        return False
    if locked.awarded_at is not None:
        board_add(locked, list(locked.seats.select_related("user").order_by("seat")), sign=1)
    locked.exclusion = ""
    locked.exclusion_note = ""
    locked.excluded_by = None
    locked.excluded_at = None
    locked.save(update_fields=["exclusion", "exclusion_note", "excluded_by", "excluded_at"])
    if locked.awarded_at is not None:
        ratings_count_again(result=locked)
        trophies_recount(result=locked)
    moderation_log(
        moderator=moderator,
        kind=ModerationAction.Kind.INCLUDE,
        reason=reason,
        game_id=locked.game_id,
    )
    return True
