"""What one move costs the database, on every path. The table locked with its version
counted; the game, its seats, its open proposal and what its state needs, read in one; the
action's row, the game's counters and timer (and a seat's timeouts) written in one: three
statements, whoever moved last, however cold this process's cache, after a timeout, with a
proposal to cancel open, and for a robot. Two when this process made the table's last
change: the room it kept then is the table's still (its version did not move), and is not
read again. A move late in a game costs what one early in it does: the record grows by a
row, it is never read or written whole. On SQLite (the embedded default) the write is a
statement per row: four, and three where the room was kept.

Each path also checks what the players get: every seat's pushed view is the view of the
game rebuilt from its whole record."""

import contextlib
import json

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games.engine import from_record
from games.models import CancelProposal, Game, GameAction, GameSeat, Table
from games.table import cancel, play, record, robots, room, seating
from games.table.frames import MOVE, update_frames
from games.table.record import game_record, game_state
from games.table.room import Part, locked_room
from tests.support.factories import UserFactory
from tests.support.play import first_state

pytestmark = pytest.mark.django_db

# PostgreSQL, as production runs, writes a move in one statement (a data-modifying WITH);
# SQLite, the embedded default, has none: the action's row, each seat changed and the game
# are written one after the other. Each database is held to its own figure.
POSTGRES = connection.vendor == "postgresql"


def writes(seats: int = 0) -> int:
    """The statements that write a move changing `seats` game seats."""
    return 1 if POSTGRES else 2 + seats


def fresh_caches(patch) -> None:
    """A process's caches, empty: its engine states and the rooms it kept."""
    patch.setattr(record, "_STATES", type(record._STATES)())
    patch.setattr(room, "_ROOMS", type(room._ROOMS)())


@pytest.fixture(autouse=True)
def one_process(monkeypatch):
    """This process's caches, of their own for the test (another test's games, with the same
    ids in another database, are never taken for these)."""
    fresh_caches(monkeypatch)


@contextlib.contextmanager
def another_process(monkeypatch):
    """What runs inside is served by another daphne process, with caches of its own."""
    with monkeypatch.context() as other:
        fresh_caches(other)
        yield


@pytest.fixture
def pushed(monkeypatch):
    """The frames pushed to the sockets, by group."""
    sent: list[tuple[str, dict]] = []
    monkeypatch.setattr("games.push.send", lambda messages: sent.extend(messages))
    return sent


def two_players(**options):
    users = [UserFactory(), UserFactory()]
    table = seating.table_create(master=users[0], options={"variant": "habanero", **options})
    seating.table_sit(table_id=table.pk, user=users[1])
    play.game_start(table_id=table.pk, user=users[0])
    return Table.objects.get(pk=table.pk), users


def a_card(table, users, on_commit, pushed=None):
    """The SQL of the next card played by the player on turn, its pushes included (they
    run on commit)."""
    game = Game.objects.get(pk=table.game_id)
    state = game_state(game=game)
    seat = state.to_move
    legal = state.legal_actions_for(seat)
    # The seat on turn plays a card; at a moment with none to play, a seat that may act acts.
    card = next((a for a in legal if a.kind == "play"), None)
    if card is None:
        seat, actions = next((s, a) for s, a in state.legal_actions().items() if a)
        card = actions[0]
    if pushed is not None:
        pushed.clear()
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


def assert_statements(sql: list[str], *, kept: bool = False, seats: int = 0) -> None:
    """The lock, the read (unless the room was kept), the write."""
    sql = [q.replace('"', "") for q in sql]
    assert len(sql) == (1 if kept else 2) + writes(seats), "\n".join(sql)
    assert sql[0].startswith("UPDATE games_table SET version") and "RETURNING" in sql[0]
    if not kept:
        assert sql[1].startswith("SELECT") and "games_gameseat" in sql[1]
    first = sql[-writes(seats)]
    assert first.startswith(
        ("WITH w0 AS (INSERT INTO games_gameaction", "INSERT INTO games_gameaction")
    )
    assert "UPDATE games_game SET" in sql[-1]
    if seats:
        assert "UPDATE games_gameseat SET" in " ".join(sql[-writes(seats) :])


