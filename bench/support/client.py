"""The one client of docs/protocol.md: the tests, the load tool, the fault tool and the
benchmarks all open their table sockets through it.

A `TableClient` is one player's socket on one table. It keeps the latest state: the last
`state` frame with the `update` frames since merged into it, as a browser's store does (an
update whose version leaves a gap is not merged: the client asks for the whole state with
`sync`). It speaks the protocol's requests (`act` with the count it saw, `sync`, ...), over either
transport:

- `TableClient.open(base_url, ...)`: real WebSockets (the `websockets` library) to a daphne
  process;
- `TableClient.in_process(application, ...)`: the site's whole ASGI application in this
  process, through Channels' `WebsocketCommunicator` (origin check, session cookie, routing).

`socket` is the transport itself, for a test that sends what no client should (garbage,
floods) or looks at the close codes.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

ORIGIN = "http://127.0.0.1"
SESSION_COOKIE = "sessionid"
LANGUAGE_COOKIE = "django_language"


def merged(state: dict[str, Any], update: dict[str, Any]) -> dict[str, Any]:
    """The state after `update` (docs/protocol.md): each key it carries replaces the
    state's, but `game`, whose keys replace the same game's one by one."""
    new = {**state, **{key: value for key, value in update.items() if key != "type"}}
    game, old = update.get("game"), state.get("game")
    if game is not None and old is not None and game["id"] == old["id"]:
        new["game"] = {**old, **game}
    return new


def table_path(table_id: int) -> str:
    return f"/ws/tables/{table_id}/"


def cookie_header(session: str | None = None, language: str | None = None) -> str | None:
    """The Cookie header of a player logged in with `session`, reading in `language`."""
    cookies = []
    if session:
        cookies.append(f"{SESSION_COOKIE}={session}")
    if language:
        cookies.append(f"{LANGUAGE_COOKIE}={language}")
    return "; ".join(cookies) or None


def session_cookie(user) -> str:
    """A session cookie of `user`, logged in (in this process's database)."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


async def connect_in_process(
    application,
    path: str,
    *,
    session: str | None = None,
    language: str | None = None,
    origin: str = ORIGIN,
    client: tuple[str, int] | None = None,
    headers: tuple[tuple[bytes, bytes], ...] = (),
):
    """A connected Channels `WebsocketCommunicator` on `path` of `application`. `client` is
    the peer's address, as daphne gives it; `headers` are sent besides the handshake's own
    (e.g. a proxy's X-Forwarded-For)."""
    from channels.testing import WebsocketCommunicator

    headers = [(b"origin", origin.encode()), (b"host", b"127.0.0.1"), *headers]
    cookie = cookie_header(session, language)
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    if client is not None:
        communicator.scope["client"] = client
    connected, _ = await communicator.connect(timeout=5)
    assert connected, f"the handshake on {path} was refused"
    return communicator


async def connect(
    base_url: str,
    path: str,
    *,
    session: str | None = None,
    origin: str | None = None,
    open_timeout: float = 10,
    retry_for: float = 0,
    headers: dict[str, str] | None = None,
    **options: Any,
):
    """A real WebSocket (`websockets`) on `path` of the daphne at `base_url` (`https://`:
    over TLS), tried again while the server is down for at most `retry_for` seconds.
    `headers` are sent besides the handshake's own; `options` go to the event loop's
    `create_connection` (e.g. `ssl`, or `local_addr` to connect from a given address)."""
    from websockets.asyncio.client import connect as ws_connect
    from websockets.exceptions import InvalidStatus

    cookie = cookie_header(session)
    extra = {**(headers or {}), **({"Cookie": cookie} if cookie else {})}
    url = base_url.replace("https://", "wss://").replace("http://", "ws://") + path
    deadline = time.monotonic() + retry_for
    while True:
        try:
            return await ws_connect(
                url,
                origin=origin or base_url,
                additional_headers=extra,
                proxy=None,
                compression=None,
                open_timeout=open_timeout,
                **options,
            )
        except (OSError, InvalidStatus):
            if time.monotonic() >= deadline:
                raise
            await asyncio.sleep(0.2)


class _WebSocket:
    def __init__(self, ws) -> None:
        self.socket = ws

    async def send(self, data: str | bytes) -> None:
        await self.socket.send(data)

    async def recv(self, timeout: float | None) -> str:
        return await asyncio.wait_for(self.socket.recv(), timeout)

    async def close(self) -> None:
        await self.socket.close()


class _InProcess:
    def __init__(self, communicator) -> None:
        self.socket = communicator

    async def send(self, data: str | bytes) -> None:
        if isinstance(data, bytes):
            await self.socket.send_to(bytes_data=data)
        else:
            await self.socket.send_to(text_data=data)

    async def recv(self, timeout: float | None) -> str:
        return await self.socket.receive_from(timeout=timeout or 3600)

    async def close(self) -> None:
        await self.socket.disconnect()


class TableClient:
    """One player's socket on one table: keeps the latest `state` frame."""

    def __init__(self, transport: _WebSocket | _InProcess) -> None:
        self._transport = transport
        self.state: dict[str, Any] | None = None
        self.first: dict[str, Any] | None = None
        self.gaps = 0  # updates that came after a missed one: each asked for the state

    @classmethod
    async def open(
        cls,
        base_url: str,
        table_id: int,
        session: str | None,
        *,
        open_timeout: float = 10,
        retry_for: float = 0,
        **options: Any,
    ) -> TableClient:
        """Connect over a real WebSocket as the player whose session cookie is `session`;
        wait for the first frame, the whole state (at least 10 s, or `open_timeout`).
        `options`: as `connect`'s."""
        ws = await connect(
            base_url,
            table_path(table_id),
            session=session,
            open_timeout=open_timeout,
            retry_for=retry_for,
            **options,
        )
        return await cls(_WebSocket(ws))._started(timeout=max(10, open_timeout))

    @classmethod
    async def in_process(
        cls, application, table_id: int, session: str | None = None, **handshake
    ) -> TableClient:
        """Connect to `application` in this process (see `connect_in_process` for
        `handshake`); wait for the first frame, the whole state."""
        communicator = await connect_in_process(
            application, table_path(table_id), session=session, **handshake
        )
        return await cls(_InProcess(communicator))._started()

    async def _started(self, timeout: float = 10) -> TableClient:
        try:
            self.first = await self.receive(timeout=timeout)
        except BaseException:
            await self.close()
            raise
        return self

    @property
    def socket(self):
        """The transport: a `websockets` connection or a Channels `WebsocketCommunicator`."""
        return self._transport.socket

    async def receive(self, timeout: float | None = None) -> dict[str, Any]:
        """The next frame, as it came; a `state` frame becomes the latest state and an
        `update` is merged into it. TimeoutError when none comes within `timeout` seconds."""
        frame = json.loads(await self._transport.recv(timeout))
        if frame["type"] == "state":
            if self.state is None or frame["version"] >= self.state["version"]:
                self.state = frame
        elif frame["type"] == "update" and self.state is not None:
            if frame["version"] == self.state["version"] + 1:
                self.state = merged(self.state, frame)
            elif frame["version"] > self.state["version"]:
                # A push was missed: the whole state, as docs/protocol.md says.
                self.gaps += 1
                await self.sync()
        return frame

    async def receive_state(self, timeout: float | None = None) -> dict[str, Any]:
        """The latest state after the next `state` or `update` frame that changed it (the
        frames before it are read and dropped)."""
        while True:
            before = self.state
            frame = await self.receive(timeout)
            if frame["type"] in ("state", "update") and self.state is not before:
                return self.state

    @property
    def count(self) -> int:
        assert self.state is not None
        return self.state["count"]

    @property
    def seat(self) -> int | None:
        assert self.state is not None
        return self.state["you"]["seat"]

    @property
    def view(self) -> dict[str, Any]:
        assert self.state is not None and self.state["game"] is not None
        return self.state["game"]["view"]

    async def send(self, message: dict[str, Any]) -> None:
        await self._transport.send(json.dumps(message))

    async def send_raw(self, data: str | bytes) -> None:
        """Anything at all, as a text (str) or binary (bytes) frame."""
        await self._transport.send(data)

    async def act(self, action: dict[str, Any]) -> None:
        """Play `action`, as of the count of the latest state."""
        await self.send({"type": "act", "action": action, "count": self.count})

    async def sync(self) -> None:
        """Ask for the whole state again."""
        await self.send({"type": "sync"})

    async def close(self) -> None:
        await self._transport.close()
