"""Skill ratings, one per player and kind of table, rated by openskill after each counting game.

A rating changes only inside the award's transaction (`rating_award`) or a rerun
(`ratings_rerun`: a moderator's exclusion, a game awarded after a later one, the rebuild
command). Both take the kind's `RatingKind` row first, so a kind's games are rated one after
the other, and both rate in the same order, the game order: (finished_at, game_id). Each
game is rated by the one function `rate_game`, from the stored mu and sigma (floats that the
database keeps exactly), so a rebuild from the stored results reaches the same numbers.

What is shown is openskill's conservative ordinal (mu - 3 sigma), scaled: `shown_value`.
"""

from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta

from django.db import transaction
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Sum, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from accounts.models import User
from rankings.kinds import TABLE_KINDS, table_kind
from rankings.models import GameResult, GameResultSeat, Rating, RatingChange, RatingKind
from rankings.rating_math import NEW, State, rate_game

WINDOW_DAYS = 7


def _kind_filter(kind: str) -> Q:
    if not kind.startswith("tute"):
        return Q(variant=kind)
    players = int(kind[4])
    return Q(variant="tute", players=players, pairs=kind.endswith("pairs"))


def is_rated(result: GameResult, seats: Sequence[GameResultSeat]) -> bool:
    """A game moves ratings when it counts for the leaderboards and every seat is a player."""
    return result.counts and all(seat.user_id is not None for seat in seats)


def _window_from(kind_row: RatingKind) -> datetime:
    return datetime.combine(kind_row.window_start, time(0), tzinfo=UTC)


def _lock_kind(kind: str) -> RatingKind:
    """Take the kind's lock (its RatingKind row), creating the row the first time."""
    RatingKind.objects.get_or_create(
        kind=kind, defaults={"window_start": _window_start_for(timezone.now().date())}
    )
    return RatingKind.objects.select_for_update().get(kind=kind)


def _window_start_for(today: date) -> date:
    return today - timedelta(days=WINDOW_DAYS - 1)


def _eligible(rating: Rating | None) -> bool:
    return rating is not None and not rating.provisional and rating.active


def _after(result: GameResult) -> Q:
    """Changes of games that come after `result` in the game order (or are `result`)."""
    return Q(finished_at__gt=result.finished_at) | Q(
        finished_at=result.finished_at, game_id__gte=result.game_id
    )


def rating_award(*, result: GameResult, seats: Sequence[GameResultSeat]) -> None:
    """Rate a counting game, inside the award's transaction (which holds the result's row).

    Takes the kind's lock, then the players' ratings in user order. When a game that comes
    later in the game order was rated already (this one's award was late), reruns the kind
    from this game on, so the order stays the rebuild's.
    """
    if not is_rated(result, seats):
        return
    kind = table_kind(variant=result.variant, players=result.players, pairs=result.pairs)
    kind_row = _lock_kind(kind)
    _roll(kind_row, timezone.now().date())
    if RatingChange.objects.filter(_after(result), kind=kind).exists():
        _rerun(kind_row, since=result, being_awarded=result.game_id)
        return
    user_ids = sorted(seat.user_id for seat in seats)
    ratings = {
        rating.user_id: rating
        for rating in Rating.objects.select_for_update().filter(kind=kind, user_id__in=user_ids)
    }
    before = {
        user_id: (
            State(
                mu=ratings[user_id].mu, sigma=ratings[user_id].sigma, games=ratings[user_id].games
            )
            if user_id in ratings
            else NEW
        )
        for user_id in user_ids
    }
    after = rate_game(seats, before)
    RatingChange.objects.bulk_create(
        _change(result, kind, user_id, before[user_id], after[user_id]) for user_id in user_ids
    )
    in_window = result.finished_at >= _window_from(kind_row)
    active = dict(User.objects.filter(pk__in=user_ids).values_list("pk", "is_active"))
    players = window_players = 0
    for user_id in user_ids:
        rating = ratings.get(user_id)
        was, was_in_window = _eligible(rating), _eligible(rating) and rating.window_games > 0
        if rating is None:
            rating = Rating(user_id=user_id, kind=kind, active=active[user_id])
        state = after[user_id]
        gain = state.value - before[user_id].value
        rating.mu, rating.sigma, rating.games = state.mu, state.sigma, state.games
        rating.value, rating.provisional = state.value, state.provisional
        if in_window:
            rating.window_gain += gain
            rating.window_games += 1
        rating.save()
        players += _eligible(rating) - was
        window_players += (_eligible(rating) and rating.window_games > 0) - was_in_window
    if players or window_players:
        RatingKind.objects.filter(kind=kind).update(
            players=F("players") + players, window_players=F("window_players") + window_players
        )


