"""Tables and games as stored truth, a module by concern: a game (game.py), a table and what
happens around it (table.py), who is connected where (live.py) and players' reports
(reports.py).

A `Table` holds the options of RULES.md §10, its master and its seats; it points at its
current (or last) `Game`. A game stores its record (NOTATION.md) plus who sat where. Writes
live in the live-play wing (games/table/), reads in games/selectors.py. The models import
nothing of the wing: they read the options' declaration (games/options.py) and the engine.
"""

from games.models.game import Deadline, Game, GameAction, GameAnalysis, GameSeat, Variant
from games.models.live import (
    ServerProcess,
    TableSocket,
    TimerClaim,
    UserSocket,
    forget_socket,
    note_socket,
)
from games.models.reports import Report
from games.models.table import (
    CancelProposal,
    ChatMessage,
    Invitation,
    Table,
    TableSeat,
    seats_share_address,
)

__all__ = [
    "CancelProposal",
    "ChatMessage",
    "Deadline",
    "Game",
    "GameAction",
    "GameAnalysis",
    "GameSeat",
    "Invitation",
    "Report",
    "ServerProcess",
    "Table",
    "TableSeat",
    "TableSocket",
    "TimerClaim",
    "UserSocket",
    "Variant",
    "forget_socket",
    "note_socket",
    "seats_share_address",
]
