"""A game as stored truth: its record (NOTATION.md), who sat where, its actions as played and
its analysis. The engine state is never stored: any process rebuilds it from `record`."""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.engine.options import VARIANT_NAMES, Options, Rules
from games.options import variant_players

# The engine's variants as choices: Variant.TUTE is "tute", labelled "Tute".
Variant = models.TextChoices(
    "Variant", [(code.upper(), (code, name)) for code, name in VARIANT_NAMES.items()]
)


class Deadline(models.TextChoices):
    """What the server does when a game's move timer runs out."""

    MOVE = "move", _("a player's time to move")
    ROBOT = "robot", _("a robot's move")
    DEAL = "deal", _("the next deal")


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
    # The table the game was played at (none for games made outside a table, e.g. imports).
    table = models.ForeignKey(
        "Table",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="games",
        verbose_name=_("table"),
    )
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)
    # The game's one move timer (games/timers.py): when it runs out, the server acts for
    # `deadline_seat`. It was set at action count `deadline_count`: once the game has moved
    # on, it is stale and does nothing. Null while nobody is waited for.
    deadline_at = models.DateTimeField(_("deadline"), null=True, blank=True)
    deadline_kind = models.CharField(
        _("deadline kind"), max_length=8, choices=Deadline.choices, blank=True
    )
    deadline_seat = models.PositiveSmallIntegerField(_("deadline seat"), null=True, blank=True)
    deadline_count = models.PositiveIntegerField(_("deadline action count"), default=0)
    # How many actions the game has, across its deals. While it runs, `record` holds its
    # deals and the actions already folded in; the newer ones are `GameAction` rows, one a
    # move, so a move adds a row and never rewrites the record (games/table/record.py).
    action_count = models.PositiveIntegerField(_("actions"), default=0, editable=False)
    deal_count = models.PositiveSmallIntegerField(_("deals"), default=0, editable=False)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        indexes = [
            models.Index(
                fields=["deadline_at"],
                name="games_game_deadline",
                condition=models.Q(deadline_at__isnull=False),
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_variant_display()} #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("game_detail", args=[self.pk])

    @property
    def players(self) -> int:
        return int(self.options.get("players", variant_players(self.variant)))

    @property
    def rules(self) -> Rules:
        """The game played, as the engine derives it from the variant and the options."""
        return Options.from_dict({**self.options, "variant": self.variant}).rules


class GameAction(models.Model):
    """One action of a running game, in the order played: `number` counts from 1 across the
    game's deals, `deal` is the deal's index in the record. Folded into `Game.record` (and
    deleted) when the game ends."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    number = models.PositiveIntegerField()
    deal = models.PositiveSmallIntegerField()
    action = models.JSONField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="games_action_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.game} action {self.number}"


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
    # Move timers that ran out in a row; at three the robot keeps the seat until the player
    # acts again.
    timeouts = models.PositiveSmallIntegerField(_("timeouts in a row"), default=0)
    # The player's last socket closed during the game: a robot plays the seat until they come
    # back, and at `abandon_at` (the grace period's end) they have abandoned.
    away_since = models.DateTimeField(_("away since"), null=True, blank=True)
    abandon_at = models.DateTimeField(_("abandons at"), null=True, blank=True)
    # The game's action count when the player went away, and once they are back, what the
    # robot did in their name meanwhile (the seat's actions, as in the record), to tell them.
    away_count = models.PositiveIntegerField(_("actions when away"), null=True, blank=True)
    while_away = models.JSONField(_("played while away"), default=list, db_default=[], blank=True)
    # The player's decisions a robot made in this game: their time ran out, they were away,
    # they had abandoned, or the robot held the seat after three timeouts. Told to everyone.
    robot_decisions = models.PositiveIntegerField(
        _("decisions made by a robot"), default=0, db_default=0
    )

    class Meta:
        ordering = ["game", "seat"]
        indexes = [
            models.Index(
                fields=["abandon_at"],
                name="games_seat_abandon_at",
                condition=models.Q(abandon_at__isnull=False),
            )
        ]
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


class GameAnalysis(models.Model):
    """The strong robot's analysis of a finished game (games/bots/analysis.py), computed once
    by a low-priority task after the game ends: every decision's expected result, for the
    choice made and for the best choice, its mark, and each seat's accuracy."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, related_name="analysis", verbose_name=_("game")
    )
    data = models.JSONField(_("analysis"))
    seconds = models.FloatField(_("seconds spent"), default=0.0)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("game analysis")
        verbose_name_plural = _("game analyses")
        constraints = [models.UniqueConstraint(fields=["game"], name="games_analysis_one_per_game")]

    def __str__(self) -> str:
        return f"analysis of game #{self.game_id}"
