"""Writes about tables and games. Every change at a table goes through one of these.

Each service is keyword-only, runs in one `transaction.atomic()`, takes the table's row with
`select_for_update()` before reading anything it will change (so any number of daphne
processes can serve one table), and pushes each seat its own view with
`transaction.on_commit`, so nobody ever sees a state that was rolled back. Refusals raise
`TableError` (a code from docs/protocol.md and a translatable message) and change nothing.

| service | what | locks |
|---|---|---|
| `table_create` | a new table; its master sits in seat 0 | the master's user row |
| `table_sit` | sit in a free seat | the table |
| `table_stand` | leave a seat before the game starts | the table |
| `table_seen` | note the address a seated player's socket comes from | the table |
| `table_set_options` | the master changes §10 options between games | the table |
| `table_invite` | the master invites a player by username | the table |
| `table_close` | a moderator closes a table | the table |
| `game_start` | the master starts a game: stakes to the pot, first deal | the table, ledger rows |
| `game_act` | one action, checked and applied by the engine, appended to the record | the table |
| `game_next_deal` | deal the next deal of a running game | the table |
| `game_hand_off` | the finished game's one call to rankings (run after commit) | nothing itself |
| `chat_post` | a chat line, at most 5 per user in 10 s | the table, then the author's user row |
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from accounts.models import User
from games.models import ChatMessage, Game, Invitation, Table


class TableError(Exception):
    """A refused request: `code` is one of docs/protocol.md's error codes, `message` a
    translatable sentence, `rule` a RULES.md section or None, `field` an option name or None."""

    def __init__(
        self, code: str, message: Any, *, rule: str | None = None, field: str | None = None
    ) -> None:
        super().__init__(str(message))
        self.code = code
        self.message = message
        self.rule = rule
        self.field = field


@transaction.atomic
def table_create(
    *, master: User, options: Mapping[str, Any], ip_address: str | None = None
) -> Table:
    raise NotImplementedError


@transaction.atomic
def table_sit(
    *, table_id: int, user: User, seat: int | None = None, ip_address: str | None = None
) -> Table:
    raise NotImplementedError


@transaction.atomic
def table_stand(*, table_id: int, user: User) -> Table:
    raise NotImplementedError


@transaction.atomic
def table_seen(*, table_id: int, user: User, ip_address: str | None) -> None:
    raise NotImplementedError


@transaction.atomic
def table_set_options(*, table_id: int, user: User, options: Mapping[str, Any]) -> Table:
    raise NotImplementedError


@transaction.atomic
def table_invite(*, table_id: int, user: User, username: str) -> Invitation:
    raise NotImplementedError


@transaction.atomic
def table_close(*, table_id: int, moderator: User) -> Table:
    raise NotImplementedError


@transaction.atomic
def game_start(*, table_id: int, user: User) -> Game:
    raise NotImplementedError


@transaction.atomic
def game_act(
    *, table_id: int, user: User, action: Mapping[str, Any], count: int | None = None
) -> Game:
    raise NotImplementedError


@transaction.atomic
def game_next_deal(*, table_id: int, user: User) -> Game:
    raise NotImplementedError


def game_hand_off(*, game: Game) -> None:
    raise NotImplementedError


@transaction.atomic
def chat_post(*, table_id: int, user: User, text: str) -> ChatMessage:
    raise NotImplementedError
