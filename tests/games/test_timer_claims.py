"""The sweeper's lease on a move timer: a row of its own, never a write to the game's.

A game's rows change only through its table's door, each change pushed with the table's
version (games/table/room.py). The lease a sweeper takes on a due timer is neither a change
players see nor taken under that lock, so it lives in `TimerClaim`."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import timers
from games.models import Game, Table, TimerClaim
from games.table.seating import table_practice
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db


def _due_game() -> Game:
    table = table_practice(master=UserFactory(), options={"variant": "habanero"})
    Game.objects.filter(pk=table.game_id).update(deadline_at=timezone.now() - timedelta(seconds=1))
    return Game.objects.get(pk=table.game_id)


def test_a_due_timer_is_claimed_once_until_its_lease_runs_out():
    game = _due_game()
    now = timezone.now()
    assert timers.claim_due_games(now=now) == [(game.pk, game.deadline_count)]
    # Another sweep at the same moment, or a second later, leaves it to its worker.
    assert timers.claim_due_games(now=now) == []
    assert timers.claim_due_games(now=now + timedelta(seconds=1)) == []
    # That worker died: once the lease ran out, the timer is handed out again.
    later = now + timedelta(seconds=timers.CLAIM_SECONDS + 1)
    assert timers.claim_due_games(now=later) == [(game.pk, game.deadline_count)]
    assert TimerClaim.objects.get(game=game).until == later + timedelta(
        seconds=timers.CLAIM_SECONDS
    )


def test_claiming_writes_neither_the_game_nor_its_table():
    game = _due_game()
    before_game = Game.objects.filter(pk=game.pk).values().get()
    before_table = Table.objects.filter(pk=game.table_id).values().get()
    assert timers.claim_due_games(now=timezone.now())
    assert Game.objects.filter(pk=game.pk).values().get() == before_game
    assert Table.objects.filter(pk=game.table_id).values().get() == before_table


def test_a_claim_holds_only_the_timer_it_was_made_on():
    game = _due_game()
    now = timezone.now()
    assert timers.claim_due_games(now=now)
    # The timer was set anew (the next deal dealt: the same action count), due at once: the
    # old lease does not hide it.
    again = now - timedelta(milliseconds=1)
    Game.objects.filter(pk=game.pk).update(deadline_at=again)
    assert timers.claim_due_games(now=now) == [(game.pk, game.deadline_count)]
    assert TimerClaim.objects.get(game=game).at == again
