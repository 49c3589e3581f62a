"""The leaderboards: a page of a board, by period, variant or kind of table."""

from dataclasses import dataclass
from datetime import UTC, date, datetime

from django.db.models import (
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
from rankings.grades import Grade, grade_for_xp
from rankings.kinds import TABLE_KINDS
from rankings.models import (
    VARIANTS,
    BoardCount,
    BoardRow,
    ChipAccount,
    Rating,
    RatingKind,
    XpEvent,
)
from rankings.services import board_periods, utc_today

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
