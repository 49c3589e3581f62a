"""Tables and games as stored truth.

A `Table` holds the options of RULES.md §10, its master and its seats; it points at its
current (or last) `Game`. A game stores its record (NOTATION.md) plus who sat where. The
engine state is never stored: any process rebuilds it from `record`. Writes live in
`games/services.py`, reads in `games/selectors.py`.
"""

from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.engine.options import RULE_OPTIONS, VARIANT_NAMES, Options, Rules
from games.table.options import OPTION, Kind, variant_players

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
    # Set by the sweeper that hands the timer to a worker: no other sweep hands it out again
    # before then (if that worker dies, the timer fires again after it).
    deadline_claimed_until = models.DateTimeField(null=True, blank=True)
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


def _declared(name: str) -> dict[str, Any]:
    """A Table field's verbose name, default and choices (a choice of fixed codes), as the
    declaration of the table options gives them (games/table/options.py)."""
    option = OPTION[name]
    field: dict[str, Any] = {"verbose_name": option.label, "default": option.default}
    if option.kind is Kind.CHOICE and not callable(option.choices):
        field["choices"] = [(code, option.value_label(code)) for code in option.codes()]
    return field


class Table(models.Model):
    """A table of the lobby: its §10 options, its master, its seats and its current game.

    The table's row is the lock of everything that happens at it: every service that changes
    the table, its seats or its game takes it with `select_for_update()` first.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        CLOSED = "closed", _("Closed")

    # The options of RULES.md §10: names, defaults and labels from games/table/options.py.
    variant = models.CharField(max_length=16, **_declared("variant"))
    players = models.PositiveSmallIntegerField(**_declared("players"))
    pairs = models.BooleanField(**_declared("pairs"))
    rounds = models.PositiveSmallIntegerField(**_declared("rounds"))
    points_to_win = models.PositiveSmallIntegerField(**_declared("points_to_win"))
    move_time = models.PositiveSmallIntegerField(**_declared("move_time"))
    competitive = models.BooleanField(**_declared("competitive"))
    stake = models.PositiveIntegerField(**_declared("stake"))
    private = models.BooleanField(**_declared("private"))
    guests = models.BooleanField(**_declared("guests"))
    allow_tute = models.BooleanField(**_declared("allow_tute"))
    stock_play = models.CharField(max_length=16, **_declared("stock_play"))
    # A name from the robot registry (games.bots.bot_names()): the robots seated here.
    robot_level = models.CharField(max_length=32, **_declared("robot_level"))
    master = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="tables_mastered",
        verbose_name=_("master"),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.OPEN
    )
    # The game being played, or the last one played here (its summary stays on show).
    game = models.OneToOneField(
        Game,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="current_at",
        verbose_name=_("current game"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    # One more with every change pushed to the table's sockets (every push but chat), under
    # the table's lock: a client that sees a gap in it missed a push (docs/protocol.md).
    version = models.PositiveBigIntegerField(_("version"), default=0, editable=False)
    # Set when a moderator closes the table: the players are told why.
    close_reason = models.TextField(_("why closed"), blank=True, default="")
    # A rematch offered after game `game` ended: {"game": id, "by": user id, "accepted":
    # [user ids]} (games/table/rematch.py); empty when none is open.
    rematch = models.JSONField(_("rematch"), default=dict, blank=True, editable=False)
    # Opened by "Play now" (games/table/matchmaking.py): it starts by itself once full.
    matchmaking = models.BooleanField(_("opened by Play now"), default=False, editable=False)
    # A "Play now" player chose robots for the seats still empty at this time.
    robots_at = models.DateTimeField(_("robots fill the seats at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            *(
                models.CheckConstraint(
                    condition=models.Q(
                        **{
                            f"{name}__gte": OPTION[name].minimum,
                            f"{name}__lte": OPTION[name].maximum,
                        }
                    ),
                    name=f"games_table_{name}",
                )
                for name in ("players", "rounds", "points_to_win")
            ),
            # A stake is only ever played for at a competitive table.
            models.CheckConstraint(
                condition=models.Q(competitive=True) | models.Q(stake=0),
                name="games_table_stake_competitive",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "variant"]),
            models.Index(
                fields=["variant", "stake", "created_at"],
                name="games_table_matchmaking",
                condition=models.Q(matchmaking=True, status="open"),
            ),
        ]
        permissions = [("close_table", _("Can close tables"))]

    def __str__(self) -> str:
        return f"{self.get_variant_display()} table #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("table_detail", args=[self.pk])

    @property
    def rule_options(self) -> dict:
        """The options that change the rules, as a record's `options` (NOTATION.md)."""
        return {name: getattr(self, name) for name in RULE_OPTIONS}

    @property
    def rules(self) -> Rules:
        """The game played here, as the engine derives it from the table's options."""
        return Options.from_dict({**self.rule_options, "variant": self.variant}).rules


