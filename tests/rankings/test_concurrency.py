"""Many transfers at once on PostgreSQL: each thread has its own connection and transaction.

Row locks taken in pk order must keep every balance right, with no deadlock and no chip
lost or made, and the same key racing itself must still move chips once.
"""

import random
import threading
from collections import Counter

import pytest
from django.db import connections

from rankings.models import ChipAccount, ChipTransfer
from rankings.selectors import chips_balance, ledger_mismatches, ledger_totals
from rankings.services import (
    InsufficientChips,
    chips_pay_pot,
    chips_refund,
    chips_stake,
)
from tests.support.factories import UserFactory
from tests.support.game_factories import GameFactory

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def run_together(jobs) -> list[BaseException]:
    """Start one thread per job at the same instant; return what they raised."""
    barrier = threading.Barrier(len(jobs))
    errors: list[BaseException] = []

    def run(job):
        try:
            barrier.wait()
            job()
        except BaseException as error:
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads), "a thread is stuck (deadlock?)"
    return errors


def test_fifty_concurrent_tables_staking_and_paying_out_lose_no_chip():
    # Few players, many tables: every player's account is fought over by several threads.
    players = [UserFactory(chips=200) for _player in range(8)]
    ChipAccount.objects.get_or_create(kind=ChipAccount.Kind.BANK)
    games = [GameFactory(stake=25) for _table in range(50)]
    rng = random.Random(12)
    seatings = [rng.sample(players, 2) for _game in games]
    outcomes = Counter()
    lock = threading.Lock()

    def table(game, seated):
        def play():
            staked = []
            for player in seated:
                key = f"stake:{game.pk}:{player.pk}"
                try:
                    chips_stake(user=player, game_id=game.pk, amount=25, key=key)
                    # A double submit racing the other threads must not move chips again.
                    chips_stake(user=player, game_id=game.pk, amount=25, key=key)
                    staked.append(player)
                except InsufficientChips:
                    with lock:
                        outcomes["short"] += 1
            if len(staked) == 2:
                chips_pay_pot(game_id=game.pk, winners=[staked[game.pk % 2]], key=f"pay:{game.pk}")
                result = "paid"
            else:
                chips_refund(game_id=game.pk, key=f"refund:{game.pk}", forfeit=[])
                result = "refunded"
            with lock:
                outcomes[result] += 1

        return play

    errors = run_together(
        [table(game, seated) for game, seated in zip(games, seatings, strict=True)]
    )

    assert errors == []
    assert outcomes["paid"] + outcomes["refunded"] == 50
    assert outcomes["paid"] > 0
    totals = ledger_totals()
    assert totals.granted == 8 * 200
    assert totals.players + totals.pots + totals.bank == 8 * 200
    assert totals.pots == 0
    assert ledger_mismatches() == []
    assert all(chips_balance(user=player) >= 0 for player in players)
    stakes_per_game = Counter(
        ChipTransfer.objects.filter(reason="stake").values_list("game_id", flat=True)
    )
    assert max(stakes_per_game.values()) == 2  # the double submits moved nothing
    assert ChipTransfer.objects.filter(reason="payout").count() == outcomes["paid"]
    print(f"\n50 tables: {dict(outcomes)}, bank {totals.bank}")


def test_fifty_threads_submitting_the_same_key_move_chips_once():
    player = UserFactory(chips=1000)
    game = GameFactory(stake=100)
    results = []

    def submit():
        results.append(chips_stake(user=player, game_id=game.pk, amount=100, key="same-click").pk)

    errors = run_together([submit] * 50)

    assert errors == []
    assert len(results) == 50 and len(set(results)) == 1
    assert chips_balance(user=player) == 900
    assert ChipAccount.objects.get(game_id=game.pk).balance == 100
    assert ledger_mismatches() == []