def assert_views_true(table, pushed) -> None:
    """Each seat was pushed the view of the game as its whole stored record says it is."""
    game = Game.objects.get(pk=table.game_id)
    truth = from_record(game_record(game=game))
    frames = {
        message["seat"]: json.loads(message["text"])
        for _group, message in pushed
        if message["type"] == "table.frame"
    }
    for seat in range(table.players):
        assert frames[seat]["game"]["view"] == truth.view(seat).to_dict()
        assert frames[seat]["count"] == game.action_count


def test_a_players_card_is_two_statements_where_the_last_change_was_made(
    django_capture_on_commit_callbacks, pushed
):
    table, users = two_players()
    a_card(table, users, django_capture_on_commit_callbacks)
    sql = a_card(table, users, django_capture_on_commit_callbacks, pushed)
    assert_statements(sql, kept=True)
    assert_views_true(table, pushed)


def test_after_another_process_moved_it_is_three_statements(
    django_capture_on_commit_callbacks, pushed, monkeypatch
):
    """The other daphne process served the last cards: the rows this one has not applied
    come with the room's read."""
    table, users = two_players()
    a_card(table, users, django_capture_on_commit_callbacks)
    with another_process(monkeypatch):
        a_card(table, users, django_capture_on_commit_callbacks)
        a_card(table, users, django_capture_on_commit_callbacks)
    assert record.known_counts(table.game_id)[1] == 1  # two cards behind
    sql = a_card(table, users, django_capture_on_commit_callbacks, pushed)
    assert_statements(sql)
    assert_views_true(table, pushed)
    assert record.known_counts(table.game_id)[1] == 4


def test_with_cold_caches_it_is_three_statements(
    django_capture_on_commit_callbacks, pushed, monkeypatch
):
    """A process that knows nothing of the game (just started): the record comes with the
    room's read, and the state is rebuilt from it."""
    table, users = two_players()
    for _ in range(5):
        a_card(table, users, django_capture_on_commit_callbacks)
    fresh_caches(monkeypatch)
    sql = a_card(table, users, django_capture_on_commit_callbacks, pushed)
    assert_statements(sql)
    assert_views_true(table, pushed)


def test_after_a_new_deal_elsewhere_it_is_three_statements(
    django_capture_on_commit_callbacks, pushed, monkeypatch
):
    """Another process dealt the next deal: the record (with the new deal's cards) comes
    with the room's read."""
    table, users = two_players(points_to_win=5)
    while True:
        game = Game.objects.get(pk=table.game_id)
        if game_state(game=game).needs_deal:
            break
        a_card(table, users, django_capture_on_commit_callbacks)
    with another_process(monkeypatch), django_capture_on_commit_callbacks(execute=True):
        play.game_next_deal(table_id=table.pk, user=users[0])
    assert record.known_counts(table.game_id)[0] == 1
    sql = a_card(table, users, django_capture_on_commit_callbacks, pushed)
    assert_statements(sql)
    assert_views_true(table, pushed)


