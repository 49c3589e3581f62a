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

from collections import defaultdict
from collections.abc import Collection, Sequence
from datetime import UTC, date, datetime

from django.db import IntegrityError, transaction
from django.db.models import F, Sum
from django.utils.translation import gettext_lazy as _

from accounts.models import ModerationAction, User
from accounts.services import ModerationError, check_moderator_may_act
from rankings.models import ChipAccount, ChipTransfer, LedgerEntry, XpEvent

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


def _system_account(kind: str) -> ChipAccount:
    account, _created = ChipAccount.objects.get_or_create(kind=kind, user=None, game_id=None)
    return account


def _player_account(user: User) -> ChipAccount:
    account, _created = ChipAccount.objects.get_or_create(
        user=user, defaults={"kind": ChipAccount.Kind.PLAYER}
    )
    return account


def _pot_account(game_id: int) -> ChipAccount:
    account, _created = ChipAccount.objects.get_or_create(
        game_id=game_id, defaults={"kind": ChipAccount.Kind.POT}
    )
    return account


def _lock(*accounts: ChipAccount) -> dict[int, ChipAccount]:
    """Lock the accounts' rows in ascending pk order and return fresh copies by pk."""
    pks = sorted({account.pk for account in accounts})
    return {
        account.pk: account
        for account in ChipAccount.objects.select_for_update().filter(pk__in=pks).order_by("pk")
    }


def _existing(key: str, reason: str) -> ChipTransfer | None:
    transfer = ChipTransfer.objects.filter(key=key).first()
    if transfer is not None and transfer.reason != reason:
        raise IdempotencyKeyReused(f"key {key!r} was used for {transfer.reason}, not {reason}")
    return transfer


