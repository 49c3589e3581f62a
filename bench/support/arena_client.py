"""A player of an arena over real WebSockets (docs/protocol.md, "Arena socket"): joins on
`/ws/arenas/<id>/`, and each time the arena seats them at a table plays that table's game
with random legal actions on `/ws/tables/<id>/` (bench/support/client.py), until the arena is over.

It survives what the fault tool does to the servers: a socket that closes is opened again
(on any of the daphne processes), and a silent one asks for the whole state (`sync`). The
8-player arena test and the fault tool's arena run both play through it.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from bench.support.client import TableClient, cookie_header

SILENCE = 2.0  # seconds without a frame before asking for the whole state


def short_arena(*, seconds: float, starts_in: float = 2.0, **fields):
    """An arena of one-deal habanero for the tools and tests: `seconds` long, starting in
    `starts_in`, no new game in its last quarter (20 s at most), 3 s of wait for a new
    opponent, 5 s a move; `fields` change any of it."""
    from django.utils import timezone

    from games.arenas.models import Arena

    values = {
        "name": "Habanero arena",
        "variant": "habanero",
        "players": 2,
        "pairs": False,
        "points_to_win": 1,
        "move_time": 5,
        "starts_at": timezone.now() + timedelta(seconds=starts_in),
        "length": timedelta(seconds=seconds),
        "closing": timedelta(seconds=min(20.0, seconds / 4)),
        "pairing_wait": timedelta(seconds=3),
        **fields,
    }
    return Arena.objects.create(**values)


@dataclass
class ArenaTally:
    frames: int = 0
    reconnects: int = 0
    acts: int = 0
    errors: Counter = field(default_factory=Counter)
    tables: list[int] = field(default_factory=list)
    # Each arena frame's standings as this player saw them: (score of each user).
    scores_seen: list[dict[str, int]] = field(default_factory=list)


async def arena_socket(base_url: str, arena_id: int, session: str, forwarded_for: str | None):
    """A real WebSocket on the arena's socket, as a browser behind a proxy opens it."""
    from websockets.asyncio.client import connect

    headers = {"Cookie": cookie_header(session)}
    if forwarded_for:
        headers["X-Forwarded-For"] = forwarded_for
    return await connect(
        base_url.replace("http://", "ws://") + f"/ws/arenas/{arena_id}/",
        origin=base_url,
        additional_headers=headers,
        proxy=None,
        compression=None,
        open_timeout=5,
    )


class ArenaPlayer:
    """One player of the arena: `run()` returns the last arena frame once the arena is over
    (or after `max_tables` games)."""

    def __init__(
        self,
        urls: list[str],
        arena_id: int,
        *,
        session: str,
        username: str,
        rng: random.Random,
        forwarded_for: str | None = None,
        max_tables: int | None = None,
    ) -> None:
        self.urls, self.arena_id, self.session = urls, arena_id, session
        self.username, self.rng, self.forwarded_for = username, rng, forwarded_for
        self.max_tables = max_tables  # stop after that many games (None: the whole arena)
        self.tally = ArenaTally()
        self.last: dict[str, Any] | None = None
        self.played: set[int] = set()

    async def run(self) -> dict[str, Any]:
        from websockets.exceptions import WebSocketException

        while True:
            try:
                ws = await arena_socket(
                    self.rng.choice(self.urls), self.arena_id, self.session, self.forwarded_for
                )
            except (OSError, TimeoutError, WebSocketException):
                self.tally.reconnects += 1
                await asyncio.sleep(self.rng.uniform(0.2, 0.6))
                continue
            try:
                await ws.send(json.dumps({"type": "join"}))
                if await self._follow(ws):
                    return self.last
            except (OSError, TimeoutError, WebSocketException):
                self.tally.reconnects += 1
                await asyncio.sleep(self.rng.uniform(0.1, 0.4))
            finally:
                await ws.close()

    async def _follow(self, ws) -> bool:
        """Read the arena's frames, play each new table; True once the arena is over."""
        while True:
            try:
                frame = json.loads(await asyncio.wait_for(ws.recv(), SILENCE))
            except TimeoutError:
                await ws.send(json.dumps({"type": "sync"}))
                continue
            if frame["type"] == "error":
                self.tally.errors[frame["code"]] += 1
                continue
            if frame["type"] != "arena":
                continue
            self.tally.frames += 1
            self.last = frame
            self.tally.scores_seen.append({s["user"]: s["score"] for s in frame["standings"]})
            if frame["arena"]["status"] == "finished" and frame["podium"] is not None:
                return True
            mine = next(
                (
                    t
                    for t in frame["tables"]
                    if self.username in t["players"] and t["id"] not in self.played
                ),
                None,
            )
            if mine is not None:
                self.played.add(mine["id"])
                self.tally.tables.append(mine["id"])
                await self.play_table(mine["id"], mine["game_id"])
                if self.max_tables is not None and len(self.played) >= self.max_tables:
                    return True
                await ws.send(json.dumps({"type": "sync"}))

    async def play_table(self, table_id: int, game_id: int) -> None:
        """Play the table's one game with random legal actions until it is over."""
        from websockets.exceptions import WebSocketException

        while True:
            try:
                client = await TableClient.open(
                    self.rng.choice(self.urls), table_id, self.session, open_timeout=5
                )
            except (OSError, TimeoutError, WebSocketException):
                self.tally.reconnects += 1
                await asyncio.sleep(self.rng.uniform(0.2, 0.6))
                continue
            try:
                if await self._play(client, game_id):
                    return
            except (OSError, TimeoutError, WebSocketException):
                self.tally.reconnects += 1
                await asyncio.sleep(self.rng.uniform(0.1, 0.4))
            finally:
                await client.close()

    async def _play(self, client: TableClient, game_id: int) -> bool:
        acted_at: tuple | None = None
        while True:
            state = client.state
            game = state["game"] if state else None
            if game is not None and game["id"] == game_id and game["status"] != "playing":
                return True
            view = game["view"] if game else None
            if view and view["legal_actions"] and acted_at != (game_id, state["count"]):
                acted_at = (game_id, state["count"])
                await asyncio.sleep(self.rng.uniform(0.0, 0.03))
                await client.act(self.rng.choice(view["legal_actions"]))
                self.tally.acts += 1
            elif view and view["needs_deal"] and acted_at != (game_id, state["count"], "deal"):
                acted_at = (game_id, state["count"], "deal")
                await client.send({"type": "next_deal"})
            try:
                frame = await client.receive(timeout=SILENCE)
            except TimeoutError:
                acted_at = None
                await client.sync()
                continue
            if frame["type"] == "error":
                self.tally.errors[frame["code"]] += 1
                if frame["code"] != "stale":
                    acted_at = None
                    await client.sync()
