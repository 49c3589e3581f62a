"""A game's end is one event (games/events.py): whatever ends a game (its last card, a move
timer run out, a player who abandoned, a cancel, a moderator, at an arena's table or not),
the arenas, the analysis and the puzzles each receive it once, after the commit, and a
rolled-back end is received by none."""

import logging
import random
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import connection, transaction

from games import events, server, tasks, timers
from games.arenas import services as arena_services
from games.arenas import tasks as arena_tasks
from games.arenas.models import ArenaPlayer
from games.arenas.scoring import arena_game_score
from games.events import Ending, GameEnded
from games.models import Game, Table
from games.puzzles import tasks as puzzle_tasks
from games.table import cancel, play, seating
from games.table.record import game_state
from tests.support.arenas import habanero_arena, joined, play_out, running_games
from tests.support.away import away_for_the_whole_game
from tests.support.factories import ModeratorFactory, UserFactory
from tests.support.play import play_to_the_end, seated_table

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

# In the order the apps subscribe (INSTALLED_APPS): the analysis is queued before the mining.
SUBSCRIBERS = [
    "games.tasks.analyse_ended_game",
    "games.arenas.tasks.arena_game_ended",
    "games.puzzles.tasks.mine_ended_game",
]
ONE_DEAL = {"variant": "habanero", "points_to_win": 1}


@pytest.fixture
def ends(monkeypatch):
    """What each real subscriber receives, with whether a transaction was open and the
    game's status as the database then had it; what they queue, recorded and not sent."""
    received = {name: [] for name in events.subscribers()}
    for name, subscriber in events.subscribers().items():
        monkeypatch.setitem(events._SUBSCRIBERS, name, spy(subscriber, received[name]))
    queued = SimpleNamespace(analysis=[], mining=[], score=[])
    monkeypatch.setattr(tasks, "game_analysis_queue", queued.analysis.append)
    monkeypatch.setattr(
        puzzle_tasks,
        "puzzles_mining_queue",
        lambda game_id, analyse: queued.mining.append((game_id, analyse)),
    )
    monkeypatch.setattr(arena_tasks, "score_game", SimpleNamespace(delay=queued.score.append))
    return SimpleNamespace(received=received, queued=queued)


def spy(subscriber, calls):
    def receive(event):
        status = Game.objects.filter(pk=event.game_id).values_list("status", flat=True).get()
        calls.append((event, connection.in_atomic_block, status))
        subscriber(event)

    return receive


def received_once(ends, game: Game, *, ending: Ending, arena: bool = False) -> GameEnded:
    """Each subscriber received the one end of `game`, once, with the game's end committed."""
    assert {name: len(calls) for name, calls in ends.received.items()} == dict.fromkeys(
        SUBSCRIBERS, 1
    )
    (event,) = {calls[0][0] for calls in ends.received.values()}
    assert event == GameEnded(
        game_id=game.pk,
        table_id=game.table_id,
        variant=game.variant,
        players=game.players,
        ending=ending,
        arena=arena,
        guest_practice=False,
    )
    committed = Game.Status.CANCELLED if ending == Ending.CANCELLED else Game.Status.FINISHED
    assert {
        (atomic, status) for calls in ends.received.values() for _e, atomic, status in calls
    } == {(False, committed)}
    return event


def nothing_received(ends) -> bool:
    return not any(ends.received.values())


def current(table: Table) -> Game:
    return Table.objects.get(pk=table.pk).game


def ends_the_game(state, action) -> bool:
    after = state.clone()
    after.apply(action)
    return after.over


def to_the_last_move(table: Table, users: list, seed: int) -> tuple[Game, int, list]:
    """Start the table's game and play it, each move by the seat to act, until every move
    that seat may make ends the game. Returns the game, that seat and those moves."""
    rng = random.Random(seed)
    play.game_start(table_id=table.pk, user=users[0])
    while True:
        game = current(table)
        state = game_state(game=game)
        if state.needs_deal:
            play.game_next_deal(table_id=table.pk, user=users[0])
            continue
        seat = next(n for n in range(game.players) if state.view(n).legal_actions)
        legal = state.legal_actions_for(seat)
        going_on = [a for a in legal if not ends_the_game(state, a)]
        if not going_on:
            return game, seat, legal
        action = rng.choice(going_on).to_dict()
        play.game_act(table_id=table.pk, user=users[seat], action=action)


def test_a_game_played_to_its_end_is_received_once_after_its_commit(ends):
    table, users = seated_table(ONE_DEAL, 2)
    game = play_to_the_end(table, users, seed=3)
    received_once(ends, game, ending=Ending.FINISHED)
    # The analysis is queued, then the mining after it; no arena's score.
    assert ends.queued.analysis == [game.pk]
    assert ends.queued.mining == [(game.pk, True)]
    assert ends.queued.score == []