def _change(result: GameResult, kind: str, user_id: int, before: State, after: State):
    return RatingChange(
        game_id=result.game_id,
        user_id=user_id,
        kind=kind,
        finished_at=result.finished_at,
        mu=after.mu,
        sigma=after.sigma,
        games=after.games,
        value_before=before.value,
        value=after.value,
        provisional=after.provisional,
    )


def rated_results(kind: str) -> QuerySet[GameResult]:
    """The results a kind's ratings come from, in the game order: awarded, counting, and
    with a player in every seat."""
    robot_seat = GameResultSeat.objects.filter(result=OuterRef("pk"), user__isnull=True)
    return (
        GameResult.objects.filter(_kind_filter(kind), competitive=True, exclusion="")
        .exclude(Exists(robot_seat))
        .order_by("finished_at", "game_id")
    )


def _rerun(kind_row: RatingKind, *, since: GameResult | None, being_awarded: int | None = None):
    """Rate again every game of the kind from `since` on (every game when None), under the
    kind's lock: take back their changes, start each player again from their last change
    before, and rate the games in the game order."""
    kind = kind_row.kind
    changes = RatingChange.objects.filter(kind=kind)
    results = rated_results(kind).filter(Q(awarded_at__isnull=False) | Q(game_id=being_awarded))
    if since is not None:
        changes = changes.filter(_after(since))
        results = results.filter(
            Q(finished_at__gt=since.finished_at)
            | Q(finished_at=since.finished_at, game_id__gte=since.game_id)
        )
    touched = set(changes.values_list("user_id", flat=True).distinct())
    changes.delete()
    games = list(results.prefetch_related("seats"))
    for result in games:
        touched.update(seat.user_id for seat in result.seats.all())
    state: dict[int, State] = {}
    # Each touched player's last change: one query, the same on every database.
    latest_first = Window(
        RowNumber(),
        partition_by=F("user_id"),
        order_by=[F("finished_at").desc(), F("game_id").desc()],
    )
    for change in (
        RatingChange.objects.filter(kind=kind, user_id__in=touched)
        .annotate(latest=latest_first)
        .filter(latest=1)
    ):
        state[change.user_id] = State(mu=change.mu, sigma=change.sigma, games=change.games)
    new_changes = []
    for result in games:
        seats = list(result.seats.all())
        before = {seat.user_id: state.get(seat.user_id, NEW) for seat in seats}
        after = rate_game(seats, before)
        for user_id in sorted(after):
            new_changes.append(_change(result, kind, user_id, before[user_id], after[user_id]))
        state.update(after)
    RatingChange.objects.bulk_create(new_changes, batch_size=2000)
    _write_ratings(kind_row, touched, state)


def _write_ratings(kind_row: RatingKind, users: set[int], state: dict[int, State]) -> None:
    """Set the touched players' ratings from their final state, their window from their
    changes, and count the kind's boards again."""
    kind = kind_row.kind
    Rating.objects.filter(kind=kind, user_id__in=users - set(state)).delete()
    window = {
        row["user_id"]: (row["gain"], row["games"])
        for row in RatingChange.objects.filter(
            kind=kind, user_id__in=list(state), finished_at__gte=_window_from(kind_row)
        )
        .values("user_id")
        .annotate(gain=Sum(F("value") - F("value_before")), games=Count("pk"))
        .order_by()
    }
    active = dict(User.objects.filter(pk__in=list(state)).values_list("pk", "is_active"))
    existing = {
        rating.user_id: rating
        for rating in Rating.objects.select_for_update().filter(kind=kind, user_id__in=list(state))
    }
    for user_id, now in state.items():
        rating = existing.get(user_id) or Rating(user_id=user_id, kind=kind)
        rating.mu, rating.sigma, rating.games = now.mu, now.sigma, now.games
        rating.value, rating.provisional = now.value, now.provisional
        rating.window_gain, rating.window_games = window.get(user_id, (0, 0))
        rating.active = active[user_id]
        existing[user_id] = rating
    Rating.objects.bulk_update(
        [r for r in existing.values() if r.pk],
        ["mu", "sigma", "games", "value", "provisional", "window_gain", "window_games", "active"],
        batch_size=2000,
    )
    Rating.objects.bulk_create([r for r in existing.values() if not r.pk], batch_size=2000)
    _recount(kind_row)