class TableSeat(models.Model):
    """A player, or a robot of a practice table, sitting in one seat of a table (seats are
    numbered as in the engine)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="table_seats",
        null=True,
        blank=True,
    )
    # A robot's registry name (practice tables); empty for a player.
    robot = models.CharField(_("robot"), max_length=32, blank=True, default="")
    # The address the player was last seen from at this table; copied into the game's seat
    # when the game starts.
    ip_address = models.GenericIPAddressField(_("IP address"), null=True, blank=True)
    sat_at = models.DateTimeField(_("sat down"), auto_now_add=True)

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="games_tableseat_unique_seat"),
            models.UniqueConstraint(fields=["table", "user"], name="games_tableseat_unique_user"),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False, robot="")
                | models.Q(user__isnull=True) & ~models.Q(robot=""),
                name="games_tableseat_user_or_robot",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.seat}: {self.user or self.robot}"


class Invitation(models.Model):
    """The master's invitation to sit at a table. The invited player accepts it by sitting,
    or declines it (`declined_at`)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="table_invitations",
        verbose_name=_("invited player"),
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("invited by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    declined_at = models.DateTimeField(_("declined"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="games_invitation_unique")
        ]

    def __str__(self) -> str:
        return f"{self.user} to {self.table}"


class ChatMessage(models.Model):
    """One line of a table's chat. Stored as typed; escaped whenever it is rendered."""

    MAX_LENGTH = 300

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_messages")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="chat_messages",
        verbose_name=_("author"),
    )
    text = models.CharField(_("text"), max_length=MAX_LENGTH)
    created_at = models.DateTimeField(_("sent"), auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        # The rate limit counts a user's latest messages.
        indexes = [models.Index(fields=["user", "created_at"])]

    def __str__(self) -> str:
        return f"{self.user}: {self.text[:40]}"


class CancelProposal(models.Model):
    """A seated player's proposal to cancel a running game (RULES.md §11): it passes when
    every human player accepts before `expires_at`; one refusal or the deadline ends it."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        ACCEPTED = "accepted", _("Accepted")
        REFUSED = "refused", _("Refused")
        EXPIRED = "expired", _("Expired")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="cancel_proposals")
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    # The ids of the players who accepted, the proposer first.
    accepted = models.JSONField(default=list)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game"],
                condition=models.Q(status="open"),
                name="games_one_open_cancel_proposal",
            )
        ]
        indexes = [
            models.Index(
                fields=["expires_at"],
                name="games_cancel_open_expiry",
                condition=models.Q(status="open"),
            )
        ]

    def __str__(self) -> str:
        return f"cancel {self.game} ({self.status})"


class ServerProcess(models.Model):
    """A running daphne process, alive while it beats: the sockets of one that stopped
    beating (killed) are swept away, and their players counted as gone."""

    id = models.UUIDField(primary_key=True)
    started_at = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"daphne {self.pk}"


class TableSocket(models.Model):
    """One open table socket of a logged-in user, in whichever process holds it: a player
    with none left at a running game is away."""

    channel_name = models.CharField(max_length=200, primary_key=True)
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="sockets")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    process = models.ForeignKey(ServerProcess, on_delete=models.CASCADE, related_name="sockets")
    connected_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["table", "user"])]

    def __str__(self) -> str:
        return f"{self.user} at {self.table}"


class UserSocket(models.Model):
    """One open site socket (`/ws/me/`, on every page) of a logged-in player: they are
    online while they have one. Swept with its process when that stops beating."""

    channel_name = models.CharField(max_length=200, primary_key=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    process = models.ForeignKey(
        ServerProcess, on_delete=models.CASCADE, related_name="user_sockets"
    )
    connected_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["user"], name="games_usersocket_user")]

    def __str__(self) -> str:
        return f"{self.user} online"


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
