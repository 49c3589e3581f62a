"""The practice hint: what the strongest robot would do now, from the player's own view.

Only at a practice table (robots in every other seat: a hint at a table with people would
be help against them). The robot is given the player's `SeatView`, what the player sees, and
nothing else: never a hidden card. It thinks outside the table's lock, on a room read
without it, for at most `HINT_BUDGET_MS`; the answer goes to the asking socket only.

| service | what | locks |
|---|---|---|
| `game_hint` | the strongest robot's choice for the player's seat | none |
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.bots import StrongBot
from games.engine import SeatView
from games.models import Table
from games.table import permits
from games.table.refusals import TableError, require_user
from games.table.room import read_room

# The robot's time to think, wall clock: the expert level's.
HINT_BUDGET_MS = 1000.0


def hint_view(*, table_id: int, user: User) -> tuple[int, SeatView]:
    """The player's own view at a practice table where it is theirs to act, and the game's
    action count; refuses a table with people, a table with no game, and a moment when
    the player has nothing to do. Reads without the lock."""
    user = require_user(user)
    table = Table.objects.filter(pk=table_id).only("pk", "game_id", "status").first()
    if table is None or table.game_id is None:
        raise TableError("no_game", _("No game is running at this table."))
    room = read_room(table.game_id)
    if room is None:
        raise TableError("no_game", _("No game is running at this table."))
    permits.require("hint", room, user)
    seat = next(gs.seat for gs in room.game_seats if gs.user_id == user.pk)
    return room.game.action_count, room.state.view(seat)


def hint_choose(view: SeatView, *, budget_ms: float = HINT_BUDGET_MS) -> Any:
    """The strongest robot's choice from `view`, within `budget_ms` of wall time."""
    return StrongBot(budget_ms=budget_ms).choose(view)


def game_hint(*, table_id: int, user: User) -> dict[str, Any]:
    """The `hint` frame for `user` at table `table_id`: the robot's action, and the action
    count it was worked out at."""
    count, view = hint_view(table_id=table_id, user=user)
    action = hint_choose(view)
    return {"type": "hint", "table_id": table_id, "count": count, "action": action.to_dict()}
