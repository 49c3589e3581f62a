"""Robots at the table, move timers, disconnections and friendly cancel (RULES.md §11), on
the real PostgreSQL and Redis. Timers are fired the way the sweeper fires them
(`games.timers.sweep`), at the time a test says: "the deadline has passed" is a `now`."""

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games import timers
from games.engine import Action, from_record
from games.models import CancelProposal, Game, GameSeat, ServerProcess, Table, TableSeat
from games.table import cancel, play, presence, refusals, robots, seating
from games.table.record import game_record
from rankings.models import GameResultSeat, XpEvent
from rankings.selectors import chips_balance
from tests.support.factories import UserFactory
from tests.support.live import WAIT, check_frame, game_of, record_of, table_socket
from tests.support.play import seated_table

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def current(table_id: int) -> Game:
    return game_of(table_id)


def after_deadline(game: Game):
    return game.deadline_at + timedelta(milliseconds=1)


def sweep_at(game: Game) -> dict:
    return timers.sweep(now=after_deadline(game))


def play_to_the_end(table_id: int, users: dict[int, object]) -> Game:
    """Players in `users` (by seat) play their first legal action when the game waits for
    them; robots, deals and everything else happen through the sweeper."""
    for _ in range(2000):
        game = current(table_id)
        if game.status != Game.Status.PLAYING:
            return game
        if game.deadline_kind == "move" and game.deadline_seat in users:
            state = from_record(game_record(game=game))
            action = state.legal_actions_for(game.deadline_seat)[0]
            play.game_act(
                table_id=table_id, user=users[game.deadline_seat], action=action.to_dict()
            )
        else:
            sweep_at(game)
    raise AssertionError("the game never ended")


def test_practice_table_puts_robots_in_the_other_seats_and_risks_nothing():
    player = UserFactory(chips=1000)
    table = seating.table_practice(
        master=player, options={"variant": "tute", "players": 4, "pairs": True}
    )
    seats = list(TableSeat.objects.filter(table=table).order_by("seat"))
    assert [(s.seat, s.user_id, s.robot) for s in seats] == [
        (0, player.pk, ""),
        (1, None, "medium"),
        (2, None, "medium"),
        (3, None, "medium"),
    ]
    game = current(table.pk)
    state = from_record(game_record(game=game))
    # Pairs: the robot opposite (seat 2) is the player's partner.
    assert state.side_of[0] == state.side_of[2] != state.side_of[1]
    assert not game.competitive and game.stake == 0
    game = play_to_the_end(table.pk, {0: player})
    assert game.status == Game.Status.FINISHED
    assert from_record(game_record(game=game)).over
    assert chips_balance(user=player) == 1000
    assert not XpEvent.objects.filter(user=player).exists()
    assert Table.objects.get(pk=table.pk).status == Table.Status.OPEN


@pytest.mark.parametrize(
    "options",
    [
        {"variant": "habanero", "points_to_win": 2, "robot_level": "random"},
        {"variant": "habanero", "points_to_win": 1},
        {"variant": "tute", "players": 3},
    ],
)
def test_practice_games_of_every_variant_play_to_the_end(options):
    player = UserFactory()
    table = seating.table_practice(master=player, options={**options, "move_time": 0})
    # Automatic mode: the server plays the player's moves too.
    game = play_to_the_end(table.pk, {})
    assert game.status == Game.Status.FINISHED
    robots = set(GameSeat.objects.filter(game=game, user=None).values_list("robot", flat=True))
    assert robots == {options.get("robot_level", "medium")}


