"""The chips ledger: grants, stakes, pots and refunds move chips and never make or lose any."""

import pytest
from django.db import IntegrityError, transaction

from rankings.models import ChipAccount, ChipTransfer, LedgerEntry
from rankings.selectors import chips_balance, ledger_mismatches, ledger_totals
from rankings.services import (
    IdempotencyKeyReused,
    InsufficientChips,
    PotAlreadySettled,
    chips_adjust,
    chips_grant,
    chips_pay_pot,
    chips_refund,
    chips_signup_grant,
    chips_stake,
)
from tests.support.factories import ModeratorFactory, UserFactory
from tests.support.game_factories import GameFactory

pytestmark = pytest.mark.django_db


def balances(*users) -> list[int]:
    return [chips_balance(user=user) for user in users]


def bank() -> int:
    return ChipAccount.objects.get(kind=ChipAccount.Kind.BANK).balance


def assert_books_balance():
    totals = ledger_totals()
    assert totals.accounted, totals
    assert ledger_mismatches() == []


def test_the_signup_grant_is_given_once_whatever_calls_it():
    player = UserFactory()
    first = chips_signup_grant(user=player)
    second = chips_signup_grant(user=player)
    assert first.pk == second.pk
    assert chips_balance(user=player) == 1000
    assert ledger_totals().granted == 1000
    assert_books_balance()


def test_a_stake_moves_chips_from_the_player_to_the_pot():
    player, game = UserFactory(chips=1000), GameFactory(stake=300)
    transfer = chips_stake(user=player, game_id=game.pk, amount=300, key="stake:1")
    assert chips_balance(user=player) == 700
    assert ChipAccount.objects.get(game_id=game.pk).balance == 300
    (entry,) = transfer.entries.all()
    assert (entry.source.user, entry.destination.game_id, entry.amount) == (player, game.pk, 300)
    assert transfer.reason == ChipTransfer.Reason.STAKE and transfer.game_id == game.pk
    assert_books_balance()


def test_a_stake_above_the_balance_is_refused_and_moves_nothing():
    player, game = UserFactory(chips=100), GameFactory()
    with pytest.raises(InsufficientChips) as refused:
        chips_stake(user=player, game_id=game.pk, amount=101, key="stake:too-much")
    assert (refused.value.balance, refused.value.needed) == (100, 101)
    assert chips_balance(user=player) == 100
    assert not ChipTransfer.objects.filter(key="stake:too-much").exists()
    assert_books_balance()


def test_a_player_with_no_chips_at_all_cannot_stake():
    with pytest.raises(InsufficientChips):
        chips_stake(user=UserFactory(), game_id=GameFactory().pk, amount=1, key="stake:broke")


def test_the_same_key_twice_moves_chips_once_and_returns_the_first_transfer():
    player, game = UserFactory(chips=1000), GameFactory()
    first = chips_stake(user=player, game_id=game.pk, amount=250, key="stake:double-click")
    second = chips_stake(user=player, game_id=game.pk, amount=250, key="stake:double-click")
    assert second.pk == first.pk
    assert chips_balance(user=player) == 750
    assert LedgerEntry.objects.filter(transfer__key="stake:double-click").count() == 1


def test_a_key_reused_for_another_operation_is_refused():
    player, game = UserFactory(chips=1000), GameFactory()
    chips_stake(user=player, game_id=game.pk, amount=10, key="reused")
    with pytest.raises(IdempotencyKeyReused):
        chips_pay_pot(game_id=game.pk, winners=[player], key="reused")
    assert ChipAccount.objects.get(game_id=game.pk).balance == 10


def test_the_database_refuses_a_negative_balance_and_a_duplicate_key():
    player = UserFactory(chips=10)
    with pytest.raises(IntegrityError), transaction.atomic():
        ChipAccount.objects.filter(user=player).update(balance=-1)
    transfer = ChipTransfer.objects.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        ChipTransfer.objects.create(key=transfer.key, reason=ChipTransfer.Reason.GRANT)
    with pytest.raises(IntegrityError), transaction.atomic():
        account = ChipAccount.objects.get(user=player)
        LedgerEntry.objects.create(transfer=transfer, source=account, destination=account, amount=1)


def test_the_winner_takes_the_pot_minus_a_quarter_for_the_bank():
    alice, bruno = UserFactory(chips=1000), UserFactory(chips=1000)
    game = GameFactory(stake=100)
    chips_stake(user=alice, game_id=game.pk, amount=100, key="g:a")
    chips_stake(user=bruno, game_id=game.pk, amount=100, key="g:b")
    chips_pay_pot(game_id=game.pk, winners=[alice], key="g:pay")
    assert balances(alice, bruno) == [1050, 900]
    assert bank() == 50
    assert ChipAccount.objects.get(game_id=game.pk).balance == 0
    assert_books_balance()


