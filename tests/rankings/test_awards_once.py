"""Exactly once on PostgreSQL: two processes awarding the same game at the same moment, and
a real Celery worker killed while it holds the award."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import DatabaseError, transaction

from rankings.models import ChipTransfer, GameResult, Rating, RatingChange, XpEvent
from rankings.selectors import chips_balance, ledger_mismatches, ledger_totals
from tests.accounts.factories import UserFactory
from tests.conftest import ROOT, database_url_for_tests, start_celery_worker, stop
from tests.rankings.awards import finish_game

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

AWARD_IN_A_PROCESS = (
    "import django, sys; django.setup(); "
    "from rankings.services import game_result_award; "
    "game_result_award(game_id=int(sys.argv[1])); print('finished')"
)


def child_env(**extra: str) -> dict:
    return {
        **os.environ,
        "DATABASE_URL": database_url_for_tests(),
        "DJANGO_SETTINGS_MODULE": "tute_site.settings",
        **extra,
    }


def wait_until_locked(result: GameResult, timeout: float = 60) -> None:
    """Return once another connection holds the result's row lock (the award is running)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with transaction.atomic():
                GameResult.objects.select_for_update(nowait=True).get(pk=result.pk)
        except DatabaseError:
            return
        time.sleep(0.1)
    raise AssertionError("nobody took the award's lock")


def wait_until_awarded(result: GameResult, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result.refresh_from_db()
        if result.awarded_at is not None:
            return
        time.sleep(0.2)
    raise AssertionError("the game was never awarded")


def assert_awarded_once(result, winner, loser) -> None:
    assert [chips_balance(user=winner), chips_balance(user=loser)] == [1050, 900]
    assert ChipTransfer.objects.filter(reason="payout", game_id=result.game_id).count() == 1
    assert XpEvent.objects.filter(game_id=result.game_id).count() == 2
    totals = ledger_totals()
    # Every chip granted is with a player or the bank: the pot's movements net out.
    assert totals.pots == 0 and totals.players + totals.bank == totals.granted == 2000
    assert ledger_mismatches() == []
    # The ratings moved once: one change each, one rated game each.
    assert RatingChange.objects.filter(game_id=result.game_id).count() == 2
    ratings = {r.user_id: r for r in Rating.objects.filter(kind="tute2")}
    assert [ratings[winner.pk].games, ratings[loser.pk].games] == [1, 1]
    assert ratings[winner.pk].value > ratings[loser.pk].value


def test_two_processes_awarding_the_same_game_at_once_award_it_once():
    winner, loser = UserFactory(chips=1000), UserFactory(chips=1000)
    result = finish_game([winner, loser], stake=100)
    env = child_env(RANKINGS_AWARD_TEST_PAUSE="1")
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", AWARD_IN_A_PROCESS, str(result.game_id)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for _process in range(2)
    ]
    outputs = [process.communicate(timeout=60)[0] for process in processes]
    assert [process.returncode for process in processes] == [0, 0], outputs
    assert all("finished" in output for output in outputs)
    assert_awarded_once(result, winner, loser)


@pytest.mark.celery_worker
def test_a_worker_killed_during_the_award_leaves_it_to_the_next_worker_which_awards_once(
    celery_queue, tmp_path: Path
):
    winner, loser = UserFactory(chips=1000), UserFactory(chips=1000)
    # A short visibility timeout: the broker hands an unacknowledged task out again soon.
    slow = start_celery_worker(
        celery_queue,
        tmp_path / "slow.log",
        RANKINGS_AWARD_TEST_PAUSE="60",
        CELERY_VISIBILITY_TIMEOUT="3",
    )
    try:
        # The game ends: its transaction commits and queues the award to the slow worker.
        result = finish_game([winner, loser], stake=100)
        wait_until_locked(result)
        slow.kill()  # SIGKILL while the award holds its lock, half done
        slow.wait(10)
    finally:
        stop(slow, timeout=5)
    result.refresh_from_db()
    assert result.awarded_at is None
    assert [chips_balance(user=winner), chips_balance(user=loser)] == [900, 900]

    worker = start_celery_worker(
        celery_queue, tmp_path / "worker.log", CELERY_VISIBILITY_TIMEOUT="3"
    )
    try:
        wait_until_awarded(result, timeout=90)
    finally:
        stop(worker, timeout=15)
    assert "rankings.award_game" in (tmp_path / "worker.log").read_text()
    assert_awarded_once(result, winner, loser)
