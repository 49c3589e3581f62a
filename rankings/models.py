"""The chips ledger and the XP events.

Chips: every movement is a `LedgerEntry` from one `ChipAccount` to another, for a positive
amount, so every entry is a debit and a credit at once and chips can only move, never appear.
Entries belong to a `ChipTransfer`, one business operation with a reason and a unique
idempotency key. The only account allowed below zero is the single `grants` account, the
origin of every chip: the sum of all balances is always zero, and what the players, the pots
and the bank hold together equals minus the grants balance.

`ChipAccount.balance` is a cache of the entries, written only by `rankings.services` under a
row lock; `rankings.selectors.ledger_mismatches` recomputes it from the entries.
"""

from datetime import date

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engine.options import VARIANT_NAMES


class ChipAccount(models.Model):
    class Kind(models.TextChoices):
        PLAYER = "player", _("Player")
        POT = "pot", _("Game pot")
        ARENA = "arena", _("Arena pot")
        BANK = "bank", _("Bank")
        GRANTS = "grants", _("Grants")

    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="chip_account",
        verbose_name=_("player"),
    )
    # The game whose pot this is. A plain id: rankings sits below games and never imports it.
    game_id = models.BigIntegerField(_("game"), null=True, blank=True, unique=True)
    # The arena whose pot this is (games.arenas): a plain id too.
    arena_id = models.BigIntegerField(_("arena"), null=True, blank=True, unique=True)
    balance = models.BigIntegerField(_("balance"), default=0, editable=False)
    # On the all-time leaderboard (a counting game, not banned): the chips board reads the
    # accounts' own index with it. Kept with the board's count by rankings.services.
    ranked = models.BooleanField(
        _("on the leaderboards"), default=False, db_default=False, editable=False
    )

    class Meta:
        verbose_name = _("chip account")
        verbose_name_plural = _("chip accounts")
        permissions = [("adjust_chips", _("Can adjust a player's chips with a reason"))]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(balance__gte=0) | models.Q(kind="grants"),
                name="rankings_account_balance_not_negative",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(kind="player", user__isnull=False, game_id__isnull=True)
                    | models.Q(kind="pot", user__isnull=True, game_id__isnull=False)
                    | models.Q(kind="arena", user__isnull=True, game_id__isnull=True)
                    | models.Q(kind__in=["bank", "grants"], user__isnull=True, game_id__isnull=True)
                )
                & (
                    models.Q(kind="arena", arena_id__isnull=False) | models.Q(arena_id__isnull=True)
                ),
                name="rankings_account_owner_matches_kind",
            ),
            # One bank and one grants account for the whole site.
            models.UniqueConstraint(
                fields=["kind"],
                condition=models.Q(kind__in=["bank", "grants"]),
                name="rankings_account_singletons",
            ),
        ]
        indexes = [
            # The leaderboard by chips reads players' accounts richest first.
            models.Index(
                models.F("balance").desc(),
                "user",
                condition=models.Q(kind="player"),
                name="rankings_account_richest_idx",
            ),
            # The chips leaderboard: a page and a rank from this index alone.
            models.Index(
                models.F("balance").desc(),
                "user",
                condition=models.Q(kind="player", ranked=True),
                name="rankings_account_ranked_idx",
            ),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.PLAYER:
            return f"{self.user}"
        if self.kind == self.Kind.POT:
            return f"{_('pot')} {self.game_id}"
        if self.kind == self.Kind.ARENA:
            return f"{_('arena pot')} {self.arena_id}"
        return str(self.get_kind_display())


class ChipTransfer(models.Model):
    """One operation on the ledger: a reason, a unique key, and the entries it made."""

    class Reason(models.TextChoices):
        SIGNUP = "signup", _("Starting grant")
        DAILY = "daily", _("Daily bonus")
        GRANT = "grant", _("Grant")
        ADJUST = "adjust", _("Moderator adjustment")
        STAKE = "stake", _("Stake")
        PAYOUT = "payout", _("Pot paid out")
        REFUND = "refund", _("Stakes refunded")
        ENTRY = "entry", _("Arena entry")
        PRIZE = "prize", _("Arena prize")

    key = models.CharField(_("idempotency key"), max_length=200)
    reason = models.CharField(_("reason"), max_length=8, choices=Reason.choices)
    memo = models.TextField(_("note"), blank=True, default="")
    game_id = models.BigIntegerField(_("game"), null=True, blank=True, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("done by"),
    )
    created_at = models.DateTimeField(_("when"), default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("chip transfer")
        verbose_name_plural = _("chip transfers")
        constraints = [
            models.UniqueConstraint(fields=["key"], name="rankings_transfer_key_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.get_reason_display()} ({self.key})"


class LedgerEntry(models.Model):
    """`amount` chips from `source` to `destination`: a debit and a credit in one row."""

    transfer = models.ForeignKey(
        ChipTransfer, on_delete=models.PROTECT, related_name="entries", verbose_name=_("transfer")
    )
    source = models.ForeignKey(
        ChipAccount, on_delete=models.PROTECT, related_name="debits", verbose_name=_("from")
    )
    destination = models.ForeignKey(
        ChipAccount, on_delete=models.PROTECT, related_name="credits", verbose_name=_("to")
    )
    amount = models.PositiveBigIntegerField(_("chips"))

    class Meta:
        ordering = ["-transfer__created_at", "-pk"]
        verbose_name = _("ledger entry")
        verbose_name_plural = _("ledger entries")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount__gt=0), name="rankings_entry_amount_positive"
            ),
            models.CheckConstraint(
                condition=~models.Q(source=models.F("destination")),
                name="rankings_entry_between_two_accounts",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.amount}: {self.source} → {self.destination}"


class XpEvent(models.Model):
    """One award of experience. A player's XP is the sum of theirs."""

    class Reason(models.TextChoices):
        WON = "won", _("Game won")
        LOST = "lost", _("Game lost")
        ADJUST = "adjust", _("Moderator adjustment")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="xp_events",
        verbose_name=_("player"),
    )
    game_id = models.BigIntegerField(_("game"), null=True, blank=True, db_index=True)
    reason = models.CharField(_("reason"), max_length=8, choices=Reason.choices)
    amount = models.PositiveIntegerField(_("XP"))
    key = models.CharField(_("idempotency key"), max_length=200)
    created_at = models.DateTimeField(_("when"), default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("XP event")
        verbose_name_plural = _("XP events")
        constraints = [
            models.UniqueConstraint(fields=["key"], name="rankings_xp_key_unique"),
            models.CheckConstraint(
                condition=models.Q(amount__gt=0), name="rankings_xp_amount_positive"
            ),
        ]
        indexes = [
            models.Index(fields=["user", "created_at"], name="rankings_xp_user_time_idx"),
            # A player's XP total from the index alone: fifty of them on a leaderboard page.
            models.Index(fields=["user", "amount"], name="rankings_xp_user_amount_idx"),
        ]

    def __str__(self) -> str:
        return f"+{self.amount} XP {self.user} ({self.get_reason_display()})"


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