def test_a_timeout_plays_a_legal_move_for_the_player_and_three_hand_the_seat_to_a_robot():
    table, users = seated_table({"variant": "habanero", "move_time": 20}, 2)
    play.game_start(table_id=table.pk, user=users[0])
    game = current(table.pk)
    assert game.deadline_kind == "move"
    # The player has the table's move time from the start of the game.
    assert timedelta(seconds=20) <= game.deadline_at - game.started_at < timedelta(seconds=25)
    for timeouts in (1, 2, 3):
        game = current(table.pk)
        seat, count = game.deadline_seat, game.action_count
        before = from_record(game_record(game=game))
        # Not yet due: nothing happens.
        assert timers.sweep(now=game.deadline_at - timedelta(seconds=1))["games"] == 0
        assert sweep_at(game)["games"] == 1
        game = current(table.pk)
        # At the third timeout the robot keeps the seat: it may go on at once (a trick won
        # leads the next).
        assert game.action_count == count + 1 or timeouts == 3
        actions = [a for deal in game_record(game=game)["deals"] for a in deal["actions"]]
        played = Action.from_dict(actions[count], 2)
        assert played.seat == seat and played in before.legal_actions_for(seat)
        assert GameSeat.objects.get(game=game, seat=seat).timeouts == timeouts
        # Let the other seat act, so the timed-out seat is waited for again.
        while game.deadline_seat != seat and game.status == Game.Status.PLAYING:
            other = game.deadline_seat
            action = from_record(game_record(game=game)).legal_actions_for(other)[0]
            play.game_act(table_id=table.pk, user=users[other], action=action.to_dict())
            game = current(table.pk)
    # After three timeouts in a row the robot keeps the seat: it acts after the robot delay.
    assert GameSeat.objects.get(game=game, seat=seat).timeouts == 3
    assert game.deadline_kind == "robot" and game.deadline_seat == seat
    presence.game_resume(table_id=table.pk, user=users[seat])
    game = current(table.pk)
    assert GameSeat.objects.get(game=game, seat=seat).timeouts == 0
    assert game.deadline_kind == "move" and game.deadline_seat == seat


def test_a_stale_timer_after_the_move_was_made_does_nothing():
    table, users = seated_table({"variant": "tute", "players": 2, "move_time": 30}, 2)
    play.game_start(table_id=table.pk, user=users[0])
    game = current(table.pk)
    stale_count, seat = game.deadline_count, game.deadline_seat
    action = from_record(game_record(game=game)).legal_actions_for(seat)[0]
    play.game_act(table_id=table.pk, user=users[seat], action=action.to_dict())
    moved = current(table.pk)
    far = timezone.now() + timedelta(hours=1)
    # The timer set before the move fires late (a task queued before the move ran late).
    assert robots.game_timer_fire(game_id=game.pk, count=stale_count, now=far) == 0
    assert game_record(game=current(table.pk)) == game_record(game=moved)
    assert GameSeat.objects.get(game=game, seat=seat).timeouts == 0


@pytest.mark.asyncio
async def test_a_disconnect_hands_the_seat_to_a_robot_and_a_reconnect_takes_it_back():
    table, users = await sync_to_async(seated_table)(
        {"variant": "tute", "players": 2, "move_time": 60}, 2
    )
    await sync_to_async(play.game_start)(table_id=table.pk, user=users[0])
    game = await sync_to_async(current)(table.pk)
    away = game.deadline_seat  # the seat to move goes away
    stays = 1 - away
    sockets = {}
    for seat in (0, 1):
        sockets[seat], first = await table_socket(table.pk, users[seat])
        check_frame(first, await record_of(table.pk), seat)
    await sockets[away].disconnect()
    frame = await sockets[stays].receive_json_from(timeout=WAIT)
    assert frame["event"] == {"kind": "away", "by": users[away].username, "seat": away}
    seat_info = frame["game"]["seats"][away]
    assert seat_info["away"] and seat_info["robot"] == "heuristic"
    assert frame["game"]["deadline"]["kind"] == "robot"
    assert frame["game"]["deadline"]["seat"] == away
    # The robot plays the away seat's move.
    count = frame["count"]
    game = await sync_to_async(current)(table.pk)
    await sync_to_async(sweep_at)(game)
    frame = await sockets[stays].receive_json_from(timeout=WAIT)
    assert frame["count"] == count + 1
    assert frame["event"]["robot"] == "heuristic" and frame["event"]["action"]["seat"] == away
    played_for = frame["event"]["action"]
    check_frame(frame, await record_of(table.pk), stays)
    # Back within the grace period: the seat is theirs again, where it stands.
    sockets[away], first = await table_socket(table.pk, users[away])
    check_frame(first, await record_of(table.pk), away)
    frame = await sockets[stays].receive_json_from(timeout=WAIT)
    assert frame["event"] == {"kind": "back", "by": users[away].username, "seat": away}
    assert frame["game"]["seats"][away] == {
        "seat": away,
        "user": users[away].username,
        "robot": None,
        "robot_holds": False,
        "away": False,
        "abandoned": False,
        "timeouts": 0,
        "name": users[away].username,
        # What the robot did in the player's name, for their page to tell them, and how
        # many of the seat's decisions a robot made this game.
        "while_away": [played_for],
        "robot_decisions": 1,
    }
    seat_row = await sync_to_async(GameSeat.objects.get)(game=game, seat=away)
    assert seat_row.away_since is None and not seat_row.abandoned
    for socket in sockets.values():
        await socket.disconnect()


