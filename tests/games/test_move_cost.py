"""What one move costs the database: a player's card and a robot's are four statements each,
and a move late in a game costs what one early in it does (the record grows by a row, it
is never read or written whole)."""

import json

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games.models import Game, GameAction, Table
from games.table import play, robots, seating
from games.table.frames import MOVE, update_frames
from games.table.record import game_state
from games.table.room import locked_room
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db


def two_players(**options):
    users = [UserFactory(), UserFactory()]
    table = seating.table_create(master=users[0], options={"variant": "habanero", **options})
    seating.table_sit(table_id=table.pk, user=users[1])
    play.game_start(table_id=table.pk, user=users[0])
    return Table.objects.get(pk=table.pk), users


def a_card(table, users, on_commit):
    """The SQL of the next card played by the player on turn, its pushes included (they
    run on commit)."""
    game = Game.objects.get(pk=table.game_id)
    state = game_state(game=game)
    seat = state.to_move
    card = next(a for a in state.legal_actions_for(seat) if a.kind == "play")
    with CaptureQueriesContext(connection) as queries, on_commit(execute=True):
        play.game_act(table_id=table.pk, user=users[seat], action=card.to_dict())
    return statements(queries)


def statements(queries) -> list[str]:
    """The SQL a service ran, less the savepoints of the test's own transaction (in
    production the service's transaction is the outermost: no savepoint)."""
    return [
        q["sql"]
        for q in queries.captured_queries
        if not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))
    ]


def test_a_players_card_is_four_statements(django_capture_on_commit_callbacks):
    table, users = two_players()
    a_card(table, users, django_capture_on_commit_callbacks)
    sql = a_card(table, users, django_capture_on_commit_callbacks)
    assert len(sql) == 4, "\n".join(sql)
    # The lock and the version in one statement; the game's seats; the action's row; the
    # game's counters and timer.
    assert sql[0].startswith("UPDATE games_table SET version") and "RETURNING" in sql[0]
    assert sql[2].startswith('INSERT INTO "games_gameaction"')
    assert sql[3].startswith('UPDATE "games_game"')


def test_a_robots_move_is_four_statements(django_capture_on_commit_callbacks, monkeypatch):
    # Automatic mode (move time 0): a robot plays every seat, one timer at a time here.
    monkeypatch.setattr(robots, "MAX_CHAINED_ACTIONS", 1)
    with django_capture_on_commit_callbacks(execute=True):
        table = seating.table_practice(
            master=UserFactory(), options={"variant": "habanero", "move_time": 0}
        )
    for _move in range(2):
        game = Game.objects.get(pk=table.game_id)
        with (
            CaptureQueriesContext(connection) as queries,
            django_capture_on_commit_callbacks(execute=True),
        ):
            taken = robots.game_timer_fire(
                game_id=game.pk, count=game.deadline_count, now=game.deadline_at
            )
        assert taken == 1
        sql = statements(queries)
        # The room read to think on; then the lock and the version, the row, the game.
        assert len(sql) == 4, "\n".join(sql)
        assert sql[1].startswith("UPDATE games_table SET version")


def test_a_late_move_costs_what_an_early_one_does(django_capture_on_commit_callbacks):
    table, users = two_players(points_to_win=3)
    early = a_card(table, users, django_capture_on_commit_callbacks)
    for _ in range(20):
        a_card(table, users, django_capture_on_commit_callbacks)
    late = a_card(table, users, django_capture_on_commit_callbacks)
    assert GameAction.objects.filter(game_id=table.game_id).count() == 22
    assert len(late) == len(early)
    # The same statements, with only the numbers changed: nothing reads or writes the record.
    assert all("record" not in sql.split("FROM")[0] for sql in late if sql.startswith("SELECT"))
    assert not any('"record"' in sql for sql in late if sql.startswith("UPDATE"))


def test_a_mid_game_move_frame_is_under_2_kb():
    """After a card, each seat gets its view, the event and the version: no table, no chat,
    none of what the card left as it was."""
    users = [UserFactory() for _ in range(4)]
    table = seating.table_create(master=users[0], options={"variant": "tute", "players": 4})
    for user in users[1:]:
        seating.table_sit(table_id=table.pk, user=user)
    play.game_start(table_id=table.pk, user=users[0])
    for _card in range(20):  # half the deal: five tricks on the table's record
        game = Game.objects.get(pk=Table.objects.get(pk=table.pk).game_id)
        state = game_state(game=game)
        seat = state.to_move
        play.game_act(
            table_id=table.pk, user=users[seat], action=state.legal_actions_for(seat)[0].to_dict()
        )
    with transaction.atomic():
        room = locked_room(table.pk)
        event = {"kind": "act", "action": {"seat": 0, "play": "3C"}, "by": users[0].username}
        frames = update_frames(room, event, table=False, game=MOVE)
    sizes = {seat: len(json.dumps(frame)) for seat, frame in frames.items()}
    assert max(sizes.values()) < 2048, sizes
    assert all("table" not in frame and "chat" not in frame for frame in frames.values())
