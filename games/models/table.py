"""A table of the lobby: its §10 options (declared in games/options.py), its master, its
seats, its current game, and what happens around it: invitations, chat and a proposal to
cancel its game."""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.engine.options import RULE_OPTIONS, Options, Rules
from games.models.game import Game
from games.options import OPTION, declared_field, options_at_rest


class Table(models.Model):
    """A table of the lobby: its §10 options, its master, its seats and its current game.

    The table's row is the lock of everything that happens at it: every service that changes
    the table, its seats or its game takes it with `select_for_update()` first.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        CLOSED = "closed", _("Closed")

    # The options of RULES.md §10: names, defaults and labels from games/options.py.
    variant = models.CharField(max_length=16, **declared_field("variant"))
    players = models.PositiveSmallIntegerField(**declared_field("players"))
    pairs = models.BooleanField(**declared_field("pairs"))
    rounds = models.PositiveSmallIntegerField(**declared_field("rounds"))
    points_to_win = models.PositiveSmallIntegerField(**declared_field("points_to_win"))
    move_time = models.PositiveSmallIntegerField(**declared_field("move_time"))
    competitive = models.BooleanField(**declared_field("competitive"))
    stake = models.PositiveIntegerField(**declared_field("stake"))
    private = models.BooleanField(**declared_field("private"))
    guests = models.BooleanField(**declared_field("guests"))
    allow_tute = models.BooleanField(**declared_field("allow_tute"))
    stock_play = models.CharField(max_length=16, **declared_field("stock_play"))
    # A name from the robot registry (games.bots.bot_names()): the robots seated here.
    robot_level = models.CharField(max_length=32, **declared_field("robot_level"))
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
    # Seated by an arena's pairing (games/table/seating.py `table_for_players`): it has no
    # master's requests (start, invite, options, robots): the arena pairs its players.
    arena_table = models.BooleanField(_("an arena's table"), default=False, editable=False)
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
        """The options that change the rules, as a record's `options` (NOTATION.md): each
        that does not apply to the table's game at rest, so no record of a 2-player game
        says "in pairs"."""
        stored = {name: getattr(self, name) for name in ("variant", *RULE_OPTIONS)}
        rest = options_at_rest(stored)
        return {name: rest[name] for name in RULE_OPTIONS}

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


def seats_share_address(seats) -> bool:
    """Whether two registered players of `seats` sat down from one IP address: their game
    counts for no ranking (RULES.md §12)."""
    addresses = [s.ip_address for s in seats if s.ip_address and s.user_id is not None]
    return len(addresses) != len(set(addresses))


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
