"""Reads of chips, XP, grades, leaderboards and a player's game statistics: with
rankings.services, the one face the rest of the site reads rankings through. Names imported
"as themselves" below are read here from rankings' own modules."""

from dataclasses import dataclass
from datetime import UTC, date, datetime

from django.db.models import (
    Count,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Coalesce

from accounts.models import User
from rankings.arena_pots import PODIUM_SHARES as PODIUM_SHARES
from rankings.arena_pots import arena_pot_entered as arena_pot_entered
from rankings.arena_pots import arena_pot_paid as arena_pot_paid
from rankings.arena_pots import podium_split as podium_split
from rankings.grades import Grade, grade_for_xp, next_grade
from rankings.kinds import TABLE_KINDS, table_kind
from rankings.models import (
    VARIANTS,
    BoardCount,
    BoardRow,
    ChipAccount,
    ChipTransfer,
    GameResult,
    GameResultSeat,
    LedgerEntry,
    Rating,
    RatingChange,
    RatingKind,
    TrophyAward,
    XpEvent,
)
from rankings.rating_math import NEW, State, win_chances
from rankings.services import DAILY_BONUS_BELOW, board_periods, utc_today
from rankings.trophies import BY_CODE, Trophy


def chips_balance(*, user: User) -> int:
    """A player's chips; 0 for a player who never had any."""
    balance = ChipAccount.objects.filter(user=user).values_list("balance", flat=True).first()
    return balance or 0


def chips_daily_bonus_available(*, user: User, today: date | None = None) -> bool:
    today = today or utc_today()
    if chips_balance(user=user) >= DAILY_BONUS_BELOW:
        return False
    return not ChipTransfer.objects.filter(key=f"daily:{user.pk}:{today.isoformat()}").exists()


def ledger_entries_for(*, user: User) -> QuerySet[LedgerEntry]:
    """Every entry in or out of a player's account, newest first."""
    return (
        LedgerEntry.objects.filter(Q(source__user=user) | Q(destination__user=user))
        .select_related("transfer", "source__user", "destination__user")
        .order_by("-transfer__created_at", "-pk")
    )


def xp_total(*, user: User) -> int:
    return XpEvent.objects.filter(user=user).aggregate(total=Sum("amount"))["total"] or 0


def xp_history(*, user: User) -> list[tuple[datetime, int]]:
    """(time, XP total after it) for each award, oldest first."""
    total = 0
    points = []
    for created_at, amount in (
        XpEvent.objects.filter(user=user)
        .order_by("created_at", "pk")
        .values_list("created_at", "amount")
    ):
        total += amount
        points.append((created_at, total))
    return points


@dataclass(frozen=True)
class Standing:
    xp: int
    grade: Grade
    next_grade: Grade | None
    chips: int

    @property
    def xp_to_next(self) -> int | None:
        return None if self.next_grade is None else self.next_grade.min_xp - self.xp


def player_standing(*, user: User) -> Standing:
    xp = xp_total(user=user)
    grade = grade_for_xp(xp)
    return Standing(
        xp=xp, grade=grade, next_grade=next_grade(grade), chips=chips_balance(user=user)
    )


@dataclass(frozen=True)
class LedgerTotals:
    players: int
    pots: int
    bank: int
    granted: int  # chips ever created, net of what moderators took back: minus the grants balance

    @property
    def accounted(self) -> bool:
        return self.players + self.pots + self.bank == self.granted


def ledger_totals() -> LedgerTotals:
    sums = dict(
        ChipAccount.objects.values_list("kind").annotate(total=Sum("balance")).order_by("kind")
    )
    return LedgerTotals(
        players=sums.get(ChipAccount.Kind.PLAYER, 0),
        pots=sums.get(ChipAccount.Kind.POT, 0) + sums.get(ChipAccount.Kind.ARENA, 0),
        bank=sums.get(ChipAccount.Kind.BANK, 0),
        granted=-sums.get(ChipAccount.Kind.GRANTS, 0),
    )


def ledger_mismatches() -> list[tuple[ChipAccount, int]]:
    """Accounts whose cached balance differs from their entries: (account, from the entries)."""
    credits = dict(
        LedgerEntry.objects.values_list("destination").annotate(t=Sum("amount")).order_by()
    )
    debits = dict(LedgerEntry.objects.values_list("source").annotate(t=Sum("amount")).order_by())
    wrong = []
    for account in ChipAccount.objects.order_by("pk"):
        computed = credits.get(account.pk, 0) - debits.get(account.pk, 0)
        if computed != account.balance:
            wrong.append((account, computed))
    return wrong


# --- Leaderboards --------------------------------------------------------------------------

PER_PAGE = 50
# board → the leaderboard period it reads; "chips" ranks by chips (held, or won at a variant).
BOARDS: dict[str, str] = {
    "xp": BoardRow.Period.ALL,
    "week": BoardRow.Period.WEEK,
    "month": BoardRow.Period.MONTH,
    "chips": BoardRow.Period.ALL,
}
# The rating boards, per kind of table: the rating, and the rating gained over the window.
RATING_BOARDS = ("rating", "gain")


@dataclass(frozen=True)
class BoardLine:
    rank: int
    user: User
    value: int  # XP, chips held or chips won, a rating or a gain, as the board says
    games: int | None
    grade: Grade
    rating: int | None = None  # on the gain board: the rating now


@dataclass(frozen=True)
class BoardPage:
    board: str
    variant: str  # a variant, or on a rating board a kind of table
    page: int
    pages: int
    total: int
    lines: list[BoardLine]
    viewer_rank: int | None
    viewer_page: int | None

    @property
    def first_rank(self) -> int:
        return (self.page - 1) * PER_PAGE + 1


def _with_total_xp(users: QuerySet[User]) -> QuerySet[User]:
    """Each player with their whole XP (for their grade), from the (user, amount) index."""
    return users.annotate(
        total_xp=Coalesce(
            Subquery(
                XpEvent.objects.filter(user=OuterRef("pk"))
                .order_by()
                .values("user")
                .annotate(total=Sum("amount"))
                .values("total")
            ),
            Value(0),
        )
    )


def _board_scope(board: str, variant: str, today: date) -> tuple[str, date, str]:
    period = BOARDS[board]
    start = dict(board_periods(datetime(today.year, today.month, today.day, tzinfo=UTC)))[period]
    return period, start, variant


def _board_rows(board: str, variant: str, today: date) -> QuerySet[BoardRow]:
    period, start, variant = _board_scope(board, variant, today)
    # Exactly the rows of the partial indexes: active players with a counting game.
    return BoardRow.objects.filter(
        period=period, start=start, variant=variant, games__gt=0, active=True
    )


def _board_total(board: str, variant: str, today: date) -> int:
    """The players of a board, from the count the award keeps (never a count of its rows)."""
    if board in RATING_BOARDS:
        field = "players" if board == "rating" else "window_players"
        return RatingKind.objects.filter(kind=variant).values_list(field, flat=True).first() or 0
    # The chips board shows the players of the all-time board.
    period, start, variant = _board_scope("xp" if board == "chips" else board, variant, today)
    found = BoardCount.objects.filter(period=period, start=start, variant=variant)
    return found.values_list("players", flat=True).first() or 0


def _rich_accounts() -> QuerySet[ChipAccount]:
    # The all-time board's players, flagged on their accounts: the rows of one partial index.
    return ChipAccount.objects.filter(kind=ChipAccount.Kind.PLAYER, ranked=True)


def _rating_rows(board: str, kind: str) -> QuerySet[Rating]:
    # Exactly the rows of the rating boards' partial indexes: no provisional player.
    rows = Rating.objects.filter(kind=kind, provisional=False, active=True)
    if board == "gain":
        return rows.filter(window_games__gt=0).annotate(value_shown=F("window_gain"))
    return rows.annotate(value_shown=F("value"))


def leaderboard(
    *, board: str, variant: str = "", page: int = 1, viewer: User | None = None, today=None
) -> BoardPage:
    """One page of 50 of a leaderboard, and where `viewer` stands on it.

    Boards: "xp" (all time), "week", "month" (XP earned in counting games), "chips" (chips
    held; with a variant, chips won at it), and per kind of table (`variant` is then the
    kind) "rating" and "gain" (rating gained over the last days). `variant` "" is every
    variant together. Only registered, active players with a counting competitive game
    appear; on the rating boards, only players whose rating is no longer provisional. Five
    queries whatever the page and the number of players: the board's count (kept by the
    award), the page's rows, their players, the viewer's line and the viewer's rank.
    """
    if board not in BOARDS and board not in RATING_BOARDS:
        raise ValueError(f"no board {board!r}")
    if board in RATING_BOARDS:
        if variant not in dict(TABLE_KINDS):
            raise ValueError(f"no kind of table {variant!r}")
    elif variant and variant not in dict(VARIANTS):
        raise ValueError(f"no variant {variant!r}")
    today = today or utc_today()
    if board in RATING_BOARDS:
        rows = _rating_rows(board, variant).annotate(
            shown_games=F("window_games" if board == "gain" else "games")
        )
        order = [F("value_shown").desc(), "user_id"]
        fields = ("user_id", "value_shown", "shown_games", "value")
    elif board == "chips" and not variant:
        rows = _rich_accounts().annotate(
            value_shown=F("balance"), shown_games=Value(None, output_field=IntegerField())
        )
        order = [F("value_shown").desc(), "user_id"]
        fields = ("user_id", "value_shown", "shown_games", "shown_games")
    else:
        field = "chips" if board == "chips" else "xp"
        rows = _board_rows(board, variant, today).annotate(
            value_shown=F(field), shown_games=F("games")
        )
        order = [F("value_shown").desc(), "user_id"]
        fields = ("user_id", "value_shown", "shown_games", "shown_games")
    total = _board_total(board, variant, today)
    pages = max(1, -(-total // PER_PAGE))
    page = min(max(1, page), pages)
    offset = (page - 1) * PER_PAGE
    found = list(rows.order_by(*order).values_list(*fields)[offset : offset + PER_PAGE])
    # The players of the page in a query of their own: the page's rows come from the index.
    users = _with_total_xp(User.objects.filter(pk__in=[user_id for user_id, *_rest in found]))
    by_pk = {user.pk: user for user in users}
    lines = [
        BoardLine(
            rank=offset + number + 1,
            user=by_pk[user_id],
            value=value,
            games=games,
            grade=grade_for_xp(by_pk[user_id].total_xp),
            rating=rating if board == "gain" else None,
        )
        for number, (user_id, value, games, rating) in enumerate(found)
    ]
    viewer_rank = None
    if viewer is not None and viewer.is_authenticated:
        mine = rows.filter(user=viewer).values_list("value_shown", flat=True).first()
        if mine is not None:
            ahead = rows.filter(
                Q(value_shown__gt=mine) | Q(value_shown=mine, user_id__lt=viewer.pk)
            ).count()
            viewer_rank = ahead + 1
    return BoardPage(
        board=board,
        variant=variant,
        page=page,
        pages=pages,
        total=total,
        lines=lines,
        viewer_rank=viewer_rank,
        viewer_page=None if viewer_rank is None else (viewer_rank - 1) // PER_PAGE + 1,
    )


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
