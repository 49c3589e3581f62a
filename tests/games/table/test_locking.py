"""Two changes at one table at the same moment, in two database connections (two daphne
processes, or daphne and a Celery worker): the second waits for the table's lock and then
sees the first one's move. Found by the fault tool (bench/tools/faults/): a robot playing
for a player who was away, and that player back on another process, played at once."""

import threading
import time

import pytest
from django.db import connection, transaction

from games.models import Game, Table
from games.table import play, seating
from games.table.record import game_record, game_state
from games.table.refusals import TableError
from tests.support.factories import UserFactory

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def running_habanero() -> tuple[Table, list]:
    users = [UserFactory(chips=1000), UserFactory(chips=1000)]
    table = seating.table_create(master=users[0], options={"variant": "habanero"})
    seating.table_sit(table_id=table.pk, user=users[1])
    play.game_start(table_id=table.pk, user=users[0])
    return Table.objects.get(pk=table.pk), users


def test_a_move_waiting_for_the_lock_sees_the_move_made_meanwhile_and_is_stale():
    table, users = running_habanero()
    game = Game.objects.get(pk=table.game_id)
    count = game.action_count
    seat = game_state(game=game).to_move
    first, second = game_state(game=game).legal_actions()[seat][:2]
    holding = threading.Event()
    failed: list[BaseException] = []

    def waits_behind_us(bound: float = 60) -> None:
        """Return once another session waits for a lock this one holds: the main thread's
        move is queued behind the table's lock (a bound, not a measure)."""
        deadline = time.monotonic() + bound
        with connection.cursor() as cursor:
            while time.monotonic() < deadline:
                # pg_stat_activity is read once a transaction unless its snapshot is cleared.
                cursor.execute("SELECT pg_stat_clear_snapshot()")
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity"
                    " WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))"
                )
                if cursor.fetchone()[0]:
                    return
                time.sleep(0.02)
        raise AssertionError("the main thread's move never waited for the table's lock")

    def the_other_process() -> None:
        # Takes the table's lock, waits until the main thread's move is queued behind it,
        # then plays `first` and commits.
        try:
            with transaction.atomic():
                Table.objects.select_for_update().get(pk=table.pk)
                holding.set()
                waits_behind_us()
                play.game_act(
                    table_id=table.pk, user=users[seat], action=first.to_dict(), count=count
                )
        except BaseException as error:
            failed.append(error)
        finally:
            connection.close()

    other = threading.Thread(target=the_other_process)
    other.start()
    assert holding.wait(60)
    # From the same screen (the same count): it must wait, then find the game moved on.
    with pytest.raises(TableError) as refused:
        play.game_act(table_id=table.pk, user=users[seat], action=second.to_dict(), count=count)
    other.join(60)
    assert not failed, failed
    assert refused.value.code == "stale"
    record = game_record(game=Game.objects.get(pk=game.pk))
    assert Game.objects.get(pk=game.pk).action_count == count + 1
    assert record["deals"][-1]["actions"][-1] == first.to_dict()
