"""The next game with the same players (games/table/rematch.py): anyone seated offers it
once a game is over, and it starts when everyone seated accepted; one decline ends the
offer. The offer and each answer reach every seat with the table's summary."""

import json

import pytest

from games.models import Game, Table
from games.table import play, rematch, seating
from games.table.refusals import TableError
from tests.support.factories import UserFactory
from tests.support.play import finish

pytestmark = pytest.mark.django_db


def a_game_over(players: int = 3):
    users = [UserFactory(chips=1000) for _ in range(players)]
    options = {"variant": "tute", "players": players, "rounds": 1}
    table = seating.table_create(master=users[0], options=options)
    for user in users[1:]:
        seating.table_sit(table_id=table.pk, user=user)
    play.game_start(table_id=table.pk, user=users[0])
    finish(table.pk, users[0])
    return Table.objects.get(pk=table.pk), users


def summary_offer(pushed, seat: int = 0):
    """The rematch offer as the last table frame to `seat` shows it."""
    frames = [
        json.loads(m["text"])
        for _g, m in pushed
        if m["type"] == "table.frame" and m["seat"] == seat
    ]
    return frames[-1]["table"]["rematch"]


def test_it_starts_once_everyone_seated_accepted_with_the_same_players(pushed):
    table, users = a_game_over()
    first = table.game_id
    pushed.of(rematch.rematch_offer, table_id=table.pk, user=users[2])
    assert pushed.kinds(seat=0) == ["rematch"]
    assert summary_offer(pushed) == {
        "by": users[2].username,
        "accepted": [users[2].username],
        "waiting": [users[0].username, users[1].username],
    }
    pushed.of(rematch.rematch_answer, table_id=table.pk, user=users[0], accept=True)
    assert pushed.kinds(seat=1) == ["rematch_accept"]
    assert summary_offer(pushed, seat=1)["waiting"] == [users[1].username]
    assert Table.objects.get(pk=table.pk).game_id == first
    pushed.of(rematch.rematch_answer, table_id=table.pk, user=users[1], accept=True)
    assert pushed.kinds(seat=2) == ["start"]
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and table.game_id != first and not table.rematch
    players = list(Game.objects.get(pk=table.game_id).seats.order_by("seat"))
    assert [gs.user for gs in players] == users


def test_a_decline_ends_the_offer_for_everyone(pushed):
    table, users = a_game_over(players=2)
    pushed.of(rematch.rematch_offer, table_id=table.pk, user=users[0])
    pushed.of(rematch.rematch_answer, table_id=table.pk, user=users[1], accept=False)
    assert pushed.kinds(seat=0) == ["rematch_decline"]
    assert summary_offer(pushed) is None
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN and not table.rematch
    with pytest.raises(TableError) as error:
        pushed.of(rematch.rematch_answer, table_id=table.pk, user=users[0], accept=True)
    assert error.value.code == "invalid" and pushed == []


def test_a_second_offer_while_one_is_open_is_refused_and_answers_nothing(pushed):
    """Two players press "Play again" at once: the second is told to answer the first."""
    table, users = a_game_over(players=2)
    pushed.of(rematch.rematch_offer, table_id=table.pk, user=users[0])
    with pytest.raises(TableError) as error:
        pushed.of(rematch.rematch_offer, table_id=table.pk, user=users[1])
    assert error.value.code == "invalid" and "answer it" in str(error.value.message)
    assert pushed == []
    table.refresh_from_db()
    assert table.rematch["accepted"] == [users[0].pk] and table.status == Table.Status.OPEN


def test_no_offer_while_a_game_runs_or_before_any_game_or_from_a_spectator(pushed):
    table, users = a_game_over(players=2)
    with pytest.raises(TableError) as error:
        pushed.of(rematch.rematch_offer, table_id=table.pk, user=UserFactory())
    assert error.value.code == "not_seated"
    pushed.of(rematch.rematch_offer, table_id=table.pk, user=users[0])
    pushed.of(rematch.rematch_answer, table_id=table.pk, user=users[1], accept=True)
    with pytest.raises(TableError):
        pushed.of(rematch.rematch_offer, table_id=table.pk, user=users[0])
    fresh = seating.table_create(master=users[0], options={"variant": "habanero"})
    seating.table_sit(table_id=fresh.pk, user=users[1])
    with pytest.raises(TableError):
        pushed.of(rematch.rematch_offer, table_id=fresh.pk, user=users[1])
    assert pushed == []