def test_a_rolled_back_end_is_received_by_none_and_a_committed_one_on_commit(ends):
    table, users = seated_table(ONE_DEAL, 2)
    game, seat, last = to_the_last_move(table, users, seed=2)
    user = users[seat]
    with pytest.raises(RuntimeError), transaction.atomic():
        play.game_act(table_id=table.pk, user=user, action=last[0].to_dict())
        raise RuntimeError("the transaction fails after the last move")
    assert current(table).status == Game.Status.PLAYING
    assert nothing_received(ends)
    with transaction.atomic():
        play.game_act(table_id=table.pk, user=user, action=last[0].to_dict())
        assert nothing_received(ends)  # ended, not yet committed
    received_once(ends, game, ending=Ending.FINISHED)


def test_a_game_ended_by_a_move_timer_is_received_once(ends):
    table, users = seated_table({**ONE_DEAL, "move_time": 30}, 2)
    game, seat, _last = to_the_last_move(table, users, seed=4)
    assert (game.deadline_kind, game.deadline_seat) == ("move", seat)
    assert nothing_received(ends)
    # Nobody plays the last card: its timer runs out and plays it.
    timers.sweep(now=game.deadline_at + timedelta(milliseconds=1))
    game = current(table)
    assert game.status == Game.Status.FINISHED
    received_once(ends, game, ending=Ending.TIMEOUT)
    assert ends.queued.analysis == [game.pk]


def test_a_game_a_player_abandoned_is_received_once(ends):
    # The player at seat 0 closes their tab at the first card; their grace period runs out,
    # and a robot finishes the game for them.
    _table, _users, game, _waits, _lasted = away_for_the_whole_game(
        {"variant": "tute", "players": 2}, 2, seed=11, away=0
    )
    assert game.seats.get(seat=0).abandoned
    received_once(ends, game, ending=Ending.ABANDONED)
    assert ends.queued.analysis == [game.pk]


def test_an_arena_game_is_received_once_and_its_score_queued(ends):
    users = [UserFactory() for _ in range(2)]
    arena = habanero_arena()
    joined(arena, users)
    arena_services.arena_tick()
    (game,) = running_games(arena)
    game = play_out(game, {user.pk: user for user in users}, random.Random(1))
    received_once(ends, game, ending=Ending.FINISHED, arena=True)
    assert ends.queued.score == [game.pk]
    # The queued task scores it (the tick has nothing left to do), and the table it closes
    # ends no game again.
    assert arena_game_score(game_id=game.pk) is True
    assert [p.games for p in ArenaPlayer.objects.filter(arena=arena)] == [1, 1]
    received_once(ends, game, ending=Ending.FINISHED, arena=True)


def test_a_cancelled_game_is_received_once_and_neither_analysed_nor_mined(ends):
    table, users = seated_table({**ONE_DEAL, "stake": 50}, 2)
    play.game_start(table_id=table.pk, user=users[0])
    cancel.game_cancel_propose(table_id=table.pk, user=users[0])
    cancel.game_cancel_answer(table_id=table.pk, user=users[1], accept=True)
    received_once(ends, current(table), ending=Ending.CANCELLED)
    assert ends.queued.analysis == ends.queued.mining == []


def test_a_game_a_moderator_stops_is_received_once_and_its_table_stays_closed(ends):
    table, users = seated_table(ONE_DEAL, 2)
    game = play.game_start(table_id=table.pk, user=users[0])
    seating.table_close(table_id=table.pk, moderator=ModeratorFactory(), reason="spam")
    received_once(ends, Game.objects.get(pk=game.pk), ending=Ending.CANCELLED)
    closed = Table.objects.get(pk=table.pk)
    assert (closed.status, closed.close_reason) == (Table.Status.CLOSED, "spam")


def test_a_guests_practice_is_mined_at_once_and_never_analysed(ends):
    from accounts.models import User

    guest = User.objects.create(username="guest-ended", is_guest=True)
    table = seating.table_practice(master=guest, options={**ONE_DEAL, "move_time": 0})
    for _ in range(500):
        game = current(table)
        if game.status != Game.Status.PLAYING:
            break
        timers.sweep(now=game.deadline_at + timedelta(milliseconds=1))
    (event,) = {calls[0][0] for calls in ends.received.values()}
    assert (event.game_id, event.guest_practice, event.finished) == (game.pk, True, True)
    assert ends.queued.analysis == []
    assert ends.queued.mining == [(game.pk, False)]


def test_a_subscriber_that_raises_is_logged_and_the_others_still_receive(monkeypatch, caplog):
    got = []

    def broken(event):
        raise RuntimeError("broken")

    monkeypatch.setattr(events, "_SUBSCRIBERS", {})
    events.subscribe(broken)
    events.subscribe(got.append)
    event = GameEnded(1, 2, "tute", 2, Ending.FINISHED, arena=False, guest_practice=False)
    with caplog.at_level(logging.ERROR, logger="games.events"):
        events.publish_on_commit(event)  # no transaction open: at once
    assert got == [event]
    assert "broken failed on the end of game 1" in caplog.text


def test_an_app_ready_twice_subscribes_once():
    before, sweeps = events.subscribers(), list(server.EMBEDDED_SWEEPS)
    for label in ("games", "arenas", "puzzles"):
        apps.get_app_config(label).ready()
    assert events.subscribers() == before
    assert list(before) == SUBSCRIBERS
    assert sweeps == server.EMBEDDED_SWEEPS
