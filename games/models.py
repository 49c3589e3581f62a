"""Games as stored truth: a game's record (NOTATION.md) plus who sat where.

A table (lobby, options, live play) comes with the tables issue and will point at its current
game. The engine state is never stored: any process rebuilds it from `record`.
"""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class Variant(models.TextChoices):
    TUTE = "tute", "Tute"
    HABANERO = "habanero", "Habanero"
    POCHA = "pocha", "Pocha"


class Game(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    variant = models.CharField(_("variant"), max_length=16, choices=Variant.choices)
    # The table options that change the rules, as in a record's `options`.
    options = models.JSONField(_("options"), default=dict, blank=True)
    # The game record: deals and every action. The one source of truth for the game.
    record = models.JSONField(_("record"), default=dict, blank=True)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PLAYING
    )
    competitive = models.BooleanField(_("competitive"), default=True)
    stake = models.PositiveIntegerField(_("stake"), default=0)
    # Set when two seated players shared an IP address: such a game does not count in rankings.
    shared_ip = models.BooleanField(_("players shared an IP address"), default=False)
    # The engine's outcome once finished: {"winner": side or [sides], "score": [...]}.
    result = models.JSONField(_("result"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return f"{self.get_variant_display()} #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("game_detail", args=[self.pk])

    @property
    def players(self) -> int:
        return int(self.options.get("players", 2 if self.variant == Variant.HABANERO else 4))


class GameSeat(models.Model):
    """Who sat in one seat of a game: a registered player, or a robot."""

    class Outcome(models.TextChoices):
        WON = "won", pgettext_lazy("outcome of one game", "Won")
        LOST = "lost", pgettext_lazy("outcome of one game", "Lost")
        VOID = "void", pgettext_lazy("outcome of one game", "Void")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="game_seats",
    )
    robot = models.CharField(_("robot"), max_length=32, blank=True, default="")
    ip_address = models.GenericIPAddressField(_("IP address"), null=True, blank=True)
    outcome = models.CharField(_("outcome"), max_length=8, choices=Outcome.choices, blank=True)
    abandoned = models.BooleanField(_("abandoned"), default=False)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="games_seat_unique_per_game"),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) | ~models.Q(robot=""),
                name="games_seat_user_or_robot",
            ),
        ]

    def __str__(self) -> str:
        who = self.user.username if self.user_id else f"robot ({self.robot})"
        return f"{self.game} seat {self.seat}: {who}"