def _post(
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
        existing = _existing(key, reason)
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
    if amount <= 0:
        raise ValueError(f"a grant is a positive number of chips, not {amount}")
    grants, player = _system_account(ChipAccount.Kind.GRANTS), _player_account(user)
    locked = _lock(grants, player)
    existing = _existing(key, reason)
    if existing is not None:
        return existing
    return _post(
        key=key,
        reason=reason,
        locked=locked,
        movements=[(locked[grants.pk], locked[player.pk], amount)],
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
    grants, player = _system_account(ChipAccount.Kind.GRANTS), _player_account(user)
    locked = _lock(grants, player)
    if _existing(key, Reason.DAILY) is not None:
        raise DailyBonusAlreadyClaimed(f"the bonus for {today} was already given")
    if locked[player.pk].balance >= DAILY_BONUS_BELOW:
        raise DailyBonusNotNeeded(f"{locked[player.pk].balance} chips is not below 1,000")
    return _post(
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
    grants, player = _system_account(ChipAccount.Kind.GRANTS), _player_account(user)
    locked = _lock(grants, player)
    existing = _existing(key, Reason.ADJUST)
    if existing is not None:
        return existing, False
    source, destination = (grants, player) if amount > 0 else (player, grants)
    transfer = _post(
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


# --- Stakes and pots ---------------------------------------------------------------------


@transaction.atomic
def chips_stake(*, user: User, game_id: int, amount: int, key: str) -> ChipTransfer:
    """Move a player's stake into the game's pot.

    Raises `InsufficientChips` when the player holds less than the stake. Locks the player's
    account and the game's pot.
    """
    if amount <= 0:
        raise ValueError(f"a stake is a positive number of chips, not {amount}")
    player, pot = _player_account(user), _pot_account(game_id)
    locked = _lock(player, pot)
    existing = _existing(key, Reason.STAKE)
    if existing is not None:
        return existing
    return _post(
        key=key,
        reason=Reason.STAKE,
        locked=locked,
        movements=[(locked[player.pk], locked[pot.pk], amount)],
        game_id=game_id,
    )


def pot_split(pot: int, winners: int) -> tuple[int, int]:
    """(bank's part, each winner's share) of a pot; see the module docstring.

    >>> pot_split(100, 1)
    (25, 75)
    >>> pot_split(10, 2)
    (2, 4)
    >>> pot_split(6, 2)
    (2, 2)
    """
    cut = pot * BANK_CUT_PERCENT // 100
    share = (pot - cut) // winners
    return pot - share * winners, share


@transaction.atomic
def chips_pay_pot(*, game_id: int, winners: Sequence[User], key: str) -> ChipTransfer:
    """Pay the whole pot out: 25% to the bank, the rest shared by the winners.

    Locks the pot, the bank and every winner's account.
    """
    if not winners:
        raise ValueError("a pot is paid to at least one winner")
    if len({winner.pk for winner in winners}) != len(winners):
        raise ValueError("a winner is listed twice")
    pot, bank = _pot_account(game_id), _system_account(ChipAccount.Kind.BANK)
    players = [_player_account(winner) for winner in winners]
    locked = _lock(pot, bank, *players)
    existing = _existing(key, Reason.PAYOUT)
    if existing is not None:
        return existing
    bank_part, share = pot_split(locked[pot.pk].balance, len(players))
    movements = [(locked[pot.pk], locked[bank.pk], bank_part)]
    movements += [(locked[pot.pk], locked[player.pk], share) for player in players]
    return _post(key=key, reason=Reason.PAYOUT, locked=locked, movements=movements, game_id=game_id)


def _stakes_in(pot: ChipAccount) -> dict[int, int]:
    """Chips staked into a pot, by the staking account's pk."""
    rows = (
        LedgerEntry.objects.filter(destination=pot, transfer__reason=Reason.STAKE)
        .values("source")
        .annotate(total=Sum("amount"))
        .order_by("source")
    )
    return {row["source"]: row["total"] for row in rows}


@transaction.atomic
def chips_refund(*, game_id: int, key: str, forfeit: Collection[User] = ()) -> ChipTransfer:
    """Give each stake back to its player, for a cancelled game.

    The stakes of the players in `forfeit` (the caller says who abandoned) go to the bank
    instead. Raises `PotAlreadySettled` when the pot no longer holds the stakes.
    Locks the pot, the bank and every staking player's account.
    """
    pot, bank = _pot_account(game_id), _system_account(ChipAccount.Kind.BANK)
    forfeit_pks = {user.pk for user in forfeit}
    stakes = _stakes_in(pot)
    locked = _lock(pot, bank, *ChipAccount.objects.filter(pk__in=stakes))
    # Read again under the pot's lock: no stake can arrive any more.
    stakes = _stakes_in(pot)
    if not set(stakes) <= set(locked):
        raise ChipsError("a stake arrived while the refund was starting; try again")
    existing = _existing(key, Reason.REFUND)
    if existing is not None:
        return existing
    if locked[pot.pk].balance != sum(stakes.values()):
        raise PotAlreadySettled(
            f"the pot holds {locked[pot.pk].balance} chips, the stakes were {sum(stakes.values())}"
        )
    movements = [
        (
            locked[pot.pk],
            locked[bank.pk] if locked[account_pk].user_id in forfeit_pks else locked[account_pk],
            amount,
        )
        for account_pk, amount in stakes.items()
    ]
    return _post(key=key, reason=Reason.REFUND, locked=locked, movements=movements, game_id=game_id)


# --- XP ------------------------------------------------------------------------------------


@transaction.atomic
def xp_award(
    *, user: User, amount: int, reason: str, key: str, game_id: int | None = None
) -> XpEvent:
    """Record an XP award, once per key: the same key again returns the first event.

    Locks nothing: an award only adds a row, and the unique key settles a race.
    """
    if amount <= 0:
        raise ValueError(f"an XP award is positive, not {amount}")
    existing = XpEvent.objects.filter(key=key).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            return XpEvent.objects.create(
                user=user, amount=amount, reason=reason, key=key, game_id=game_id
            )
    except IntegrityError:
        existing = XpEvent.objects.filter(key=key).first()
        if existing is None:
            raise
        return existing
