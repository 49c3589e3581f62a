"""Exactly once on PostgreSQL: two processes awarding the same game at the same moment, and
a real Celery worker killed while it holds the award.

The test makes "at the same moment" and "while it holds the award" happen with PostgreSQL's
own row locks, held from a connection of its own: the awards wait on them, mid-way, for as
long as the test says, and production code carries no pause for tests."""

import contextlib
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from django.db import DatabaseError, connection, transaction

from bench.support.processes import ROOT, child_env, database_url, start_celery_worker, stop
from rankings.models import ChipAccount, ChipTransfer, GameResult, Rating, RatingChange, XpEvent
from rankings.selectors import chips_balance, ledger_mismatches, ledger_totals
from tests.support.awards import finish_game
from tests.support.factories import UserFactory

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

AWARD_IN_A_PROCESS = (
    "import django, sys; django.setup(); "
    "from rankings.services import game_result_award; "
    "game_result_award(game_id=int(sys.argv[1])); print('finished')"
)


@contextlib.contextmanager
def row_locked(model, pk: int) -> Iterator[int]:
    """Hold `SELECT ... FOR UPDATE` on one row of `model`, from a connection of the test's
    own (not Django's), until the block ends. Yields that connection's backend pid."""
    with psycopg.connect(database_url()) as holder:
        holder.execute(f"SELECT 1 FROM {model._meta.db_table} WHERE id = %s FOR UPDATE", [pk])
        try:
            yield holder.info.backend_pid
        finally:
            holder.rollback()


def wait_until_blocked_by(pid: int, waiting: int, timeout: float = 60) -> None:
    """Return once `waiting` other sessions on the test database wait for a lock: one for a
    lock that backend `pid` holds, the others for that one or behind it (PostgreSQL queues
    a second waiter for a row behind the first)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FILTER (WHERE %s = ANY(pg_blocking_pids(pid))),"
                " count(*) FILTER (WHERE cardinality(pg_blocking_pids(pid)) > 0)"
                " FROM pg_stat_activity WHERE datname = current_database()",
                [pid],
            )
            on_ours, blocked = cursor.fetchone()
            if on_ours >= 1 and blocked >= waiting:
                return
        time.sleep(0.05)
    raise AssertionError(f"{waiting} sessions never waited for the test's lock")


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
    env = child_env(database_url())
    processes = []
    try:
        # Both awards reach the result's lock while the test holds it, and wait there: when
        # it lets go, they run at the same moment, one after the other on the lock.
        with row_locked(GameResult, result.pk) as holder:
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
            wait_until_blocked_by(holder, waiting=2)
            result.refresh_from_db()
            assert result.awarded_at is None
        outputs = [process.communicate(timeout=60)[0] for process in processes]
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
    assert [process.returncode for process in processes] == [0, 0], outputs
    assert all("finished" in output for output in outputs)
    assert_awarded_once(result, winner, loser)


@pytest.mark.celery_worker
@pytest.mark.xdist_group("alone")  # kills a worker: one after the other with the others that do
def test_a_worker_killed_during_the_award_leaves_it_to_the_next_worker_which_awards_once(
    celery_queue, tmp_path: Path
):
    winner, loser = UserFactory(chips=1000), UserFactory(chips=1000)
    # The game ends: its transaction commits and queues the award, no worker runs yet.
    result = finish_game([winner, loser], stake=100)
    account = ChipAccount.objects.get(user=winner)
    # The winner's account is locked: the award takes the result's lock, then waits at the
    # payout, half done. A short visibility timeout: the broker hands an unacknowledged task
    # out again soon.
    with row_locked(ChipAccount, account.pk) as holder:
        slow = start_celery_worker(
            celery_queue, tmp_path / "slow.log", CELERY_VISIBILITY_TIMEOUT="3"
        )
        try:
            wait_until_locked(result)
            wait_until_blocked_by(holder, waiting=1)
            slow.kill()  # SIGKILL while the award holds its lock, half done
            slow.wait(10)
        finally:
            stop(slow, timeout=5)
        result.refresh_from_db()
        assert result.awarded_at is None
    # The killed worker's transaction is rolled back: nothing of the award was written.
    assert [chips_balance(user=winner), chips_balance(user=loser)] == [900, 900]
    assert ChipTransfer.objects.filter(reason="payout", game_id=result.game_id).count() == 0

    worker = start_celery_worker(
        celery_queue, tmp_path / "worker.log", CELERY_VISIBILITY_TIMEOUT="3"
    )
    try:
        wait_until_awarded(result, timeout=90)
    finally:
        stop(worker, timeout=15)
    assert "rankings.award_game" in (tmp_path / "worker.log").read_text()
    assert "rankings.award_game" in (tmp_path / "slow.log").read_text()
    assert_awarded_once(result, winner, loser)
