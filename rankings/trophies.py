"""The trophies: a catalogue declared once, and the award that gives them.

Each trophy has a code (stored), a name, a description, a rule and an emblem for its icon
(rankings.svg.trophy_icon_svg). They are earned in counting competitive games only (never
in practice, nor in a game excluded from the leaderboards), inside the award's transaction,
once per player: `TrophyAward` is unique per player and trophy and names the game.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

from django.db.models import Q
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from rankings.models import (
    TABLE_KINDS,
    BoardRow,
    GameResult,
    GameResultSeat,
    Rating,
    TrophyAward,
)
from rankings.ratings import table_kind

STREAK = 5
RATING_MILESTONE = 1500


@dataclass
class Moment:
    """One player at the end of one counting game, as the rules see it."""

    result: GameResult
    seat: GameResultSeat

    @cached_property
    def kind(self) -> str:
        return table_kind(
            variant=self.result.variant, players=self.result.players, pairs=self.result.pairs
        )

    @cached_property
    def games(self) -> int:
        """Counting games played, this one included (the all-time leaderboard's row)."""
        row = BoardRow.objects.filter(
            period=BoardRow.Period.ALL, variant="", user_id=self.seat.user_id
        ).first()
        return row.games if row else 0

    @cached_property
    def streak(self) -> int:
        """Wins in a row in counting games, up to STREAK, ending with this one."""
        last = (
            GameResultSeat.objects.filter(
                user_id=self.seat.user_id,
                result__competitive=True,
                result__exclusion="",
                result__finished_at__lte=self.result.finished_at,
            )
            .filter(Q(result__awarded_at__isnull=False) | Q(result=self.result))
            .order_by("-result__finished_at", "-result__game_id")
            .values_list("won", "abandoned")[:STREAK]
        )
        streak = 0
        for won, abandoned in last:
            if not won or abandoned:
                break
            streak += 1
        return streak

    @cached_property
    def rating(self) -> Rating | None:
        return Rating.objects.filter(user_id=self.seat.user_id, kind=self.kind).first()


@dataclass(frozen=True)
class Trophy:
    code: str
    name: Promise
    description: Promise
    rule: Callable[[Moment], bool]
    emblem: str  # what rankings.svg draws on the cup: a number, a star, a suit…
    color: str


def _first_win(kind: str) -> Callable[[Moment], bool]:
    return lambda moment: moment.kind == kind and moment.seat.credited_win


_FIRST_WIN_NAMES = {
    "tute2": (_("First win: 2-player tute"), _("Win a game of tute for two.")),
    "tute3": (_("First win: 3-player tute"), _("Win a game of tute for three.")),
    "tute4": (_("First win: 4-player tute"), _("Win a game of tute for four, each alone.")),
    "tute4pairs": (_("First win: tute in pairs"), _("Win a game of tute in pairs.")),
    "habanero": (_("First win: habanero"), _("Win a game of habanero.")),
    "pocha": (_("First win: pocha"), _("Win a game of pocha.")),
}

TROPHIES: tuple[Trophy, ...] = (
    *(
        Trophy(
            f"first_win_{kind}",
            _FIRST_WIN_NAMES[kind][0],
            _FIRST_WIN_NAMES[kind][1],
            _first_win(kind),
            "1",
            "#b8860b",
        )
        for kind, _label in TABLE_KINDS
    ),
    Trophy(
        "cuarenta",
        _("Las cuarenta"),
        _("Sing las cuarenta: the king and knight of trumps."),
        lambda moment: "cuarenta" in moment.seat.feats,
        "40",
        "#a04000",
    ),
    Trophy(
        "tute",
        _("Tute!"),
        _("Declare a tute: the four kings or the four knights."),
        lambda moment: "tute" in moment.seat.feats,
        "T",
        "#6c3483",
    ),
    Trophy(
        "capote",
        _("Capote"),
        _("Declare a capote and take every trick."),
        lambda moment: "capote" in moment.seat.feats,
        "C",
        "#117864",
    ),
    Trophy(
        "games_10",
        _("Ten games"),
        _("Play 10 competitive games that count."),
        lambda moment: moment.games >= 10,
        "10",
        "#8c6d46",
    ),
    Trophy(
        "games_100",
        _("A hundred games"),
        _("Play 100 competitive games that count."),
        lambda moment: moment.games >= 100,
        "100",
        "#9aa3ad",
    ),
    Trophy(
        "games_1000",
        _("A thousand games"),
        _("Play 1,000 competitive games that count."),
        lambda moment: moment.games >= 1000,
        "1000",
        "#d4a017",
    ),
    Trophy(
        "streak_5",
        _("Five in a row"),
        _("Win 5 competitive games in a row."),
        lambda moment: moment.streak >= STREAK,
        "5",
        "#c0392b",
    ),
    Trophy(
        "rating_1500",
        _("Rated 1500"),
        _("Reach a rating of 1500 at a kind of table, once it is no longer provisional."),
        lambda moment: (
            moment.rating is not None
            and not moment.rating.provisional
            and moment.rating.value >= RATING_MILESTONE
        ),
        "★",
        "#2e86c1",
    ),
)

# Earned at an arena's end (games.arenas), never by a game alone: granted by `trophies_grant`.
ARENA_TROPHIES: tuple[Trophy, ...] = (
    Trophy(
        "arena_winner",
        _("Arena champion"),
        _("Finish first in an arena."),
        lambda moment: False,
        "1",
        "#d4a017",
    ),
    Trophy(
        "arena_podium",
        _("Arena podium"),
        _("Finish in the first three of an arena."),
        lambda moment: False,
        "3",
        "#cd7f32",
    ),
)

BY_CODE: dict[str, Trophy] = {trophy.code: trophy for trophy in (*TROPHIES, *ARENA_TROPHIES)}


def trophies_award(*, result: GameResult, seats: Sequence[GameResultSeat]) -> list[TrophyAward]:
    """Give each player of a counting game the trophies its end earns them, once each,
    inside the award's transaction (after the leaderboards and the ratings). Locks nothing:
    the unique (player, trophy) settles a race between two of a player's games."""
    if not result.counts:
        return []
    players = [seat for seat in seats if seat.user_id is not None]
    owned = set(
        TrophyAward.objects.filter(user_id__in=[seat.user_id for seat in players]).values_list(
            "user_id", "trophy"
        )
    )
    earned = []
    for seat in players:
        moment = Moment(result=result, seat=seat)
        for trophy in TROPHIES:
            if (seat.user_id, trophy.code) not in owned and trophy.rule(moment):
                earned.append(
                    TrophyAward(
                        user_id=seat.user_id,
                        trophy=trophy.code,
                        game_id=result.game_id,
                        earned_at=result.finished_at,
                    )
                )
    return TrophyAward.objects.bulk_create(earned, ignore_conflicts=True)


def trophies_grant(*, grants: Sequence[tuple[int, str, int]], earned_at) -> list[TrophyAward]:
    """Give trophies earned outside one game's award, each (user id, code, game id) once per
    player and trophy (the game is the one the profile links to). Locks nothing: the unique
    (player, trophy) settles a race, and a grant given again adds nothing."""
    return TrophyAward.objects.bulk_create(
        [
            TrophyAward(user_id=user_id, trophy=code, game_id=game_id, earned_at=earned_at)
            for user_id, code, game_id in grants
            if code in BY_CODE
        ],
        ignore_conflicts=True,
    )
