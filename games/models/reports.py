"""Players' reports, and how a moderator decided them."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models.game import Game
from games.models.table import ChatMessage, Table


class Report(models.Model):
    """A player's report of a chat message or of a player at a table, and how a moderator
    decided it. Open while `decided_at` is empty. A player reports a message once, and only
    a few times an hour (`games.reports`); the decision is in the moderation log (`action`).
    """

    class Reason(models.TextChoices):
        INSULTS = "insults", _("Insults or harassment")
        CHEATING = "cheating", _("Cheating or collusion")
        SPAM = "spam", _("Spam or advertising")
        NAME = "name", _("An offensive username")
        OTHER = "other", _("Something else")

    class Decision(models.TextChoices):
        NONE = "none", _("No action")
        WARNING = "warning", _("Warning")
        MUTE = "mute", _("Mute")
        BAN = "ban", _("Ban")

    NOTE_LENGTH = 500

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="reports_sent",
        verbose_name=_("reported by"),
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="reports_received",
        verbose_name=_("player reported"),
    )
    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="reports", verbose_name=_("table")
    )
    message = models.ForeignKey(
        ChatMessage,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reports",
        verbose_name=_("chat message"),
    )
    # The game at the table when the report was sent.
    game = models.ForeignKey(
        Game,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reports",
        verbose_name=_("game"),
    )
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices)
    note = models.TextField(_("note"), blank=True, default="", max_length=NOTE_LENGTH)
    created_at = models.DateTimeField(_("sent"), auto_now_add=True, db_index=True)
    decision = models.CharField(
        _("decision"), max_length=8, choices=Decision.choices, blank=True, default=""
    )
    decision_note = models.TextField(_("moderator's reason"), blank=True, default="")
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    action = models.ForeignKey(
        "accounts.ModerationAction",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("moderation log"),
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        permissions = [("decide_report", _("Can decide on players' reports"))]
        constraints = [
            # Never two reports of the same message by the same player.
            models.UniqueConstraint(
                fields=["reporter", "message"],
                condition=models.Q(message__isnull=False),
                name="games_report_once_per_message",
            ),
            # Decided means all of it: the decision, who and when.
            models.CheckConstraint(
                condition=(
                    models.Q(decision="", decided_by__isnull=True, decided_at__isnull=True)
                    | (
                        ~models.Q(decision="")
                        & models.Q(decided_by__isnull=False, decided_at__isnull=False)
                    )
                ),
                name="games_report_decided_whole",
            ),
        ]
        indexes = [
            # The rate limit counts a player's latest reports.
            models.Index(fields=["reporter", "created_at"], name="games_report_sent_idx"),
            models.Index(
                fields=["created_at"],
                condition=models.Q(decided_at__isnull=True),
                name="games_report_open_idx",
            ),
        ]

    def __str__(self) -> str:
        return gettext("Report %(number)s on %(player)s") % {
            "number": self.pk,
            "player": self.reported.username,
        }

    @property
    def is_open(self) -> bool:
        return self.decided_at is None
