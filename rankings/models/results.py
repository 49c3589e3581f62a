"""Game results as awarded, each seat's share, and the leaderboards' rows and counts."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engine.options import VARIANT_NAMES

# --- Game results, awards and the leaderboards ---------------------------------------------

# The variants a result may name, (code, name), as the engine declares them: rankings sits
# below the games app, but the engine is the ground floor every app may read.
VARIANTS: tuple[tuple[str, str], ...] = tuple(VARIANT_NAMES.items())


class GameResult(models.Model):
    """A finished game as the games app handed it over: what the awards are computed from.

    One per game (`game_id` is unique). The award task pays the pot and the XP once, and
    sets `awarded_at` in the same transaction. An excluded game still pays chips and XP
    but counts toward no leaderboard; nothing here is ever deleted.
    """

    class Exclusion(models.TextChoices):
        SAME_IP = "same_ip", _("Players shared an IP address")
        MODERATOR = "moderator", _("Excluded by a moderator")

    game_id = models.BigIntegerField(_("game"), unique=True)
    variant = models.CharField(_("variant"), max_length=16)
    players = models.PositiveSmallIntegerField(_("players"))
    pairs = models.BooleanField(_("pairs"), default=False)
    deals_to_win = models.PositiveSmallIntegerField(_("deals to win"), default=1)
    competitive = models.BooleanField(_("competitive"), default=True)
    stake = models.PositiveIntegerField(_("stake"), default=0)
    finished_at = models.DateTimeField(_("finished"))
    submitted_at = models.DateTimeField(_("submitted"), default=timezone.now)
    awarded_at = models.DateTimeField(_("awarded"), null=True, blank=True)
    exclusion = models.CharField(
        _("excluded"), max_length=16, choices=Exclusion.choices, blank=True, default=""
    )
    exclusion_note = models.TextField(_("why excluded"), blank=True, default="")
    excluded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("excluded by"),
    )
    excluded_at = models.DateTimeField(_("excluded at"), null=True, blank=True)

    class Meta:
        ordering = ["-finished_at", "-pk"]
        verbose_name = _("game result")
        verbose_name_plural = _("game results")
        permissions = [("exclude_gameresult", _("Can exclude a game from the leaderboards"))]
        indexes = [
            # The sweep looks for results still waiting for their award.
            models.Index(
                fields=["submitted_at"],
                condition=models.Q(awarded_at__isnull=True),
                name="rankings_result_unawarded_idx",
            ),
        ]

    def __str__(self) -> str:
        return gettext("Game %(number)s (%(variant)s)") % {
            "number": self.game_id,
            "variant": self.variant,
        }

    @property
    def counts(self) -> bool:
        """Whether the game counts toward the leaderboards."""
        return self.competitive and not self.exclusion


class GameResultSeat(models.Model):
    """One seat of a finished game, and what its player was awarded."""

    result = models.ForeignKey(
        GameResult, on_delete=models.PROTECT, related_name="seats", verbose_name=_("game")
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="game_results",
        verbose_name=_("player"),
    )
    side = models.PositiveSmallIntegerField(_("side"))
    won = models.BooleanField(_("side won"))
    abandoned = models.BooleanField(_("abandoned"), default=False)
    ip_address = models.GenericIPAddressField(_("IP address"), null=True, blank=True)
    # Filled by the award: what this seat's player staked, and the XP and pot share they got.
    staked = models.PositiveBigIntegerField(_("staked"), default=0)
    xp = models.PositiveIntegerField(_("XP"), default=0)
    chips = models.PositiveBigIntegerField(_("chips won"), default=0)
    # What the seat did that a trophy may ask for: "cuarenta", "tute", "capote" (games.feats).
    feats = models.JSONField(_("feats"), default=list, db_default=[], blank=True)

    class Meta:
        ordering = ["result", "seat"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["result", "seat"], name="rankings_result_seat_unique"),
        ]
        indexes = [models.Index(fields=["user", "result"], name="rankings_seat_user_idx")]

    def __str__(self) -> str:
        return f"{self.result} seat {self.seat}"

    @property
    def chips_net(self) -> int:
        return self.chips - self.staked

    @property
    def credited_win(self) -> bool:
        """A win for this player: their side won and they did not abandon."""
        return self.won and not self.abandoned


class BoardRow(models.Model):
    """A player's line on one leaderboard: XP, games, wins and chips won over one period,
    overall (`variant` "") or for one variant. Kept up to date by the award task, from
    counting games only, so a leaderboard page reads 50 rows from one index.
    """

    class Period(models.TextChoices):
        ALL = "all", _("All time")
        WEEK = "week", _("This week")
        MONTH = "month", _("This month")

    period = models.CharField(_("period"), max_length=8, choices=Period.choices)
    # The first day of the week (Monday) or month, UTC; a fixed date for all time.
    start = models.DateField(_("from"))
    variant = models.CharField(_("variant"), max_length=16, blank=True, default="")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="board_rows",
        verbose_name=_("player"),
    )
    xp = models.BigIntegerField(_("XP"), default=0)
    games = models.IntegerField(_("games"), default=0)
    wins = models.IntegerField(_("wins"), default=0)
    # Chips won from pots minus chips staked, in counting games.
    chips = models.BigIntegerField(_("chips won"), default=0)
    # The player's `is_active`, copied here (rankings.signals) so that a board never joins
    # the users: a banned player leaves every board.
    active = models.BooleanField(_("active"), default=True, db_default=True)

    class Meta:
        verbose_name = _("leaderboard row")
        verbose_name_plural = _("leaderboard rows")
        constraints = [
            models.UniqueConstraint(
                fields=["period", "start", "variant", "user"], name="rankings_board_row_unique"
            ),
        ]
        indexes = [
            # A page, a count and a rank read these alone (index-only scans): only the rows
            # that can show, and the columns a page needs.
            models.Index(
                fields=["period", "start", "variant", "-xp", "user"],
                include=["games", "chips"],
                condition=models.Q(games__gt=0, active=True),
                name="rankings_board_xp_idx",
            ),
            models.Index(
                fields=["period", "start", "variant", "-chips", "user"],
                include=["games", "xp"],
                condition=models.Q(games__gt=0, active=True),
                name="rankings_board_chips_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.period} {self.start} {self.variant or '*'} {self.user_id}: {self.xp}"


class BoardCount(models.Model):
    """How many players one XP or chips leaderboard shows (the rows of its partial index),
    kept by the award next to the rows, so that a page never counts 100,000 of them."""

    period = models.CharField(_("period"), max_length=8)
    start = models.DateField(_("from"))
    variant = models.CharField(_("variant"), max_length=16, blank=True, default="")
    players = models.IntegerField(_("players"), default=0)

    class Meta:
        verbose_name = _("leaderboard count")
        verbose_name_plural = _("leaderboard counts")
        constraints = [
            models.UniqueConstraint(
                fields=["period", "start", "variant"], name="rankings_board_count_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.period} {self.start} {self.variant or '*'}: {self.players}"
