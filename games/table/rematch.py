"""Rematch: when a game ends, any player may offer the next game with the same players.

The offer is kept on the table (`Table.rematch`: the game it follows, who offered, who
accepted). The others see Accept and Decline; the next game starts once every player seated
has accepted and every seat is taken (robots need not answer). A decline ends the offer.
The master may still change the options meanwhile: the next game is played with the options
the table has when the last player accepts. Who sits and stands decides who must accept:
the offer is for those seated when it is answered.

| service | what | locks |
|---|---|---|
| `rematch_offer` | offer the next game (or accept an open offer) | the table, ledger rows |
| `rematch_answer` | accept or decline the open offer | the table, ledger rows |
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from accounts.models import User
from games.models import Table
from games.table import permits
from games.table.frames import broadcast
from games.table.permits import open_offer
from games.table.play import start_game
from games.table.refusals import require_user
from games.table.room import Part, Room, locked_room


def _everyone_in(room: Room, accepted: list[int], by: User) -> bool:
    """Start the next game if every seat is taken and every player seated accepted."""
    table = room.table
    if permits.rematch_waits(table, room.seats, accepted):
        return False
    table.rematch = {}
    table.save(update_fields=["rematch"])
    start_game(room, by=by)
    return True


@transaction.atomic
def rematch_offer(*, table_id: int, user: User) -> Table:
    """`user`, seated at a table whose game is over, offers the next game with the same
    players; while an offer is open it is answered, not made again. Locks the table."""
    user = require_user(user)
    room = locked_room(table_id, load=Part.SEATS | Part.GAME)
    permits.require("rematch", room, user)
    table = room.table
    offer = {"game": table.game_id, "by": user.pk, "accepted": [user.pk]}
    table.rematch = offer
    table.save(update_fields=["rematch"])
    if not _everyone_in(room, offer["accepted"], user):
        broadcast(room, {"kind": "rematch", "by": user.username}, table=True, game=False)
    return table


def _accept(room: Room, user: User, offer: dict[str, Any]) -> Table:
    table = room.table
    if user.pk not in offer["accepted"]:
        offer = {**offer, "accepted": [*offer["accepted"], user.pk]}
    table.rematch = offer
    table.save(update_fields=["rematch"])
    if not _everyone_in(room, offer["accepted"], user):
        event = {"kind": "rematch_accept", "by": user.username}
        broadcast(room, event, table=True, game=False)
    return table


@transaction.atomic
def rematch_answer(*, table_id: int, user: User, accept: bool) -> Table:
    """`user` accepts or declines the open rematch offer: once everyone seated accepted,
    the next game starts; a decline ends the offer. Locks the table."""
    user = require_user(user)
    room = locked_room(table_id, load=Part.SEATS | Part.GAME)
    permits.require("rematch_answer", room, user)
    table = room.table
    offer = open_offer(table)
    if accept:
        return _accept(room, user, offer)
    table.rematch = {}
    table.save(update_fields=["rematch"])
    broadcast(room, {"kind": "rematch_decline", "by": user.username}, table=True, game=False)
    return table
