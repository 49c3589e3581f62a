"""An arena's pot on the chips ledger: each player's entry goes in, the podium is paid out.

An arena (games.arenas) is known here by its plain id, as a game is: rankings imports
nothing from games. The pot is paid as a game's pot is (rankings.services): the bank keeps
25% rounded down, the rest goes to the podium in the shares of `PODIUM_SHARES` (of the
places there are: two players share 5 to 3, one takes it all), whole chips each, rounded
down, and the chips the rounding leaves over go to the bank too (at most one a place). An
arena where no game counted has nobody on its podium: each entry goes back to its player
whole, and the bank takes nothing. Every chip of every entry thus ends in a prize, the bank
or a refund; the payout's memo writes the split out. Every function locks the accounts it
touches in ascending pk order and looks its idempotency key up under those locks, so the
same call twice (a task run again, a worker killed after its commit) moves chips once.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Sum

from accounts.models import User
from rankings.ledger import (
    BANK_CUT_PERCENT,
    Reason,
    existing_transfer,
    lock_accounts,
    player_account,
    post_transfer,
    system_account,
)
from rankings.models import ChipAccount, ChipTransfer, LedgerEntry
from rankings.pots import pay_in

# The first, second and third of the podium share what the bank leaves in these parts.
PODIUM_SHARES = (5, 3, 2)


def _arena_account(arena_id: int) -> ChipAccount:
    account, _created = ChipAccount.objects.get_or_create(
        arena_id=arena_id, defaults={"kind": ChipAccount.Kind.ARENA}
    )
    return account


def arena_pot_entered(*, arena_id: int) -> int:
    """Every chip the arena's entries put in its pot: what its `pot` shows, while it runs
    and after it was paid out (the pot's balance, 0 once paid, is not what a player asks)."""
    total = LedgerEntry.objects.filter(
        destination__arena_id=arena_id, transfer__reason=Reason.ENTRY
    ).aggregate(total=Sum("amount"))["total"]
    return total or 0


@dataclass(frozen=True)
class PotPaid:
    """Where an arena's pot went, read from the ledger: prizes + bank + refunds == the pot."""

    prizes: int
    bank: int
    refunds: int


def arena_pot_paid(*, arena_id: int) -> PotPaid | None:
    """Where the arena's pot went once it was paid out (None before)."""
    transfer = ChipTransfer.objects.filter(
        key=f"arena-payout:{arena_id}", reason__in=(Reason.PRIZE, Reason.REFUND)
    ).first()
    if transfer is None:
        return None
    parts = {"prizes": 0, "bank": 0, "refunds": 0}
    for kind, amount in transfer.entries.values_list("destination__kind", "amount"):
        if transfer.reason == Reason.REFUND:
            parts["refunds"] += amount
        elif kind == ChipAccount.Kind.BANK:
            parts["bank"] += amount
        else:
            parts["prizes"] += amount
    return PotPaid(**parts)


def podium_split(pot: int, places: int) -> tuple[int, list[int]]:
    """(the bank's part, each place's prize) of an arena's pot paid to `places` players.

    >>> podium_split(1000, 3)
    (250, [375, 225, 150])
    >>> podium_split(100, 2)
    (26, [46, 28])
    >>> podium_split(40, 2)  # 10 is the bank's cut, 1 the rounding's chip
    (11, [18, 11])
    >>> podium_split(7, 1)
    (1, [6])
    """
    cut = pot * BANK_CUT_PERCENT // 100
    shares = PODIUM_SHARES[:places]
    prizes = [(pot - cut) * share // sum(shares) for share in shares]
    return pot - sum(prizes), prizes


@transaction.atomic
def chips_arena_entry(*, user: User, arena_id: int, amount: int, key: str):
    """A player's entry into the arena's pot. Raises `InsufficientChips`. Locks the player's
    account and the arena's pot."""
    return pay_in(
        user=user,
        into=_arena_account(arena_id),
        amount=amount,
        key=key,
        reason=Reason.ENTRY,
        what="an entry",
        memo=f"arena {arena_id}",
    )


@transaction.atomic
def chips_arena_payout(*, arena_id: int, podium: Sequence[User], key: str):
    """Pay the arena's whole pot: the bank's 25% and the rounding's chips, the rest to
    `podium` (first place first; `podium_split`). With nobody on the podium (no game
    counted) each entry goes back to its player whole.
    Locks the pot, the bank and every account paid."""
    pot, bank = _arena_account(arena_id), system_account(ChipAccount.Kind.BANK)
    if podium:
        players = [player_account(user) for user in podium]
    else:
        entries = LedgerEntry.objects.filter(destination=pot, transfer__reason=Reason.ENTRY)
        players = list(ChipAccount.objects.filter(pk__in=entries.values("source")))
    locked = lock_accounts(pot, bank, *players)
    reason = Reason.PRIZE if podium else Reason.REFUND
    existing = existing_transfer(key, reason)
    if existing is not None:
        return existing
    memo = f"arena {arena_id}"
    if podium:
        balance = locked[pot.pk].balance
        bank_part, prizes = podium_split(balance, len(players))
        movements = [(locked[pot.pk], locked[bank.pk], bank_part)]
        movements += [
            (locked[pot.pk], locked[player.pk], prize)
            for player, prize in zip(players, prizes, strict=True)
        ]
        cut = balance * BANK_CUT_PERCENT // 100
        memo += (
            f": pot {balance}; bank {bank_part} ({BANK_CUT_PERCENT}% = {cut}, rounding "
            f"{bank_part - cut}); prizes {', '.join(str(prize) for prize in prizes)}"
        )
    else:
        movements = [
            (locked[pot.pk], locked[entry.source_id], entry.amount)
            for entry in LedgerEntry.objects.filter(destination=pot, transfer__reason=Reason.ENTRY)
        ]
        memo += ": no game counted, every entry refunded"
    return post_transfer(key=key, reason=reason, locked=locked, movements=movements, memo=memo)