def _recount(kind_row: RatingKind) -> None:
    board = Rating.objects.filter(kind=kind_row.kind, provisional=False, active=True)
    kind_row.players = board.count()
    kind_row.window_players = board.filter(window_games__gt=0).count()
    kind_row.save(update_fields=["players", "window_players"])


def ratings_rerun(*, result: GameResult) -> None:
    """Rate the result's kind again from this game on (after a moderator's exclusion),
    inside the caller's transaction, which holds the result's row."""
    kind = table_kind(variant=result.variant, players=result.players, pairs=result.pairs)
    if not RatingChange.objects.filter(game_id=result.game_id).exists():
        return  # never rated: nothing after it depends on it
    _rerun(_lock_kind(kind), since=result)


def ratings_count_again(*, result: GameResult) -> None:
    """Rate the result's kind again from this game on, now that it counts again (a
    moderator's "Count it again"), inside the caller's transaction, which holds the
    result's row."""
    kind = table_kind(variant=result.variant, players=result.players, pairs=result.pairs)
    _rerun(_lock_kind(kind), since=result)


@transaction.atomic
def ratings_rebuild(*, kind: str) -> int:
    """Rebuild every rating of one kind from the stored results, in the game order.
    Returns how many games it rated."""
    kind_row = _lock_kind(kind)
    _roll(kind_row, timezone.now().date())
    Rating.objects.filter(kind=kind).delete()
    _rerun(kind_row, since=None)
    return RatingChange.objects.filter(kind=kind).values("game_id").distinct().count()


def _roll(kind_row: RatingKind, today: date) -> bool:
    """Move the kind's window to end today: the gains of the days that left it come off."""
    start = _window_start_for(today)
    if start <= kind_row.window_start:
        return False
    old = _window_from(kind_row)
    kind_row.window_start = start
    gone = (
        RatingChange.objects.filter(
            kind=kind_row.kind, finished_at__gte=old, finished_at__lt=_window_from(kind_row)
        )
        .values("user_id")
        .annotate(gain=Sum(F("value") - F("value_before")), games=Count("pk"))
        .order_by("user_id")
    )
    ratings = {
        rating.user_id: rating
        for rating in Rating.objects.select_for_update().filter(
            kind=kind_row.kind, user_id__in=[row["user_id"] for row in gone]
        )
    }
    for row in gone:
        rating = ratings[row["user_id"]]
        rating.window_gain -= row["gain"]
        rating.window_games -= row["games"]
    Rating.objects.bulk_update(list(ratings.values()), ["window_gain", "window_games"], 2000)
    kind_row.save(update_fields=["window_start"])
    _recount(kind_row)
    return True


def ratings_follow_is_active(*, user: User) -> None:
    """Copy a player's `is_active` onto their ratings (a ban takes them off the rating boards),
    under each kind's lock, and count the kind's boards again."""
    for kind in sorted(
        Rating.objects.filter(user=user)
        .exclude(active=user.is_active)
        .values_list("kind", flat=True)
    ):
        kind_row = _lock_kind(kind)
        Rating.objects.filter(user=user, kind=kind).update(active=user.is_active)
        _recount(kind_row)


def ratings_window_roll(*, today: date | None = None) -> int:
    """Move every kind's last-days window to end today (Celery beat runs it every ten minutes,
    `CELERY_BEAT_SCHEDULE` in tute_site/settings.py; a run
    that finds nothing to move changes nothing). Returns how many kinds moved."""

    today = today or timezone.now().date()
    moved = 0
    for kind, _label in TABLE_KINDS:
        with transaction.atomic():
            moved += _roll(_lock_kind(kind), today)
    return moved
