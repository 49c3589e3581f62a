"""`/ws/lobby/`: every table a user may see, then one message per change; "Play now"."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from games import push, server
from games.selectors import lobby_row_for, lobby_tables
from games.sockets.base import JsonSocket, socket_ip, socket_language
from games.table import matchmaking
from games.table.refusals import LOG_IN, TableError


class LobbyConsumer(JsonSocket):
    """`/ws/lobby/`: every open table, then one message per change."""

    async def connect(self) -> None:
        self.language = socket_language(self.scope)
        user = self.scope.get("user")
        self.user = user if user is not None and user.is_authenticated else None
        await self.accept()
        server.SOCKETS.add(self)
        await self.rejoin()

    async def rejoin(self) -> None:
        await self.channel_layer.group_add(push.LOBBY_GROUP, self.channel_name)
        await self.send_tables()

    async def disconnect(self, code: int) -> None:
        server.SOCKETS.discard(self)
        await self.channel_layer.group_discard(push.LOBBY_GROUP, self.channel_name)

    async def send_tables(self) -> None:
        tables = await server.database(lobby_tables)(user=self.user)
        await self.send_json({"type": "tables", "tables": tables})

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "sync":
            await self.send_tables()
            return
        if kind == "play_now":
            await self.play_now(content)
            return
        await self.send_error("malformed", _("Unknown message type."), request=None)

    async def play_now(self, content: dict[str, Any]) -> None:
        """ "Play now": seat this user at a fitting table (games/table/matchmaking.py) and
        say which, with a `seated` frame; the table's own socket shows the rest."""
        variant, stake = content.get("variant"), content.get("stake", 0)
        robots = content.get("robots", False)
        if (
            not isinstance(variant, str)
            or not isinstance(stake, int)
            or isinstance(stake, bool)
            or not isinstance(robots, bool)
        ):
            await self.send_error(
                "malformed", _("Play now needs a variant and a stake."), request="play_now"
            )
            return
        if self.user is None:
            await self.send_error("login_required", LOG_IN, request="play_now")
            return
        try:
            table = await server.database(matchmaking.play_now)(
                user=self.user,
                variant=variant,
                stake=stake,
                robots=robots,
                ip_address=socket_ip(self.scope),
            )
        except TableError as error:
            await self.send_error(error.code, error.message, field=error.field, request="play_now")
            return
        await self.send_json(
            {"type": "seated", "table_id": table.pk, "url": table.get_absolute_url()}
        )

    async def lobby_frame(self, event: dict[str, Any]) -> None:
        frame = event["frame"]
        if frame["type"] == "table":
            # A row is this user's to see or not (a practice table, a private one): one
            # they may not see leaves their lobby as a closed table does.
            row = await server.database(lobby_row_for)(row=frame["table"], user=self.user)
            if row is None:
                frame = {"type": "table_closed", "table_id": frame["table"]["id"]}
            else:
                frame = {**frame, "table": row}
        await self.send_json(frame)