def test_after_the_grace_period_the_player_has_abandoned_and_loses():
    table, users = seated_table({"variant": "tute", "players": 4, "move_time": 300}, 4)
    play.game_start(table_id=table.pk, user=users[0])
    game = current(table.pk)
    for seat, user in enumerate(users):
        presence.table_socket_open(
            table=Table.objects.get(pk=table.pk),
            user=user,
            channel_name=f"c{seat}",
            process_id=PROCESS,
            ip_address=None,
        )
    # This test's time jumps ahead: the process holding the sockets stays alive meanwhile.
    ServerProcess.objects.filter(pk=PROCESS).update(last_seen=timezone.now() + timedelta(days=1))
    presence.table_socket_close(channel_name="c0")
    gone = GameSeat.objects.get(game=game, seat=0)
    assert gone.away_since is not None and not gone.abandoned
    # Not yet: the grace period runs.
    timers.sweep(now=gone.abandon_at - timedelta(seconds=1))
    assert not GameSeat.objects.get(pk=gone.pk).abandoned
    timers.sweep(now=gone.abandon_at)
    assert GameSeat.objects.get(pk=gone.pk).abandoned
    # Coming back now changes nothing: the robot finishes the game.
    presence.table_socket_open(
        table=Table.objects.get(pk=table.pk),
        user=users[0],
        channel_name="c0b",
        process_id=PROCESS,
        ip_address=None,
    )
    with pytest.raises(refusals.TableError) as refused:
        cancel.game_cancel_propose(table_id=table.pk, user=users[0])
    assert refused.value.code == "invalid"
    game = play_to_the_end(table.pk, {1: users[1], 2: users[2], 3: users[3]})
    state = from_record(game_record(game=game))
    winners = set(
        game.result["winner"]
        if isinstance(game.result["winner"], list)
        else [game.result["winner"]]
    )
    outcomes = dict(GameSeat.objects.filter(game=game).values_list("seat", "outcome"))
    assert outcomes[0] == GameSeat.Outcome.LOST
    assert outcomes[2] == (
        GameSeat.Outcome.WON if state.side_of[2] in winners else GameSeat.Outcome.LOST
    )
    # Rankings is told who abandoned: it pays them as a loser whatever their side did.
    handed = GameResultSeat.objects.get(result__game_id=game.pk, seat=0)
    assert handed.abandoned and handed.user_id == users[0].pk


PROCESS = "00000000-0000-4000-8000-000000000001"


def staked_table(stake: int = 100) -> tuple[Table, list]:
    table, users = seated_table(
        {"variant": "tute", "players": 4, "stake": stake, "move_time": 300}, 4
    )
    play.game_start(table_id=table.pk, user=users[0])
    return table, users


