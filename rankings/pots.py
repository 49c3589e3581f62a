"""Stakes and pots: a game's stakes into its pot, the pot paid to the winners (the bank's
cut first) or refunded. Built on the ledger's public functions (rankings/ledger.py).
"""

import logging
from collections.abc import Collection, Sequence

from django.db import transaction
from django.db.models import Sum

from accounts.models import User
from rankings.ledger import (
    BANK_CUT_PERCENT,
    ChipsError,
    PotAlreadySettled,
    Reason,
    existing_transfer,
    lock_accounts,
    move_once,
    player_account,
    post_transfer,
    pot_account,
    system_account,
)
from rankings.models import (
    ChipAccount,
    ChipTransfer,
    LedgerEntry,
)

logger = logging.getLogger(__name__)

# --- Stakes and pots ---------------------------------------------------------------------


def pay_in(*, user: User, into: ChipAccount, **move) -> ChipTransfer:
    """A player's chips into a pot: a stake, an arena's entry."""
    return move_once(source=player_account(user), target=into, **move)


@transaction.atomic
def chips_stake(*, user: User, game_id: int, amount: int, key: str) -> ChipTransfer:
    """Move a player's stake into the game's pot.

    Raises `InsufficientChips` when the player holds less than the stake. Locks the player's
    account and the game's pot.
    """
    into = pot_account(game_id)
    return pay_in(
        user=user,
        into=into,
        amount=amount,
        key=key,
        reason=Reason.STAKE,
        what="a stake",
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
    return settle_pot(game_id=game_id, winners=winners, key=key)


def settle_pot(*, game_id: int, winners: Sequence[User], key: str) -> ChipTransfer:
    """`chips_pay_pot`, where no winner at all (robots, or who abandoned) leaves the whole
    pot to the bank."""
    if len({winner.pk for winner in winners}) != len(winners):
        raise ValueError("a winner is listed twice")
    pot, bank = pot_account(game_id), system_account(ChipAccount.Kind.BANK)
    players = [player_account(winner) for winner in winners]
    locked = lock_accounts(pot, bank, *players)
    existing = existing_transfer(key, Reason.PAYOUT)
    if existing is not None:
        return existing
    if players:
        bank_part, share = pot_split(locked[pot.pk].balance, len(players))
    else:
        bank_part, share = locked[pot.pk].balance, 0
    movements = [(locked[pot.pk], locked[bank.pk], bank_part)]
    movements += [(locked[pot.pk], locked[player.pk], share) for player in players]
    return post_transfer(
        key=key, reason=Reason.PAYOUT, locked=locked, movements=movements, game_id=game_id
    )


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
    pot, bank = pot_account(game_id), system_account(ChipAccount.Kind.BANK)
    forfeit_pks = {user.pk for user in forfeit}
    stakes = _stakes_in(pot)
    locked = lock_accounts(pot, bank, *ChipAccount.objects.filter(pk__in=stakes))
    # Read again under the pot's lock: no stake can arrive any more.
    stakes = _stakes_in(pot)
    if not set(stakes) <= set(locked):
        raise ChipsError("a stake arrived while the refund was starting; try again")
    existing = existing_transfer(key, Reason.REFUND)
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
    return post_transfer(
        key=key, reason=Reason.REFUND, locked=locked, movements=movements, game_id=game_id
    )
