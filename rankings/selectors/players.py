"""A player's statistics, ratings and trophies; a game's ratings, trophies and payout."""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import (
    Count,
    Q,
)

from accounts.models import User
from rankings.kinds import TABLE_KINDS, table_kind
from rankings.models import (
    VARIANTS,
    GameResult,
    GameResultSeat,
    Rating,
    RatingChange,
    TrophyAward,
)
from rankings.rating_math import NEW, State, win_chances
from rankings.trophies import BY_CODE, Trophy

# --- A player's statistics, from the awards --------------------------------------------------


@dataclass(frozen=True)
class VariantStats:
    variant: str
    label: str
    games: int
    wins: int

    @property
    def win_rate(self) -> float | None:
        return None if not self.games else self.wins / self.games


def player_variant_stats(*, user: User) -> list[VariantStats]:
    """Competitive games awarded to `user`, and the ones they won, per variant (in the
    variants' order). Excluded games count here: they were played and paid."""
    rows = dict(
        (row["result__variant"], (row["games"], row["wins"]))
        for row in GameResultSeat.objects.filter(
            user=user, result__competitive=True, result__awarded_at__isnull=False
        )
        .values("result__variant")
        .annotate(games=Count("pk"), wins=Count("pk", filter=Q(won=True, abandoned=False)))
        .order_by()
    )
    return [VariantStats(variant, label, *rows.get(variant, (0, 0))) for variant, label in VARIANTS]


# --- Ratings and trophies ------------------------------------------------------------------


@dataclass(frozen=True)
class RatingLine:
    kind: str
    label: str
    value: int
    provisional: bool
    games: int
    last_change: int | None  # the change of the last rated game

    @property
    def shown(self) -> str:
        """The rating as players read it: "1520", or "1020?" while provisional."""
        return f"{self.value}?" if self.provisional else str(self.value)


def shown_rating(*, user: User, variant: str, players: int, pairs: bool) -> int:
    """The player's shown rating at a kind of table (a new player's if they have none)."""
    kind = table_kind(variant=variant, players=players, pairs=pairs)
    value = Rating.objects.filter(user=user, kind=kind).values_list("value", flat=True).first()
    return NEW.value if value is None else value


def player_ratings(*, user: User) -> list[RatingLine]:
    """A player's rating at each kind of table they were rated at, in the kinds' order."""
    ratings = {rating.kind: rating for rating in Rating.objects.filter(user=user)}
    last = {
        change.kind: change.delta
        for change in RatingChange.objects.filter(user=user).order_by("finished_at", "game_id")
    }
    return [
        RatingLine(
            kind=kind,
            label=str(label),
            value=ratings[kind].value,
            provisional=ratings[kind].provisional,
            games=ratings[kind].games,
            last_change=last.get(kind),
        )
        for kind, label in TABLE_KINDS
        if kind in ratings
    ]


def rating_history(*, user: User) -> dict[str, list[tuple[datetime, int]]]:
    """(time, rating after it) for each rated game, oldest first, per kind of table."""
    history: dict[str, list[tuple[datetime, int]]] = {}
    for kind, finished_at, value in (
        RatingChange.objects.filter(user=user)
        .order_by("finished_at", "game_id")
        .values_list("kind", "finished_at", "value")
    ):
        history.setdefault(kind, []).append((finished_at, value))
    return history


@dataclass(frozen=True)
class GameRating:
    """What one game did to one player's rating, for the end-of-game summary."""

    user_id: int
    value: int
    change: int
    provisional: bool

    @property
    def shown(self) -> str:
        return f"{self.value}?" if self.provisional else str(self.value)


def game_rating_changes(*, game_id: int) -> dict[int, GameRating]:
    """Each player's rating change in one game, by user id; empty when it rated nobody."""
    return {
        change.user_id: GameRating(
            user_id=change.user_id,
            value=change.value,
            change=change.delta,
            provisional=change.provisional,
        )
        for change in RatingChange.objects.filter(game_id=game_id)
    }


def game_trophies(*, game_id: int) -> dict[int, list[str]]:
    """The trophy codes each player earned in one game, by user id."""
    earned: dict[int, list[str]] = {}
    for user_id, code in (
        TrophyAward.objects.filter(game_id=game_id).order_by("pk").values_list("user_id", "trophy")
    ):
        earned.setdefault(user_id, []).append(code)
    return earned


@dataclass(frozen=True)
class SeatPayout:
    """What one seat's player staked and received in a finished game."""

    seat: int
    user_id: int | None
    staked: int
    chips: int
    xp: int


@dataclass(frozen=True)
class GamePayout:
    """A finished game's chips and XP as its summary shows them: the pot (every stake), the
    bank's share (what of the pot no player received), each seat's; and whether it counts
    for the leaderboards (`exclusion`: a `GameResult.Exclusion` value, or "")."""

    competitive: bool
    awarded: bool
    pot: int
    bank: int
    exclusion: str
    exclusion_note: str
    seats: list[SeatPayout]


def game_payout(*, game_id: int) -> GamePayout | None:
    """What a finished game paid, once its result was handed over (None before)."""
    result = GameResult.objects.filter(game_id=game_id).first()
    if result is None:
        return None
    seats = [
        SeatPayout(seat=s.seat, user_id=s.user_id, staked=s.staked, chips=s.chips, xp=s.xp)
        for s in result.seats.order_by("seat")
    ]
    pot = sum(s.staked for s in seats)
    awarded = result.awarded_at is not None
    return GamePayout(
        competitive=result.competitive,
        awarded=awarded,
        pot=pot,
        bank=pot - sum(s.chips for s in seats) if awarded else 0,
        exclusion=result.exclusion,
        exclusion_note=result.exclusion_note,
        seats=seats,
    )


def game_awarded(*, game_id: int) -> bool:
    """Whether a game's award has run (its ratings and trophies are then final)."""
    return GameResult.objects.filter(game_id=game_id, awarded_at__isnull=False).exists()


def player_trophies(*, user: User) -> list[TrophyAward]:
    """A player's trophies, newest first, in the catalogue's order on the same day."""
    return list(TrophyAward.objects.filter(user=user).order_by("-earned_at", "-pk"))


def win_chances_for(*, variant: str, players: int, pairs: bool, sides: list[list[int]]):
    """Each side's chance to win a game about to start, from its players' ratings at that
    kind of table (a player never rated there counts as new). `sides` holds user ids."""
    kind = table_kind(variant=variant, players=players, pairs=pairs)
    found = {
        rating.user_id: State(mu=rating.mu, sigma=rating.sigma, games=rating.games)
        for rating in Rating.objects.filter(
            kind=kind, user_id__in=[user_id for side in sides for user_id in side]
        )
    }
    return win_chances([[found.get(user_id, NEW) for user_id in side] for side in sides])


def trophy(code: str) -> Trophy | None:
    """The trophy of `code` (its name, its story, its icon), or None for a code no longer
    given."""
    return BY_CODE.get(code)
