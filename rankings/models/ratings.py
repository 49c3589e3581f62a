"""Ratings (openskill) per kind of table, each game's changes, and the trophies awarded."""

from datetime import date

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# --- Ratings (openskill) and trophies --------------------------------------------------------


class RatingKind(models.Model):
    """One kind of table's rating board. Its row is the kind's lock: an award, a rerun and
    the window's roll take it before any rating of the kind, so the kind's games are rated
    one after the other, in an order the rebuild can follow. It keeps the boards' counts."""

    kind = models.CharField(_("kind of table"), max_length=16, primary_key=True)
    # Players on the overall board (rated, not provisional, active) and on the window's.
    players = models.IntegerField(_("players on the board"), default=0)
    window_players = models.IntegerField(_("players on the last days' board"), default=0)
    # The first day (UTC) whose games count on the last days' board.
    window_start = models.DateField(_("window from"), default=date(1970, 1, 1))

    class Meta:
        verbose_name = _("rating board")
        verbose_name_plural = _("rating boards")

    def __str__(self) -> str:
        return self.kind


class Rating(models.Model):
    """A player's skill at one kind of table: openskill's mu and sigma after their last rated
    game, and what the boards read (the shown value, the gain over the window)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="ratings",
        verbose_name=_("player"),
    )
    kind = models.CharField(_("kind of table"), max_length=16)
    mu = models.FloatField("mu")
    sigma = models.FloatField("sigma")
    games = models.IntegerField(_("rated games"), default=0)
    value = models.IntegerField(_("rating"))
    provisional = models.BooleanField(_("provisional"), default=True)
    # Rating gained over the window's days, and how many rated games it comes from.
    window_gain = models.IntegerField(_("gained lately"), default=0)
    window_games = models.IntegerField(_("games lately"), default=0)
    # The player's `is_active`, as on BoardRow: a banned player leaves the rating boards.
    active = models.BooleanField(_("active"), default=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="rankings_rating_unique"),
        ]
        indexes = [
            # A page and a rank read these alone (index-only scans), as the XP boards do.
            models.Index(
                fields=["kind", "-value", "user"],
                include=["games"],
                condition=models.Q(provisional=False, active=True),
                name="rankings_rating_board_idx",
            ),
            models.Index(
                fields=["kind", "-window_gain", "user"],
                include=["value", "window_games"],
                condition=models.Q(provisional=False, active=True, window_games__gt=0),
                name="rankings_rating_window_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.kind}: {self.value}"


class RatingChange(models.Model):
    """What one rated game did to one player's rating: before and after. A player's history,
    and the state a rerun starts again from."""

    game_id = models.BigIntegerField(_("game"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("player"),
    )
    kind = models.CharField(_("kind of table"), max_length=16)
    # The game's place in its kind's order: (finished_at, game_id).
    finished_at = models.DateTimeField(_("finished"))
    mu = models.FloatField("mu")
    sigma = models.FloatField("sigma")
    games = models.IntegerField(_("rated games"))
    value_before = models.IntegerField(_("rating before"))
    value = models.IntegerField(_("rating"))
    provisional = models.BooleanField(_("provisional"))

    class Meta:
        ordering = ["finished_at", "game_id"]
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(
                fields=["game_id", "user"], name="rankings_rating_change_unique"
            ),
        ]
        indexes = [
            models.Index(
                fields=["user", "kind", "finished_at", "game_id"],
                name="rankings_rating_history_idx",
            ),
            models.Index(
                fields=["kind", "finished_at", "game_id"], name="rankings_rating_order_idx"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.kind} #{self.game_id}: {self.delta:+d}"

    @property
    def delta(self) -> int:
        return self.value - self.value_before


class TrophyAward(models.Model):
    """A trophy of rankings.trophies.TROPHIES, earned once by a player, in one game."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="trophies",
        verbose_name=_("player"),
    )
    trophy = models.CharField(_("trophy"), max_length=32)
    game_id = models.BigIntegerField(_("game"))
    earned_at = models.DateTimeField(_("earned"), default=timezone.now)

    class Meta:
        ordering = ["-earned_at", "-pk"]
        verbose_name = _("trophy")
        verbose_name_plural = _("trophies")
        constraints = [
            models.UniqueConstraint(fields=["user", "trophy"], name="rankings_trophy_once"),
        ]
        indexes = [models.Index(fields=["game_id"], name="rankings_trophy_game_idx")]

    def __str__(self) -> str:
        return f"{self.user}: {self.trophy}"
