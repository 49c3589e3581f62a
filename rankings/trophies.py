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

from rankings.kinds import TABLE_KINDS, table_kind
from rankings.models import BoardRow, GameResult, GameResultSeat, Rating, TrophyAward

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

    def _counting(self):
        """The player's seats in counting games that are on the leaderboards (awarded, or
        this one, being awarded)."""
        return GameResultSeat.objects.filter(
            Q(result__awarded_at__isnull=False) | Q(result=self.result),
            user_id=self.seat.user_id,
            result__competitive=True,
            result__exclusion="",
        )

    def _after(self) -> Q:
        """Results later than this one in game order."""
        return Q(result__finished_at__gt=self.result.finished_at) | Q(
            result__finished_at=self.result.finished_at, result__game_id__gt=self.result.game_id
        )

    @cached_property
    def games(self) -> int:
        """Counting games played, this one included: the all-time leaderboard's row, less
        the later games it holds (a game counted again is looked at as of its moment)."""
        row = BoardRow.objects.filter(
            period=BoardRow.Period.ALL, variant="", user_id=self.seat.user_id
        ).first()
        later = self._counting().filter(self._after()).count() if row else 0
        return row.games - later if row else 0

    @cached_property
    def streak(self) -> int:
        """Wins in a row in counting games, up to STREAK, ending with this one."""
        last = (
            self._counting()
            .exclude(self._after())
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

# The trophies whose rule reads only the player's counting games up to the moment (not a
# rating, which is read as it stands): a game counted again may give them where they belong.
AS_OF_THEIR_GAME = frozenset(
    trophy.code for trophy in TROPHIES if not trophy.code.startswith("rating_")
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


def trophies_recount(*, result: GameResult) -> list[TrophyAward]:
    """A game counted again (rankings.services.game_result_include) earns what it would
    have earned had it never been excluded: its players' trophies are looked at again for
    it and for each of their later counting games, in game order, as their awards did. A
    trophy a later game gave that depends only on the games so far (a first win, a feat, a
    streak, a number of games) is taken back first and given where it now belongs, so the
    trophies end up as if no game had been excluded, in whatever order the games are
    counted again. Once each, by the unique (player, trophy)."""
    players = list(result.seats.exclude(user=None).values_list("user_id", flat=True))
    later = list(
        GameResult.objects.filter(
            competitive=True,
            exclusion="",
            awarded_at__isnull=False,
            seats__user_id__in=players,
        )
        .filter(
            Q(finished_at__gt=result.finished_at)
            | Q(finished_at=result.finished_at, game_id__gte=result.game_id)
        )
        .distinct()
        .order_by("finished_at", "game_id")
    )
    # What a later game gave that this one may give first is given again in game order.
    TrophyAward.objects.filter(
        user_id__in=players,
        trophy__in=AS_OF_THEIR_GAME,
        game_id__in=[counting.game_id for counting in later],
    ).delete()
    earned = []
    for counting in later:
        seats = [seat for seat in counting.seats.order_by("seat") if seat.user_id in players]
        earned += trophies_award(result=counting, seats=seats)
    return earned


def trophies_withdraw(*, result: GameResult) -> int:
    """A game taken off the leaderboards (rankings.services.game_result_exclude) takes back
    the trophies it earned, as its rating change goes; its players' later counting games are
    then looked at again (`trophies_recount`), so that a trophy that game had given goes to
    the later game that now earns it: a first win becomes the next win. Counting the game
    again gives them back, once. How many trophies it took back."""
    players = list(result.seats.exclude(user=None).values_list("user_id", flat=True))
    taken, _ = TrophyAward.objects.filter(game_id=result.game_id, user_id__in=players).delete()
    trophies_recount(result=result)
    return taken


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
