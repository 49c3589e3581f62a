"""Whole deals played over WebSockets, on the Redis channel layer, checked frame by frame.

Every frame a seat receives must be exactly the engine's own view for that seat, rebuilt from
the stored record, and must hold no card hidden from that seat.
"""

import random

import pytest
from channels.db import database_sync_to_async as sync_to_async

from bench.support.client import merged
from games.models import Game, GameSeat
from tests.support.factories import UserFactory
from tests.support.live import WAIT, check_frame, record_of, table_socket
from tests.support.play import seated_table

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


async def receive_all(sockets: dict, table_id: int, states: dict | None = None) -> dict:
    """One frame per socket, each checked against the engine's view of the stored record;
    merged into `states`, each seat's state before them, when given (as a client does)."""
    frames = {
        seat: await socket.receive_json_from(timeout=WAIT) for seat, socket in sockets.items()
    }
    # Read after the frames came: they are pushed once the change is committed.
    record = await record_of(table_id)
    for seat, frame in frames.items():
        check_frame(frame, record, seat)
    if states is None:
        return frames
    return {seat: merged(states[seat], frame) for seat, frame in frames.items()}


async def play_until_deal_over(sockets: dict, frames: dict, table_id: int, seed: int) -> dict:
    """Random legal actions, each sent by the seat that may take it, until the deal ends."""
    rng = random.Random(seed)
    moves = 0
    while frames[None]["game"]["view"]["phase"] != "done":
        choices = [
            (seat, action)
            for seat, frame in frames.items()
            if seat is not None
            for action in frame["game"]["view"]["legal_actions"]
        ]
        assert choices, "the game waits for nobody"
        seat, action = rng.choice(choices)
        await sockets[seat].send_json_to(
            {"type": "act", "action": action, "count": frames[seat]["count"]}
        )
        frames = await receive_all(sockets, table_id, frames)
        event = dict(frames[seat]["event"])
        # A cante's event also carries its value (20 or 40), read from the record.
        value = event.pop("value", None)
        assert (value in (20, 40)) == ("sing" in action)
        assert event == {
            "kind": event["kind"],
            "action": action,
            "by": frames[seat]["you"]["user"],
        }
        moves += 1
    assert moves > 0
    return frames


async def start_game(table_id: int, users: list, spectator) -> tuple[dict, dict]:
    sockets = {}
    for seat, user in enumerate(users):
        sockets[seat], first = await table_socket(table_id, user)
        assert first["game"] is None and first["you"]["seat"] == seat
    sockets[None], first = await table_socket(table_id, spectator)
    assert first["you"] == {"user": spectator.username, "seat": None, "master": False}
    # A spectator may chat where guests watch, and do nothing else before the game.
    assert {kind for kind, ok in first["may"].items() if ok} == {"chat"}
    await sockets[0].send_json_to({"type": "start"})
    frames = await receive_all(sockets, table_id)
    assert {f["event"]["kind"] for f in frames.values()} == {"start"}
    return sockets, frames


@pytest.mark.asyncio
async def test_four_players_play_a_whole_tute_deal_each_seeing_only_their_own_cards():
    table, users = await sync_to_async(seated_table)({"variant": "tute", "players": 4}, 4)
    spectator = await sync_to_async(UserFactory)()
    sockets, frames = await start_game(table.pk, users, spectator)
    assert [len(frames[s]["game"]["view"]["hand"]) for s in range(4)] == [10, 10, 10, 10]
    assert frames[None]["game"]["view"]["hand"] is None
    frames = await play_until_deal_over(sockets, frames, table.pk, seed=4)
    # One deal to win: the deal's end is the game's end, told to everyone at once.
    assert {f["event"]["kind"] for f in frames.values()} == {"end"}
    game = await sync_to_async(Game.objects.get)(pk=frames[0]["game"]["id"])
    assert game.status == Game.Status.FINISHED and game.ended_at is not None
    assert frames[None]["game"]["result"] == {"over": True, **game.result}
    assert frames[None]["table"]["status"] == "open"
    outcomes = await sync_to_async(
        lambda: sorted(game.seats.values_list("seat", "outcome", "ip_address"))
    )()
    winner = game.result["winner"]
    assert [o for _, o, _ in outcomes] == [
        GameSeat.Outcome.WON if s % 2 == winner else GameSeat.Outcome.LOST for s in range(4)
    ]
    assert [ip for _, _, ip in outcomes] == ["10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"]
    for socket in sockets.values():
        await socket.disconnect()


@pytest.mark.asyncio
async def test_two_players_play_a_whole_habanero_deal_and_deal_the_next():
    table, users = await sync_to_async(seated_table)({"variant": "habanero", "points_to_win": 3}, 2)
    spectator = await sync_to_async(UserFactory)()
    sockets, frames = await start_game(table.pk, users, spectator)
    view = frames[0]["game"]["view"]
    assert len(view["hand"]) == 8 and view["stock_size"] == 24
    frames = await play_until_deal_over(sockets, frames, table.pk, seed=2)
    view = frames[None]["game"]["view"]
    assert view["needs_deal"] and not view["game_over"]
    # Anyone seated deals the next deal; everyone gets it, each with their own eight cards.
    await sockets[1].send_json_to({"type": "next_deal"})
    frames = await receive_all(sockets, table.pk, frames)
    assert {f["event"]["kind"] for f in frames.values()} == {"deal"}
    assert frames[0]["game"]["view"]["deal_number"] == 1
    assert len(frames[1]["game"]["view"]["hand"]) == 8
    for socket in sockets.values():
        await socket.disconnect()
