"""The clock of a table: the game's one timer, and who plays each seat now (RULES.md §11).

A game waits for one thing at a time: a player's move (they have `move_time` seconds), a
robot's move (after a short pause, so that people can follow it), or the next deal. That is
the game's one timer, stored on the game's row (`Game.deadline_*`). When it runs out the
sweeper (games/timers.py) hands it to games/table/robots.py, where a robot acts.

This module decides; it acts on nothing: it imports neither play nor robots.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from games.models import Deadline, Game, GameSeat
from games.table.room import Room

# The robot that plays a player's seat when their time runs out or they are away (§11).
TAKEOVER_ROBOT = "heuristic"
# Timeouts in a row after which the robot keeps the seat until the player acts again.
TIMEOUTS_TO_ROBOT = 3
DEADLINE_FIELDS = [
    "deadline_at",
    "deadline_kind",
    "deadline_seat",
    "deadline_count",
]


def robot_holds(game_seat: GameSeat) -> bool:
    """After three timeouts in a row the robot keeps a player's seat until they act again
    (or take it back)."""
    return (
        game_seat.user_id is not None
        and not game_seat.abandoned
        and game_seat.timeouts >= TIMEOUTS_TO_ROBOT
    )


def robot_playing(game_seat: GameSeat, *, move_time: int) -> str | None:
    """The robot that plays a game's seat now, or None when its player does: a robot's own
    seat, and a player's seat while they are away, after they abandoned, while the robot
    holds it after three timeouts, and always in automatic mode (`move_time` 0)."""
    if game_seat.robot:
        return game_seat.robot
    if (
        game_seat.abandoned
        or game_seat.away_since is not None
        or robot_holds(game_seat)
        or move_time == 0
    ):
        return TAKEOVER_ROBOT
    return None


def paced(game_seat: GameSeat, *, competitive: bool, move_time: int) -> bool:
    """Whether the robot playing a player's seat waits for the seat's move time, as the move
    timer would, instead of playing at once: in a competitive game, while the player is
    away and has not abandoned. Away is not a way to win: the grace period (three minutes)
    then runs out before the robot can finish the game for them."""
    return (
        competitive
        and move_time > 0
        and game_seat.user_id is not None
        and not game_seat.abandoned
        and game_seat.away_since is not None
    )


def clear_deadline(game: Game) -> None:
    game.deadline_at = game.deadline_seat = None
    game.deadline_kind = ""


def due(game: Game | None, count: int | None, now: Any) -> bool:
    """Whether `game`'s timer has run out at `now` (and, given `count`, was set then)."""
    return (
        game is not None
        and game.status == Game.Status.PLAYING
        and game.deadline_at is not None
        and game.deadline_at <= now
        and (count is None or game.deadline_count == count)
    )


def schedule(room: Room, *, keep_clock: bool = False) -> None:
    """Set the room's game's one timer from the position (the caller saves
    `DEADLINE_FIELDS`).

    The seat the game waits for gets `move_time` seconds, or a robot acts for it after the
    robot delay: at a robot's seat, at a seat taken over (away, abandoned, three timeouts)
    and at every seat in automatic mode (`move_time` 0). In a competitive game the robot of
    an away player's seat waits for the move time (`paced`). A robot that may sing goes
    before the seat on turn; a robot on turn gives a player who may still sing their move
    time.
    A timer that did not change keeps its deadline, so a countdown never starts again.
    With `keep_clock` (a player went away or came back, with their seat paced) the seat's
    move and its paced robot share one countdown: going away gains no time, and a player
    back finds the clock where it was."""
    game, state, seats = room.game, room.state, room.game_seats
    move_time = room.table.move_time
    robots = {gs.seat for gs in seats if robot_playing(gs, move_time=move_time)}
    slow = {gs.seat for gs in seats if paced(gs, competitive=game.competitive, move_time=move_time)}
    # Nobody to show the cards to: robots play on at once.
    watched = any(gs.user_id is not None and not gs.abandoned for gs in seats)
    delay = settings.ROBOT_DELAY_SECONDS if watched else 0
    kind, seat, wait = "", None, 0.0
    if state.needs_deal:
        kind = Deadline.DEAL
        wait = move_time if move_time and len(robots) < len(seats) else delay
    elif not state.over:
        legal = state.legal_actions()
        turn = state.to_move
        waiting = [s for s in legal if s != turn]
        robot_waiting = [s for s in waiting if s in robots]
        if robot_waiting:
            kind, seat = Deadline.ROBOT, robot_waiting[0]
            wait = move_time if seat in slow else delay
        elif turn in legal and turn in robots:
            kind, seat = Deadline.ROBOT, turn
            wait = move_time if (waiting or turn in slow) and move_time else delay
        elif turn in legal:
            kind, seat, wait = Deadline.MOVE, turn, move_time
    count = game.action_count
    if not kind:
        clear_deadline(game)
        game.deadline_count = count
        return
    same = (game.deadline_kind, game.deadline_seat, game.deadline_count) == (kind, seat, count)
    if same and game.deadline_at is not None:
        return
    turns = {game.deadline_kind, kind} <= {Deadline.MOVE, Deadline.ROBOT}
    same_turn = (game.deadline_seat, game.deadline_count) == (seat, count)
    if keep_clock and turns and same_turn and game.deadline_at is not None:
        game.deadline_kind = kind
        return
    game.deadline_kind, game.deadline_seat, game.deadline_count = kind, seat, count
    game.deadline_at = timezone.now() + timedelta(seconds=wait)


def reschedule(room: Room, *, keep_clock: bool = False) -> None:
    """Set the timer again after who plays a seat changed, and save it."""
    schedule(room, keep_clock=keep_clock)
    room.game.save(update_fields=DEADLINE_FIELDS)