def test_a_cancel_accepted_by_all_refunds_every_stake_but_the_abandoners():
    table, users = staked_table(100)
    assert [chips_balance(user=u) for u in users] == [900] * 4
    presence.game_leave(table_id=table.pk, user=users[3])
    game = current(table.pk)
    assert GameSeat.objects.get(game=game, seat=3).abandoned
    proposal = cancel.game_cancel_propose(table_id=table.pk, user=users[1])
    cancel.game_cancel_answer(table_id=table.pk, user=users[0], accept=True)
    assert current(table.pk).status == Game.Status.PLAYING  # seat 2 has not answered
    cancel.game_cancel_answer(table_id=table.pk, user=users[2], accept=True)
    game = current(table.pk)
    assert game.status == Game.Status.CANCELLED
    assert CancelProposal.objects.get(pk=proposal.pk).status == "accepted"
    assert [chips_balance(user=u) for u in users] == [1000, 1000, 1000, 900]
    assert set(GameSeat.objects.filter(game=game).values_list("outcome", flat=True)) == {"void"}
    assert not XpEvent.objects.exists()
    assert game.deadline_at is None
    assert Table.objects.get(pk=table.pk).status == Table.Status.OPEN


def test_a_cancel_refused_or_unanswered_changes_nothing():
    table, users = staked_table(50)
    record = game_record(game=current(table.pk))
    cancel.game_cancel_propose(table_id=table.pk, user=users[0])
    with pytest.raises(refusals.TableError):
        cancel.game_cancel_propose(table_id=table.pk, user=users[2])
    cancel.game_cancel_answer(table_id=table.pk, user=users[1], accept=True)
    cancel.game_cancel_answer(table_id=table.pk, user=users[2], accept=False)
    game = current(table.pk)
    assert game.status == Game.Status.PLAYING and game_record(game=game) == record
    assert [chips_balance(user=u) for u in users] == [950] * 4
    assert CancelProposal.objects.get(game=game).status == "refused"
    with pytest.raises(refusals.TableError):
        cancel.game_cancel_answer(table_id=table.pk, user=users[3], accept=True)
    # A new proposal nobody else answers ends after its 60 seconds.
    proposal = cancel.game_cancel_propose(table_id=table.pk, user=users[3])
    assert abs(proposal.expires_at - proposal.created_at - timedelta(seconds=60)) < timedelta(
        seconds=1
    )
    timers.sweep(now=proposal.expires_at)
    assert CancelProposal.objects.get(pk=proposal.pk).status == "expired"
    assert current(table.pk).status == Game.Status.PLAYING
    assert [chips_balance(user=u) for u in users] == [950] * 4


def test_a_killed_process_counts_its_players_away():
    table, users = seated_table({"variant": "habanero", "move_time": 300}, 2)
    play.game_start(table_id=table.pk, user=users[0])
    presence.table_socket_open(
        table=Table.objects.get(pk=table.pk),
        user=users[1],
        channel_name="dead",
        process_id=PROCESS,
        ip_address=None,
    )
    presence.server_process_beat(process_id=PROCESS)
    later = timezone.now() + timedelta(minutes=1)
    assert timers.sweep(now=later)["sockets"] == 1
    seat = GameSeat.objects.get(game=current(table.pk), seat=1)
    assert seat.away_since == later


def test_the_process_that_sweeps_is_never_taken_for_dead_however_late_its_beat():
    # The embedded default sweeps in its own daphne process: under load its beat may come
    # late, and it must not close its own players' sockets (they would be away, and robots
    # would play for them).
    table, users = seated_table({"variant": "habanero", "move_time": 300}, 2)
    play.game_start(table_id=table.pk, user=users[0])
    presence.table_socket_open(
        table=Table.objects.get(pk=table.pk),
        user=users[1],
        channel_name="mine",
        process_id=PROCESS,
        ip_address=None,
    )
    presence.server_process_beat(process_id=PROCESS)
    later = timezone.now() + timedelta(minutes=1)
    assert timers.sweep(now=later, alive=PROCESS)["sockets"] == 0
    assert GameSeat.objects.get(game=current(table.pk), seat=1).away_since is None
