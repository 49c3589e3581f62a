"""Arenas as stored truth: an arena, who joined it, the games it seated and what each scored.

An `Arena` runs from `starts_at` for `length`; no new game starts in its last `closing`; a
free player waits at most `pairing_wait` for a table without a repeat opponent. Each arena
game is an ordinary game at an ordinary table (games/table/), seated by the pairing
(games/arenas/pairing.py) and scored once when it ends (games/arenas/scoring.py). The
arena's row is the lock of everything that changes it: join, pause, pairing, scoring, end.
"""

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.models import Game, ServerProcess, Table
from games.options import RULE_NAMES, declared_field, options_at_rest

# The table options an arena sets for its tables (RULES.md §10); the rest are fixed.


class Arena(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Starts soon")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class Recurrence(models.TextChoices):
        NONE = "", _("Once")
        DAILY = "daily", _("Every day")
        WEEKLY = "weekly", _("Every week")

    name = models.CharField(_("name"), max_length=80)
    variant = models.CharField(max_length=16, **declared_field("variant"))
    players = models.PositiveSmallIntegerField(**declared_field("players"))
    pairs = models.BooleanField(**declared_field("pairs"))
    rounds = models.PositiveSmallIntegerField(**declared_field("rounds"))
    points_to_win = models.PositiveSmallIntegerField(**declared_field("points_to_win"))
    allow_tute = models.BooleanField(**declared_field("allow_tute"))
    stock_play = models.CharField(max_length=16, **declared_field("stock_play"))
    move_time = models.PositiveSmallIntegerField(**declared_field("move_time"))
    starts_at = models.DateTimeField(_("starts at"))
    length = models.DurationField(_("length"), default=timedelta(minutes=60))
    closing = models.DurationField(
        _("no new game in the last"),
        default=timedelta(minutes=3),
        help_text=_("Games still running then finish and count."),
    )
    pairing_wait = models.DurationField(
        _("longest wait for a new opponent"),
        default=timedelta(seconds=60),
        help_text=_("After this, a free player may meet their last opponent again."),
    )
    entry = models.PositiveIntegerField(
        _("entry stake"),
        default=0,
        help_text=_("Chips each player pays into the pot; the podium shares it."),
    )
    rating_min = models.PositiveIntegerField(_("lowest rating"), null=True, blank=True)
    rating_max = models.PositiveIntegerField(_("highest rating"), null=True, blank=True)
    recurrence = models.CharField(
        _("repeats"), max_length=8, choices=Recurrence.choices, blank=True, default=""
    )
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.SCHEDULED
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    # The arena that follows this one when it repeats (made when this one ends).
    next_arena = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="previous"
    )

    class Meta:
        ordering = ["-starts_at"]
        verbose_name = _("arena")
        verbose_name_plural = _("arenas")
        indexes = [models.Index(fields=["status", "starts_at"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(length__gt=timedelta(0)), name="arenas_length_positive"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        """Stored with each option that does not apply to its game at rest, however it is
        made (the admin's form, a repeat): a 2-player arena is never "in pairs"."""
        rest = options_at_rest({name: getattr(self, name) for name in RULE_NAMES})
        for name in RULE_NAMES:
            setattr(self, name, rest[name])
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("arena_detail", args=[self.pk])

    @property
    def minutes(self) -> float:
        """The length in minutes, as the pages say it (1.5, 60)."""
        value = self.length.total_seconds() / 60
        return int(value) if value == int(value) else round(value, 1)

    @property
    def ends_at(self):
        return self.starts_at + self.length

    @property
    def closes_at(self):
        """No new game is seated from then on."""
        return self.ends_at - self.closing

    @property
    def table_options(self) -> dict:
        """The options of each table the arena seats (games/options.py)."""
        return dict(
            options_at_rest({name: getattr(self, name) for name in RULE_NAMES}),
            move_time=self.move_time,
            # Every arena table counts, stakes nothing, is seated by the arena only, and may
            # be watched.
            competitive=True,
            stake=0,
            private=True,
            guests=True,
        )


class ArenaPlayer(models.Model):
    """A player who joined an arena: their score, games and streak, and whether they wait."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="players_joined")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="arena_entries"
    )
    score = models.PositiveIntegerField(_("score"), default=0)
    games = models.PositiveIntegerField(_("games"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    # Wins in a row up to now: from two on, a win scores double (RULES.md, arenas).
    streak = models.PositiveSmallIntegerField(_("wins in a row"), default=0)
    paused = models.BooleanField(_("paused"), default=False)
    # The game being played now, None while free.
    playing = models.ForeignKey(
        "ArenaGame", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # Free since (joined, came back, or their last game ended): the pairing's queue order.
    free_since = models.DateTimeField(_("free since"), null=True, blank=True)
    # The user ids met in the last game: not met again at once if others are free.
    last_opponents = models.JSONField(default=list, blank=True)
    ip_address = models.GenericIPAddressField(_("IP address"), null=True, blank=True)
    rating = models.IntegerField(_("rating"), default=0)
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)
    # 1, 2, 3 … once the arena is over.
    rank = models.PositiveIntegerField(_("final rank"), null=True, blank=True)

    class Meta:
        ordering = ["arena", "-score", "-wins", "games", "joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["arena", "user"], name="arenas_player_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.arena}"


class ArenaGame(models.Model):
    """One table the arena seated and its one game; `scored_at` once its result counted."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="games")
    table = models.OneToOneField(Table, on_delete=models.PROTECT, related_name="arena_game")
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="arena_game")
    created_at = models.DateTimeField(auto_now_add=True)
    scored_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["arena", "-created_at"]
        indexes = [
            models.Index(
                fields=["arena"], condition=models.Q(scored_at__isnull=True), name="arenas_unscored"
            )
        ]

    def __str__(self) -> str:
        return f"{self.arena}: {self.game}"


class ArenaResult(models.Model):
    """What one game scored one player: stored once (unique per game and player)."""

    arena_game = models.ForeignKey(ArenaGame, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(ArenaPlayer, on_delete=models.CASCADE, related_name="results")
    won = models.BooleanField(default=False)
    points = models.PositiveSmallIntegerField(default=0)
    doubled = models.BooleanField(default=False)  # won on a streak
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["player", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["arena_game", "player"], name="arenas_result_once_per_game"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.points}"


class ArenaSocket(models.Model):
    """An open arena socket of a logged-in player, in whichever daphne process holds it: only
    a player watching the arena is seated at a new table (one who left the page would be
    seated at a game they never see). A killed process's rows go with its `ServerProcess`."""

    channel_name = models.CharField(max_length=200, primary_key=True)
    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="sockets")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    process = models.ForeignKey(
        ServerProcess, on_delete=models.CASCADE, related_name="arena_sockets"
    )
    connected_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["arena", "user"])]

    def __str__(self) -> str:
        return f"{self.user} at {self.arena}"
