"""`/ws/arenas/<id>/`: an arena's live page (docs/protocol.md, "Arena socket").

A logged-in player's open socket says they are present (`ArenaSocket`): only present
players are seated. On connect the socket gets the whole `arena` frame, then the same frame
again after every change (a join, a pause, a new table, a game scored, the start, the end).
A logged-in player sends `join` and `pause`; anybody may send `sync`. The frame is public
(standings, tables): it holds no hand, so every socket of the arena shares one group.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from games import server
from games.arenas import services
from games.arenas.frames import arena_group, arena_state
from games.sockets.base import CLOSE_UNKNOWN_TABLE, JsonSocket, socket_ip, socket_language
from games.table.refusals import TableError

REQUESTS = ("sync", "join", "pause")


class ArenaConsumer(JsonSocket):
    async def connect(self) -> None:
        self.arena_id = int(self.scope["url_route"]["kwargs"]["arena_id"])
        user = self.scope.get("user")
        self.user = user if user is not None and user.is_authenticated else None
        self.language = socket_language(self.scope)
        server.ensure_running()
        await self.accept()
        if self.user is not None:  # present: the pairing may seat them
            await server.database(services.arena_socket_open)(
                arena_id=self.arena_id,
                user=self.user,
                channel_name=self.channel_name,
                process_id=server.PROCESS_ID,
            )
        server.SOCKETS.add(self)
        await self.rejoin()

    async def rejoin(self) -> None:
        await self.channel_layer.group_add(arena_group(self.arena_id), self.channel_name)
        await self.send_state()

    async def disconnect(self, code: int) -> None:
        server.SOCKETS.discard(self)
        try:
            await self.channel_layer.group_discard(arena_group(self.arena_id), self.channel_name)
        finally:
            await self.note_closed()

    async def note_closed(self) -> None:
        await server.database(services.arena_socket_close)(channel_name=self.channel_name)

    async def send_state(self) -> None:
        frame = await server.database(arena_state)(self.arena_id)
        if frame is None:
            await self.send_error("unknown_arena", _("There is no such arena."), request=None)
            await self.close(CLOSE_UNKNOWN_TABLE)
            return
        frame["you"] = {"user": self.user.username if self.user else None}
        await self.send_json(frame)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind not in REQUESTS:
            await self.send_error("malformed", _("Unknown message type."), request=None)
            return
        if kind == "sync":
            await self.send_state()
            return
        error = await server.database(self._handle)(kind)
        if error is not None:
            await self.send_error(error.code, error.message, request=kind)

    def _handle(self, kind: str) -> TableError | None:
        try:
            if kind == "join":
                services.arena_join(
                    arena_id=self.arena_id, user=self.user, ip_address=socket_ip(self.scope)
                )
            else:
                services.arena_pause(arena_id=self.arena_id, user=self.user)
        except TableError as error:
            return error
        return None

    async def error_context(self) -> dict[str, Any]:
        return {"arena_id": self.arena_id}

    async def arena_frame(self, event: dict[str, Any]) -> None:
        await self.send_json(event["frame"])
