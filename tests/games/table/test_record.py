"""A running game's record is its deals plus one row per action: the states rebuilt from it
are always the state of the counts they are kept under, whoever reads them and when."""

import pytest

from games.engine import from_record
from games.models import Game, Table
from games.table import play, record, seating
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db


def running_habanero():
    users = [UserFactory(), UserFactory()]
    table = seating.table_create(master=users[0], options={"variant": "habanero"})
    seating.table_sit(table_id=table.pk, user=users[1])
    play.game_start(table_id=table.pk, user=users[0])
    return Table.objects.get(pk=table.pk), users


def a_card(table, users) -> None:
    game = Game.objects.get(pk=table.game_id)
    state = record.game_state(game=game)
    seat = state.to_move
    play.game_act(
        table_id=table.pk, user=users[seat], action=state.legal_actions_for(seat)[0].to_dict()
    )


def test_a_game_read_before_a_move_gives_the_state_before_it_and_the_next_reader_catches_up():
    table, users = running_habanero()
    a_card(table, users)
    read_before = Game.objects.get(pk=table.game_id)  # as a page reads it, without the lock
    a_card(table, users)
    record._STATES.clear()  # another process served the moves: this one knows nothing
    before = record.game_state(game=read_before)
    assert before.view(0) == from_record(record.game_record(game=read_before)).view(0)
    assert len(record.game_record(game=read_before)["deals"][0]["actions"]) == 1
    # The state was kept under the counts it has: a reader of the game as it is now catches
    # up from it with the one row played since, and gets the stored game's state.
    now = Game.objects.get(pk=table.game_id)
    caught_up = record.game_state(game=now)
    assert now.action_count == 2
    assert caught_up.view(1) == from_record(record.game_record(game=now)).view(1)


def test_the_record_of_a_finished_game_is_whole_and_its_rows_are_gone():
    table, users = running_habanero()
    game = Game.objects.get(pk=table.game_id)
    while game.status == Game.Status.PLAYING:
        state = record.game_state(game=game)
        if state.needs_deal:
            play.game_next_deal(table_id=table.pk, user=users[0])
        else:
            a_card(table, users)
        game = Game.objects.get(pk=table.game_id)
    assert not game.actions.exists()
    actions = sum(len(deal["actions"]) for deal in game.record["deals"])
    assert actions == game.action_count and len(game.record["deals"]) == game.deal_count
    assert from_record(game.record).over
