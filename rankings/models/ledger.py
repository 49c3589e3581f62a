"""The chips ledger and the XP events.

Chips: every movement is a `LedgerEntry` from one `ChipAccount` to another, for a positive
amount, so every entry is a debit and a credit at once and chips can only move, never appear.
Entries belong to a `ChipTransfer`, one business operation with a reason and a unique
idempotency key. The only account allowed below zero is the single `grants` account, the
origin of every chip: the sum of all balances is always zero, and what the players, the pots
and the bank hold together equals minus the grants balance.

`ChipAccount.balance` is a cache of the entries, written only by the ledger
(rankings/ledger.py) under a row lock; `rankings.selectors.ledger_mismatches` recomputes it
from the entries.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


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
