"""Every socket frame is public but for its own seat's cards (issue #39): no frame names a
person by anything but their username.

A whole competitive game is played over the table sockets (two seated players, a logged-in
spectator and an anonymous one), with chat and a rematch offer, while the lobby socket
(logged in and anonymous) and each player's own socket (/ws/me/) listen; then an arena is
joined, played and finished over its socket (two players and an anonymous watcher), its
table watched and played, and its podium announced on /ws/me/. Every frame each socket got
is scanned: no IP address (each player connects from one of their own), no email, no account
id (the accounts' ids are far from any other row's) and no key that would carry one.
"""

from __future__ import annotations

import json
import random
import re
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.utils import timezone

from games.arenas import services as arena_services
from games.arenas.models import Arena, ArenaPlayer
from games.table import seating
from tests.support.arenas import habanero_arena, play_out, running_games
from tests.support.factories import UserFactory
from tests.support.live import open_socket, table_socket
from tests.support.play import current, move, next_push

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

FIRST_ID = 8_204_113
ADDRESSES = ("192.0.2.61", "192.0.2.62", "192.0.2.63")
IP_LIKE = re.compile(r"(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?![\d.])")
FORBIDDEN_KEYS = {"email", "ip", "ip_address", "address", "user_id", "password", "last_login"}


class Recorded:
    """A socket that keeps every frame it receives, for the scan."""

    def __init__(self, name: str, socket, first: dict | None = None) -> None:
        self.name, self.socket = name, socket
        self.frames: list[dict] = [first] if first is not None else []

    async def receive_json_from(self, timeout: float = 5) -> dict:
        frame = await self.socket.receive_json_from(timeout=timeout)
        self.frames.append(frame)
        return frame

    async def send_json_to(self, data: dict) -> None:
        await self.socket.send_json_to(data)

    async def drain(self) -> None:
        while not await self.socket.receive_nothing(timeout=0.5):
            await self.receive_json_from()

    async def disconnect(self) -> None:
        await self.socket.disconnect()


def keys_of(data: Any) -> set[str]:
    if isinstance(data, dict):
        return set(data) | {k for value in data.values() for k in keys_of(value)}
    if isinstance(data, list):
        return {k for value in data for k in keys_of(value)}
    return set()


def scan(sockets: list[Recorded], users) -> int:
    ids = [re.compile(rf"(?<!\d){user.pk}(?!\d)") for user in users]
    emails = [user.email.lower() for user in users]
    scanned = 0
    for socket in sockets:
        assert socket.frames, f"{socket.name} received nothing"
        for frame in socket.frames:
            text = json.dumps(frame)
            where = f"{socket.name} was sent {text[:300]}"
            assert not IP_LIKE.search(text), where
            assert "@" not in text and not any(e in text.lower() for e in emails), where
            assert not any(pattern.search(text) for pattern in ids), where
            assert not keys_of(frame) & FORBIDDEN_KEYS, where
            scanned += 1
    return scanned


def people():
    users = [
        UserFactory(id=FIRST_ID + n, username=name, chips=1000)
        for n, name in enumerate(("ana", "beto", "carla"))
    ]
    table = seating.table_create(
        master=users[0],
        options={"variant": "habanero", "points_to_win": 1, "stake": 20, "guests": True},
        ip_address=ADDRESSES[0],
    )
    return users, table


@pytest.mark.asyncio
async def test_no_frame_of_a_game_or_an_arena_names_anyone_but_by_username():
    (ana, beto, carla), table = await sync_to_async(people)()
    client = {ana: (ADDRESSES[0], 5001), beto: (ADDRESSES[1], 5002), carla: (ADDRESSES[2], 5003)}
    sockets: list[Recorded] = []

    async def listen(name: str, path: str, user=None) -> Recorded:
        kept = Recorded(name, await open_socket(path, user, client=client.get(user)))
        sockets.append(kept)
        return kept

    async def at_table(name: str, table_id: int, user=None) -> Recorded:
        socket, first = await table_socket(table_id, user, client=client.get(user))
        kept = Recorded(name, socket, first)
        sockets.append(kept)
        return kept

    await listen("lobby (carla)", "/ws/lobby/", carla)
    await listen("lobby (anonymous)", "/ws/lobby/")
    for user in (ana, beto):
        await listen(f"/ws/me/ ({user.username})", "/ws/me/", user)
    seated = [await at_table(f"table ({u.username})", table.pk, u) for u in (ana, beto)]
    await at_table("table (carla watching)", table.pk, carla)
    await at_table("table (anonymous watching)", table.pk)

    await seated[1].send_json_to({"type": "sit", "seat": 1})
    await current(seated[1])
    await current(seated[0])
    await seated[0].send_json_to({"type": "chat", "text": "Suerte"})
    await seated[0].send_json_to({"type": "start"})
    for socket in seated:
        while (frame := await next_push(socket))["event"]["kind"] != "start":
            pass
    while frame["event"]["kind"] != "end":
        frame = (await move(seated))[0]
    await seated[1].send_json_to({"type": "rematch"})
    for socket in sockets:
        await socket.drain()

    # The arena: joined over its socket, each player from their own address.
    arena = await sync_to_async(habanero_arena)(entry=10)
    path = f"/ws/arenas/{arena.pk}/"
    await listen("arena (anonymous)", path)
    players = [await listen(f"arena ({u.username})", path, u) for u in (ana, beto)]
    for socket in players:
        await socket.drain()
        await socket.send_json_to({"type": "join"})
    for socket in sockets:
        await socket.drain()
    assert await sync_to_async(ArenaPlayer.objects.filter(arena=arena).count)() == 2

    def seat_them():
        arena_services.arena_tick(now=timezone.now() + timedelta(minutes=1))
        return running_games(arena)

    (game,) = await sync_to_async(seat_them)()
    await at_table("arena table (ana)", game.table_id, ana)
    await at_table("arena table (anonymous watching)", game.table_id)
    await sync_to_async(play_out)(game, {ana.pk: ana, beto.pk: beto}, random.Random(39))

    def finish():
        arena_services.arena_tick()  # scores the game
        for user in (ana, beto):
            arena_services.arena_pause(arena_id=arena.pk, user=user)
        Arena.objects.filter(pk=arena.pk).update(starts_at=timezone.now() - timedelta(hours=1))
        return arena_services.arena_tick()["finished"]

    assert await sync_to_async(finish)() == 1
    for socket in sockets:
        await socket.drain()
    kinds = {f["type"] for s in sockets for f in s.frames}
    assert {"state", "update", "tables", "arena", "arena_over"} <= kinds, kinds
    scanned = await sync_to_async(scan)(sockets, [ana, beto, carla])
    assert scanned > 50
    for socket in sockets:
        await socket.disconnect()
