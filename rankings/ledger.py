"""Writes to the chips ledger and to the XP events.

Every function is keyword-only and runs in one transaction. A function that moves chips
first takes a row lock (`select_for_update`) on every account it touches, in ascending pk
order, so two transfers over the same accounts wait for each other instead of deadlocking.
Only then does it look its idempotency key up: a second call with the same key, even one
racing the first, finds the first one's transfer and returns it without moving anything.

Rounding of a pot payout: the bank keeps 25% rounded down; the winners share the rest in
equal whole chips, and a chip that cannot be split evenly goes to the bank too. So every
winner of a pair gets exactly the same.
"""

import logging
from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, date, datetime

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext_lazy as _

from accounts.models import ModerationAction, User
from accounts.services import ModerationError, check_moderator_may_act
from rankings.models import (
    ChipAccount,
    ChipTransfer,
    LedgerEntry,
)

logger = logging.getLogger(__name__)

SIGNUP_GRANT = 1_000
DAILY_BONUS = 100
DAILY_BONUS_BELOW = 1_000
BANK_CUT_PERCENT = 25

Reason = ChipTransfer.Reason


class ChipsError(Exception):
    """Base of every refusal by the chips services."""


class InsufficientChips(ChipsError):
    """An account would go below zero: a player cannot afford a stake or an adjustment."""

    def __init__(self, *, account: ChipAccount, balance: int, needed: int):
        self.account = account
        self.balance = balance
        self.needed = needed
        super().__init__(f"{account} holds {balance} chips, {needed} needed")


class IdempotencyKeyReused(ChipsError):
    """The key was already used for a different kind of operation."""


class PotAlreadySettled(ChipsError):
    """The pot no longer holds the stakes: it was paid out or refunded under another key."""


class DailyBonusUnavailable(ChipsError):
    """The daily bonus cannot be given now."""


class DailyBonusAlreadyClaimed(DailyBonusUnavailable):
    pass


class DailyBonusNotNeeded(DailyBonusUnavailable):
    pass


# --- Accounts ----------------------------------------------------------------------------


def system_account(kind: str) -> ChipAccount:
    account, _created = ChipAccount.objects.get_or_create(kind=kind, user=None, game_id=None)
    return account


def player_account(user: User) -> ChipAccount:
    account, _created = ChipAccount.objects.get_or_create(
        user=user, defaults={"kind": ChipAccount.Kind.PLAYER}
    )
    return account


def pot_account(game_id: int) -> ChipAccount:
    account, _created = ChipAccount.objects.get_or_create(
        game_id=game_id, defaults={"kind": ChipAccount.Kind.POT}
    )
    return account


def lock_accounts(*accounts: ChipAccount) -> dict[int, ChipAccount]:
    """Lock the accounts' rows in ascending pk order and return fresh copies by pk."""
    pks = sorted({account.pk for account in accounts})
    return {
        account.pk: account
        for account in ChipAccount.objects.select_for_update().filter(pk__in=pks).order_by("pk")
    }


def existing_transfer(key: str, reason: str) -> ChipTransfer | None:
    transfer = ChipTransfer.objects.filter(key=key).first()
    if transfer is not None and transfer.reason != reason:
        raise IdempotencyKeyReused(f"key {key!r} was used for {transfer.reason}, not {reason}")
    return transfer


def post_transfer(
    *,
    key: str,
    reason: str,
    locked: dict[int, ChipAccount],
    movements: Sequence[tuple[ChipAccount, ChipAccount, int]],
    game_id: int | None = None,
    actor: User | None = None,
    memo: str = "",
) -> ChipTransfer:
    """Write one transfer and its entries and update the cached balances.

    The caller holds the row locks on every account in `movements` (`locked`, from `_lock`).
    Movements of zero chips are left out; a transfer may end up with no entry at all.
    """
    deltas: dict[int, int] = defaultdict(int)
    kept = []
    for source, destination, amount in movements:
        if amount < 0:
            raise ValueError(f"a movement cannot be negative: {amount}")
        if amount == 0:
            continue
        deltas[source.pk] -= amount
        deltas[destination.pk] += amount
        kept.append((source, destination, amount))
    for pk, delta in deltas.items():
        account = locked[pk]
        if account.kind != ChipAccount.Kind.GRANTS and account.balance + delta < 0:
            raise InsufficientChips(account=account, balance=account.balance, needed=-delta)
    try:
        with transaction.atomic():
            transfer = ChipTransfer.objects.create(
                key=key, reason=reason, game_id=game_id, actor=actor, memo=memo
            )
    except IntegrityError:
        # Only reachable when the same key races over other accounts than ours.
        existing = existing_transfer(key, reason)
        if existing is None:
            raise
        return existing
    LedgerEntry.objects.bulk_create(
        LedgerEntry(transfer=transfer, source=source, destination=destination, amount=amount)
        for source, destination, amount in kept
    )
    for pk, delta in deltas.items():
        if delta:
            ChipAccount.objects.filter(pk=pk).update(balance=F("balance") + delta)
            locked[pk].balance += delta
    return transfer


