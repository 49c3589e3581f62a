"""Reads of chips, XP and a player's standing; the ledger's totals and mismatches."""

from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import (
    Q,
    QuerySet,
    Sum,
)

from accounts.models import User
from rankings.grades import Grade, grade_for_xp, next_grade
from rankings.models import (
    ChipAccount,
    ChipTransfer,
    LedgerEntry,
    XpEvent,
)
from rankings.services import DAILY_BONUS_BELOW, utc_today


def chips_balance(*, user: User) -> int:
    """A player's chips; 0 for a player who never had any."""
    balance = ChipAccount.objects.filter(user=user).values_list("balance", flat=True).first()
    return balance or 0


def chips_daily_bonus_available(*, user: User, today: date | None = None) -> bool:
    today = today or utc_today()
    if chips_balance(user=user) >= DAILY_BONUS_BELOW:
        return False
    return not ChipTransfer.objects.filter(key=f"daily:{user.pk}:{today.isoformat()}").exists()


def ledger_entries_for(*, user: User) -> QuerySet[LedgerEntry]:
    """Every entry in or out of a player's account, newest first."""
    return (
        LedgerEntry.objects.filter(Q(source__user=user) | Q(destination__user=user))
        .select_related("transfer", "source__user", "destination__user")
        .order_by("-transfer__created_at", "-pk")
    )


def xp_total(*, user: User) -> int:
    return XpEvent.objects.filter(user=user).aggregate(total=Sum("amount"))["total"] or 0


def xp_history(*, user: User) -> list[tuple[datetime, int]]:
    """(time, XP total after it) for each award, oldest first."""
    total = 0
    points = []
    for created_at, amount in (
        XpEvent.objects.filter(user=user)
        .order_by("created_at", "pk")
        .values_list("created_at", "amount")
    ):
        total += amount
        points.append((created_at, total))
    return points


@dataclass(frozen=True)
class Standing:
    xp: int
    grade: Grade
    next_grade: Grade | None
    chips: int

    @property
    def xp_to_next(self) -> int | None:
        return None if self.next_grade is None else self.next_grade.min_xp - self.xp


def player_standing(*, user: User) -> Standing:
    xp = xp_total(user=user)
    grade = grade_for_xp(xp)
    return Standing(
        xp=xp, grade=grade, next_grade=next_grade(grade), chips=chips_balance(user=user)
    )


@dataclass(frozen=True)
class LedgerTotals:
    players: int
    pots: int
    bank: int
    granted: int  # chips ever created, net of what moderators took back: minus the grants balance

    @property
    def accounted(self) -> bool:
        return self.players + self.pots + self.bank == self.granted


def ledger_totals() -> LedgerTotals:
    sums = dict(
        ChipAccount.objects.values_list("kind").annotate(total=Sum("balance")).order_by("kind")
    )
    return LedgerTotals(
        players=sums.get(ChipAccount.Kind.PLAYER, 0),
        pots=sums.get(ChipAccount.Kind.POT, 0) + sums.get(ChipAccount.Kind.ARENA, 0),
        bank=sums.get(ChipAccount.Kind.BANK, 0),
        granted=-sums.get(ChipAccount.Kind.GRANTS, 0),
    )


def ledger_mismatches() -> list[tuple[ChipAccount, int]]:
    """Accounts whose cached balance differs from their entries: (account, from the entries)."""
    credits = dict(
        LedgerEntry.objects.values_list("destination").annotate(t=Sum("amount")).order_by()
    )
    debits = dict(LedgerEntry.objects.values_list("source").annotate(t=Sum("amount")).order_by())
    wrong = []
    for account in ChipAccount.objects.order_by("pk"):
        computed = credits.get(account.pk, 0) - debits.get(account.pk, 0)
        if computed != account.balance:
            wrong.append((account, computed))
    return wrong
