"""Robots at a table: where a timer that ran out becomes a robot's move (RULES.md §11).

The game's one timer (games/table/clock.py) runs out; the sweeper (games/timers.py) hands
it to `game_timer_fire`. A robot plays the seat waited for: a robot's own seat, a seat taken
over (its player away, gone, or three timeouts in a row), or a player's seat whose 30
seconds ran out (a timeout, which counts toward the three). At a deal's end the timer
deals the next deal.

The robot thinks outside any lock, on a room read without one and from its seat's view
alone. Its move is then applied under the lock only if the table's version did not move
meanwhile (nothing changed at the table): the room it thought on is still the table's, and
is not read again. If the version moved, the move is applied only if the timer still stands
(the same timer at the same position), on the room read again under the lock. A robot's
move is so four statements: the room read, the table locked (its version counted), the
action's row, the game's counters and timer.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from games.bots import bot_action, get_bot
from games.bots.base import default_rng
from games.engine import Action
from games.models import Deadline
from games.table.clock import TAKEOVER_ROBOT, due
from games.table.play import apply, deal_next
from games.table.room import NOTHING, Part, Room, locked_room, read_room

# Robots that act one after the other with no delay are chained in one timer run, up to this.
MAX_CHAINED_ACTIONS = 400


def robot_choice(room: Room) -> tuple[dict[str, Any] | None, str]:
    """What the robot playing the room's timed seat does, from that seat's view alone."""
    game = room.game
    if game.deadline_kind == Deadline.DEAL:
        return None, ""
    name = room.game_seat(game.deadline_seat).robot or TAKEOVER_ROBOT
    try:
        bot = get_bot(name, default_rng())
    except KeyError:
        # A robot level this process does not know (e.g. registered by a newer release).
        name, bot = TAKEOVER_ROBOT, get_bot(TAKEOVER_ROBOT, default_rng())
    action = bot_action(bot, room.state, game.deadline_seat)
    return action.to_dict(), name


def game_timer_fire(*, game_id: int, count: int, now: Any = None) -> int:
    """Act on a game's timer if it is due and was set at action count `count` (otherwise it
    is stale, and nothing happens). Returns how many actions were taken.

    Robots due one after the other at once (no delay) are chained here, each on the room
    the last one left, so an automatic game never waits for the next sweep."""
    taken = 0
    expected: int | None = count
    room = read_room(game_id)
    for _step in range(MAX_CHAINED_ACTIONS):
        at = now or timezone.now()
        if room is None or not due(room.game, expected, at):
            break
        action, robot = robot_choice(room.load(Part.STATE))
        room = game_timer_act(room=room, action=action, robot=robot, now=at)
        if room is None:
            break
        taken += 1
        expected = None
    return taken


@transaction.atomic
def game_timer_act(
    *, room: Room, action: dict[str, Any] | None, robot: str, now: Any = None
) -> Room | None:
    """Apply what a due timer's robot chose on `room` (or deal the next deal), if the table
    did not change since `room` was read. Returns the room after the move, or None if it
    did not act. A timeout counts toward the player's three in a row, and any move made in a
    player's name toward the decisions a robot made for them. Locks the table."""
    game = room.game
    timer = (game.pk, game.deadline_kind, game.deadline_seat, game.deadline_count, game.deal_count)
    kind, seat, count = timer[1:4]
    # The lock alone: the room read to think on is the table's still if nothing happened.
    locked = locked_room(room.table.pk, load=NOTHING, bump=True, closed=True)
    if locked.table.version == room.table.version + 1:
        # Nothing happened at the table since `room` was read: it is the table's still.
        room.table.version, room.bumped = locked.table.version, True
    else:
        # Something did (a player came back, a move): act only if the timer still stands,
        # on the room as it is now. The position is the same if the counts are.
        room = locked.load(Part.GAME | Part.STATE)
        game = room.game
        if (
            game is None
            or (
                game.pk,
                game.deadline_kind,
                game.deadline_seat,
                game.deadline_count,
                game.deal_count,
            )
            != timer
        ):
            transaction.set_rollback(True)
            return None
    if game.action_count != count or not due(game, count, now or timezone.now()):
        transaction.set_rollback(True)
        return None
    if kind == Deadline.DEAL:
        deal_next(room, by=None)
        return room
    game_seat = room.game_seat(seat)
    if kind == Deadline.MOVE:
        game_seat.timeouts += 1  # stored with the move
    if game_seat.user_id is not None:
        game_seat.robot_decisions += 1  # stored with the move too
    act = Action.from_dict(action, game.players)
    event = {
        "kind": "act",
        "action": act.to_dict(),
        "by": game_seat.user.username if game_seat.user_id else None,
        "robot": robot,
        "timeout": kind == Deadline.MOVE,
    }
    apply(room, act, event, seats=[game_seat] if game_seat.user_id is not None else [])
    return room
