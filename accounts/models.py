"""Players: the user, their friendships, the addresses they log in from, and moderation.

Models stay thin: fields, constraints and small properties. Writes live in
`accounts/services.py`, reads in `accounts/selectors.py`.
"""

from datetime import UTC

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.validators import username_validator


class User(AbstractUser):
    """A player or a moderator. Usernames are unique whatever their case.

    A ban sets `is_active` off (so every session ends at once) and keeps its reason, which
    the login page shows. A mute only stops chat until `muted_until`.
    """

    username = models.CharField(
        _("username"),
        max_length=20,
        unique=True,
        validators=[username_validator],
        help_text=_("3 to 20 characters: letters, digits, _ and -."),
        error_messages={"unique": _("A player with that username already exists.")},
    )
    language = models.CharField(
        _("language"),
        max_length=8,
        blank=True,
        default="",
        choices=settings.LANGUAGES,
        help_text=_("Every page is shown in this language once you are logged in."),
    )
    banned_at = models.DateTimeField(_("banned at"), null=True, blank=True)
    ban_reason = models.TextField(_("ban reason"), blank=True, default="")
    muted_until = models.DateTimeField(_("muted until"), null=True, blank=True)
    mute_reason = models.TextField(_("mute reason"), blank=True, default="")
    # A visitor practising against robots without an account: no password, no chips, never
    # at a table with people, deleted once idle (games/table/guests.py).
    is_guest = models.BooleanField(_("guest"), default=False, db_default=False, editable=False)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique"),
            # A banned player is never active: the ban is what keeps them out.
            models.CheckConstraint(
                condition=models.Q(banned_at__isnull=True) | models.Q(is_active=False),
                name="accounts_user_banned_is_inactive",
            ),
        ]
        permissions = [
            ("ban_user", _("Can ban and unban players")),
            ("mute_user", _("Can mute and unmute players")),
        ]

    def get_absolute_url(self) -> str:
        return reverse("player_profile", args=[self.username])

    @property
    def is_banned(self) -> bool:
        return self.banned_at is not None

    @property
    def is_muted(self) -> bool:
        return self.muted_until is not None and self.muted_until > timezone.now()


class Friendship(models.Model):
    """One row per pair of players, stored with the lower pk first.

    Pending while only `requested_by` wants it; accepted once the other says yes. Declining
    or removing deletes the row, so either may ask again later.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        ACCEPTED = "accepted", _("Accepted")

    user_low = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    user_high = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.PENDING
    )
    created_at = models.DateTimeField(_("requested"), auto_now_add=True)
    accepted_at = models.DateTimeField(_("accepted"), null=True, blank=True)

    class Meta:
        verbose_name = _("friendship")
        verbose_name_plural = _("friendships")
        constraints = [
            models.UniqueConstraint(
                fields=["user_low", "user_high"], name="accounts_friendship_unique_pair"
            ),
            models.CheckConstraint(
                condition=models.Q(user_low__lt=models.F("user_high")),
                name="accounts_friendship_ordered_pair",
            ),
            models.CheckConstraint(
                condition=models.Q(requested_by=models.F("user_low"))
                | models.Q(requested_by=models.F("user_high")),
                name="accounts_friendship_requester_in_pair",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_low_id} – {self.user_high_id} ({self.status})"


class KnownIP(models.Model):
    """An address a player logged in from, and when they last did."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="known_ips"
    )
    ip_address = models.GenericIPAddressField(_("IP address"))
    first_seen = models.DateTimeField(_("first seen"), default=timezone.now)
    last_seen = models.DateTimeField(_("last seen"), default=timezone.now, db_index=True)
    logins = models.PositiveIntegerField(_("logins"), default=1)

    class Meta:
        ordering = ["-last_seen"]
        verbose_name = _("IP address")
        verbose_name_plural = _("IP addresses")
        constraints = [
            models.UniqueConstraint(fields=["user", "ip_address"], name="accounts_knownip_unique")
        ]
        indexes = [models.Index(fields=["ip_address"], name="accounts_knownip_ip_idx")]

    def __str__(self) -> str:
        return self.ip_address


class ModerationAction(models.Model):
    """Who did what to whom, when, and why. Written by the moderation services only.

    An action is on a player (`target`), on a game (`game_id`: excluded from the leaderboards
    or counted again) or on a table (`table_id`: closed). The ids are plain numbers, as in
    the ledger: accounts knows nothing of games.
    """

    class Kind(models.TextChoices):
        BAN = "ban", _("Ban")
        UNBAN = "unban", _("Unban")
        MUTE = "mute", _("Mute")
        UNMUTE = "unmute", _("Unmute")
        CHIPS = "chips", _("Chips adjustment")
        WARN = "warn", _("Warning")
        DISMISS = "dismiss", _("Report closed, no action")
        EXCLUDE = "exclude", _("Game excluded from the leaderboards")
        INCLUDE = "include", _("Game counted again")
        CLOSE = "close", _("Table closed")

    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="moderation_actions_taken",
        verbose_name=_("moderator"),
    )
    target = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="moderation_actions",
        verbose_name=_("player"),
    )
    game_id = models.BigIntegerField(_("game"), null=True, blank=True, db_index=True)
    table_id = models.BigIntegerField(_("table"), null=True, blank=True, db_index=True)
    kind = models.CharField(_("action"), max_length=8, choices=Kind.choices)
    reason = models.TextField(_("reason"), blank=True, default="")
    until = models.DateTimeField(_("until"), null=True, blank=True)
    amount = models.BigIntegerField(_("chips"), null=True, blank=True)
    created_at = models.DateTimeField(_("when"), default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("moderation action")
        verbose_name_plural = _("moderation actions")
        constraints = [
            # Every action is on something: a player, a game or a table.
            models.CheckConstraint(
                condition=models.Q(target__isnull=False)
                | models.Q(game_id__isnull=False)
                | models.Q(table_id__isnull=False),
                name="accounts_moderationaction_has_subject",
            ),
        ]

    def __str__(self) -> str:
        # What a moderator reads in the history: names and a time, never row ids.
        return gettext("%(action)s: %(player)s, by %(moderator)s, %(when)s") % {
            "action": self.get_kind_display(),
            "player": self.subject,
            "moderator": self.moderator.username,
            "when": f"{self.created_at.astimezone(UTC):%Y-%m-%d %H:%M} UTC",
        }

    @property
    def subject(self) -> str:
        """What the action was on, as a moderator names it: the player, the game or the table."""
        if self.target_id is not None:
            return self.target.username
        if self.game_id is not None:
            return gettext("game %(number)s") % {"number": self.game_id}
        return gettext("table %(number)s") % {"number": self.table_id}
