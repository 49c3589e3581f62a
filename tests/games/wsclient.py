"""A small client of docs/protocol.md over real WebSockets (the `websockets` library), and
(from the shared fixtures) daphne processes to point it at. Used by the two-process test and
by `make bench`."""

from __future__ import annotations

import json
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from tests.conftest import running_daphne as daphne

__all__ = ["TableClient", "daphne"]


class TableClient:
    """One player's socket on one table: keeps the latest `state` frame."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None

    @classmethod
    async def open(cls, base_url: str, table_id: int, session: str | None) -> TableClient:
        """Connect as the player whose session cookie is `session`; wait for the first state."""
        headers = {"Cookie": f"sessionid={session}"} if session else {}
        ws = await connect(
            base_url.replace("http://", "ws://") + f"/ws/tables/{table_id}/",
            origin=base_url,
            additional_headers=headers,
            proxy=None,
            compression=None,
        )
        client = cls(ws)
        await client.receive()
        return client

    async def receive(self) -> dict[str, Any]:
        frame = json.loads(await self.ws.recv())
        if frame["type"] == "state":
            self.state = frame
        return frame

    async def receive_state(self) -> dict[str, Any]:
        while True:
            frame = await self.receive()
            if frame["type"] == "state":
                return frame

    @property
    def view(self) -> dict[str, Any]:
        assert self.state is not None and self.state["game"] is not None
        return self.state["game"]["view"]

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def act(self, action: dict[str, Any]) -> None:
        await self.send({"type": "act", "action": action, "count": self.state["count"]})

    async def close(self) -> None:
        await self.ws.close()