def test_after_a_timeout_it_is_three_statements(
    django_capture_on_commit_callbacks, pushed, monkeypatch
):
    """A player's time ran out: the robot played for them (in the Celery worker), a timeout
    counted with its move. The player's next card takes the seat back: the seat's count goes
    back to 0 in the same statement as the card."""
    table, users = two_players(move_time=10)
    game = Game.objects.get(pk=table.game_id)
    with (
        another_process(monkeypatch),
        CaptureQueriesContext(connection) as queries,
        django_capture_on_commit_callbacks(execute=True),
    ):
        late = game.deadline_at
        taken = robots.game_timer_fire(game_id=game.pk, count=game.deadline_count, now=late)
    assert taken == 1
    sql = statements(queries)
    # The room read to think on; then the lock and the version; the row, the game, the seat.
    assert len(sql) == 2 + writes(seats=1), "\n".join(sql)
    assert sql[1].replace('"', "").startswith("UPDATE games_table SET version")
    assert "UPDATE games_gameseat SET" in " ".join(sql[2:]).replace('"', "")
    timed_out = GameSeat.objects.get(game=game, seat=game.deadline_seat)
    assert timed_out.timeouts == 1
    # The one who timed out plays again when next on turn (the other player's cards are
    # served by the other process: the one who timed out reads the room).
    while game_state(game=Game.objects.get(pk=game.pk)).to_move != timed_out.seat:
        with another_process(monkeypatch):
            a_card(table, users, django_capture_on_commit_callbacks)
    sql = a_card(table, users, django_capture_on_commit_callbacks, pushed)
    assert_statements(sql, seats=1)
    timed_out.refresh_from_db()
    assert timed_out.timeouts == 0
    assert_views_true(table, pushed)
    frame = json.loads(next(m["text"] for _g, m in pushed if m["seat"] == timed_out.seat))
    mine = next(s for s in frame["game"]["seats"] if s["seat"] == timed_out.seat)
    assert mine["timeouts"] == 0 and mine["robot"] is None


def test_with_a_proposal_to_cancel_open_it_is_three_statements(
    django_capture_on_commit_callbacks, pushed
):
    """The open proposal comes with the room's read (the frames show who still must answer);
    the next card, with the room kept, is two."""
    table, users = two_players()
    with django_capture_on_commit_callbacks(execute=True):
        cancel.game_cancel_propose(table_id=table.pk, user=users[0])
    assert CancelProposal.objects.filter(status="open").count() == 1
    sql = a_card(table, users, django_capture_on_commit_callbacks, pushed)
    assert_statements(sql)
    assert "games_cancelproposal" in sql[1].replace('"', "")
    assert_views_true(table, pushed)
    sql = a_card(table, users, django_capture_on_commit_callbacks, pushed)
    assert_statements(sql, kept=True)
    assert_views_true(table, pushed)
    # The cards leave the proposal as it was: it still waits for the other player.
    shown = first_state(table_id=table.pk, user=users[1])["game"]["cancel"]
    assert shown["by"] == users[0].username and shown["waiting"] == [users[1].username]


def test_a_robots_move_is_three_statements(django_capture_on_commit_callbacks, monkeypatch):
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
        # The room read to think on; then the lock and the version; the row and the game (and
        # the player's seat, when the robot decided in their name).
        player = GameSeat.objects.get(game=game, seat=game.deadline_seat).user_id is not None
        assert len(sql) == 2 + writes(seats=int(player)), "\n".join(sql)
        assert sql[1].replace('"', "").startswith("UPDATE games_table SET version")


def test_a_late_move_costs_what_an_early_one_does(django_capture_on_commit_callbacks):
    table, users = two_players(points_to_win=3)
    room._ROOMS.clear()
    early = a_card(table, users, django_capture_on_commit_callbacks)
    for _ in range(20):
        a_card(table, users, django_capture_on_commit_callbacks)
    assert len(a_card(table, users, django_capture_on_commit_callbacks)) == 1 + writes()
    room._ROOMS.clear()  # this process's state of the game is current, its room forgotten
    late = a_card(table, users, django_capture_on_commit_callbacks)
    assert GameAction.objects.filter(game_id=table.game_id).count() == 23
    assert len(late) == len(early) == 2 + writes()
    # Nothing writes the record; the read brings no record back and no row (the state is
    # this process's, with nothing to catch up).
    assert not any('"record"' in sql for sql in late if not sql.startswith("SELECT"))
    with connection.cursor() as cursor:
        cursor.execute(late[1])
        read = cursor.fetchall()
    assert all(row[-2] is None for row in read)


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
        locked = locked_room(table.pk, load=Part.GAME)
        event = {"kind": "act", "action": {"seat": 0, "play": "3C"}, "by": users[0].username}
        frames = update_frames(locked, event, table=False, game=MOVE)
    sizes = {seat: len(json.dumps(frame)) for seat, frame in frames.items()}
    assert max(sizes.values()) < 2048, sizes
    assert all("table" not in frame and "chat" not in frame for frame in frames.values())