@pytest.mark.parametrize(
    "stake,each_winner,bank_part",
    [
        (100, 150, 100),  # pot 400: bank 100, 300 shared
        (7, 10, 8),  # pot 28: bank 7, 21 → 10 each, the odd chip to the bank
        (1, 1, 2),  # pot 4: bank 1, 3 → 1 each, the odd chip to the bank
    ],
)
def test_in_pairs_both_winners_get_the_same_and_the_odd_chip_goes_to_the_bank(
    stake, each_winner, bank_part
):
    players = [UserFactory(chips=1000) for _seat in range(4)]
    game = GameFactory(options={"players": 4, "pairs": True})
    for seat, player in enumerate(players):
        chips_stake(user=player, game_id=game.pk, amount=stake, key=f"pairs:{seat}")
    chips_pay_pot(game_id=game.pk, winners=[players[0], players[2]], key="pairs:pay")
    assert balances(*players) == [
        1000 - stake + each_winner,
        1000 - stake,
        1000 - stake + each_winner,
        1000 - stake,
    ]
    assert bank() == bank_part
    assert_books_balance()


def test_a_refund_gives_each_stake_back_except_to_who_abandoned():
    stayed, left, also_stayed = (UserFactory(chips=500) for _seat in range(3))
    game = GameFactory(status="cancelled", options={"players": 3})
    for seat, player in enumerate([stayed, left, also_stayed]):
        chips_stake(user=player, game_id=game.pk, amount=40 + seat, key=f"refund:{seat}")

    # The caller (the table) says who abandoned.
    chips_refund(game_id=game.pk, key="refund:cancel", forfeit=[left])
    assert balances(stayed, left, also_stayed) == [500, 500 - 41, 500]
    assert bank() == 41
    assert ChipAccount.objects.get(game_id=game.pk).balance == 0
    # Asking again with the same key changes nothing; with another key, the pot is empty.
    chips_refund(game_id=game.pk, key="refund:cancel", forfeit=[left])
    assert balances(stayed, left, also_stayed) == [500, 459, 500]
    with pytest.raises(PotAlreadySettled):
        chips_refund(game_id=game.pk, key="refund:again")
    assert_books_balance()


def test_a_refund_can_be_told_who_forfeits():
    one, two = UserFactory(chips=100), UserFactory(chips=100)
    game = GameFactory()
    chips_stake(user=one, game_id=game.pk, amount=30, key="f:1")
    chips_stake(user=two, game_id=game.pk, amount=30, key="f:2")
    chips_refund(game_id=game.pk, key="f:refund", forfeit=[two])
    assert balances(one, two) == [100, 70]
    # Nothing staked: nothing moves.
    chips_refund(game_id=GameFactory().pk, key="f:empty", forfeit=[])


def test_a_paid_pot_cannot_be_refunded():
    player = UserFactory(chips=100)
    game = GameFactory()
    chips_stake(user=player, game_id=game.pk, amount=10, key="p:1")
    chips_pay_pot(game_id=game.pk, winners=[player], key="p:pay")
    with pytest.raises(PotAlreadySettled):
        chips_refund(game_id=game.pk, key="p:refund")


def test_a_moderator_adjustment_adds_and_takes_back_through_the_grants_account():
    player, moderator = UserFactory(chips=100), ModeratorFactory()
    chips_adjust(
        user=player, amount=50, memo="Compensation for a crash", actor=moderator, key="a:1"
    )
    chips_adjust(user=player, amount=-120, memo="Bug abuse", actor=moderator, key="a:2")
    assert chips_balance(user=player) == 30
    assert ledger_totals().granted == 30
    with pytest.raises(InsufficientChips):
        chips_adjust(user=player, amount=-31, memo="Too much", actor=moderator, key="a:3")
    with pytest.raises(ValueError):
        chips_adjust(user=player, amount=5, memo="  ", actor=moderator, key="a:4")
    transfer = ChipTransfer.objects.get(key="a:2")
    assert (transfer.actor, transfer.memo, transfer.reason) == (moderator, "Bug abuse", "adjust")
    assert_books_balance()


def test_grants_and_stakes_refuse_zero_or_negative_amounts():
    player, game = UserFactory(chips=10), GameFactory()
    with pytest.raises(ValueError):
        chips_grant(user=player, amount=0, key="z:1")
    with pytest.raises(ValueError):
        chips_stake(user=player, game_id=game.pk, amount=-5, key="z:2")
    with pytest.raises(ValueError):
        chips_pay_pot(game_id=game.pk, winners=[], key="z:3")
    assert chips_balance(user=player) == 10