def move_once(
    *,
    source: ChipAccount,
    target: ChipAccount,
    amount: int,
    key: str,
    reason: str,
    what: str,
    **post,
) -> ChipTransfer:
    """Move ``amount`` chips from one account to another, once per key (``post``: the
    transfer's game, actor or memo). Raises `InsufficientChips`; locks both accounts."""
    if amount <= 0:
        raise ValueError(f"{what} is a positive number of chips, not {amount}")
    locked = lock_accounts(source, target)
    existing = existing_transfer(key, reason)
    if existing is not None:
        return existing
    return post_transfer(
        key=key,
        reason=reason,
        locked=locked,
        movements=[(locked[source.pk], locked[target.pk], amount)],
        **post,
    )


# --- Grants --------------------------------------------------------------------------------


@transaction.atomic
def chips_grant(
    *,
    user: User,
    amount: int,
    key: str,
    reason: str = Reason.GRANT,
    memo: str = "",
    actor: User | None = None,
) -> ChipTransfer:
    """Create `amount` chips for a player, from the grants account.

    Locks the grants account and the player's account.
    """
    return move_once(
        source=system_account(ChipAccount.Kind.GRANTS),
        target=player_account(user),
        amount=amount,
        key=key,
        reason=reason,
        what="a grant",
        actor=actor,
        memo=memo,
    )


def chips_signup_grant(*, user: User) -> ChipTransfer:
    """The starting 1,000 chips, once per player whatever calls it.

    Locks the grants account and the player's account.
    """
    return chips_grant(
        user=user, amount=SIGNUP_GRANT, key=f"signup:{user.pk}", reason=Reason.SIGNUP
    )


def utc_today() -> date:
    return datetime.now(UTC).date()


@transaction.atomic
def chips_daily_bonus(*, user: User, today: date | None = None) -> ChipTransfer:
    """Give 100 chips to a player below 1,000, once per calendar day (UTC).

    Raises `DailyBonusAlreadyClaimed` or `DailyBonusNotNeeded`. Locks the grants account and
    the player's account, so the balance it checks is the one it adds to.
    """
    today = today or utc_today()
    key = f"daily:{user.pk}:{today.isoformat()}"
    grants, player = system_account(ChipAccount.Kind.GRANTS), player_account(user)
    locked = lock_accounts(grants, player)
    if existing_transfer(key, Reason.DAILY) is not None:
        raise DailyBonusAlreadyClaimed(f"the bonus for {today} was already given")
    if locked[player.pk].balance >= DAILY_BONUS_BELOW:
        raise DailyBonusNotNeeded(f"{locked[player.pk].balance} chips is not below 1,000")
    return post_transfer(
        key=key,
        reason=Reason.DAILY,
        locked=locked,
        movements=[(locked[grants.pk], locked[player.pk], DAILY_BONUS)],
    )


def _adjust(
    *, user: User, amount: int, memo: str, actor: User, key: str
) -> tuple[ChipTransfer, bool]:
    """(the transfer, whether this call made it). Locks before it looks the key up, so a
    racing duplicate waits here and then finds the first one's transfer."""
    if not amount:
        raise ValueError("an adjustment moves at least one chip")
    if not memo.strip():
        raise ValueError("an adjustment needs a written reason")
    grants, player = system_account(ChipAccount.Kind.GRANTS), player_account(user)
    locked = lock_accounts(grants, player)
    existing = existing_transfer(key, Reason.ADJUST)
    if existing is not None:
        return existing, False
    source, destination = (grants, player) if amount > 0 else (player, grants)
    transfer = post_transfer(
        key=key,
        reason=Reason.ADJUST,
        locked=locked,
        movements=[(locked[source.pk], locked[destination.pk], abs(amount))],
        actor=actor,
        memo=memo.strip(),
    )
    return transfer, True


@transaction.atomic
def chips_adjust(*, user: User, amount: int, memo: str, actor: User, key: str) -> ChipTransfer:
    """A correction: positive adds chips from grants, negative returns them there.

    The written reason (`memo`) is required. Raises `InsufficientChips` when taking more
    than the player holds. Locks the grants account and the player's account.
    """
    transfer, _made = _adjust(user=user, amount=amount, memo=memo, actor=actor, key=key)
    return transfer


@transaction.atomic
def chips_adjust_by_moderator(
    *, user: User, moderator: User, amount: int, reason: str, key: str
) -> tuple[ChipTransfer, ModerationAction | None]:
    """A moderator's chips adjustment, logged once: (transfer, log entry or None).

    The same key again (a form submitted twice, even at the same instant) moves nothing and
    logs nothing: the second call waits for the first one's locks on the grants account and
    the player's account, then finds its transfer. Raises `ModerationError` or
    `InsufficientChips`.
    """
    if not reason.strip():
        raise ModerationError(_("A chips adjustment needs a reason."))
    check_moderator_may_act(moderator=moderator, user=user)
    transfer, made = _adjust(user=user, amount=amount, memo=reason, actor=moderator, key=key)
    if not made:
        return transfer, None
    action = ModerationAction.objects.create(
        moderator=moderator,
        target=user,
        kind=ModerationAction.Kind.CHIPS,
        reason=reason.strip(),
        amount=amount,
    )
    return transfer, action
