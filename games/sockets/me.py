"""`/ws/me/`: a logged-in player's own socket, open on every page."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from games import push, server
from games.sockets.base import CLOSE_FORBIDDEN, JsonSocket, socket_language
from games.table import people


class UserConsumer(JsonSocket):
    """`/ws/me/`: a logged-in player's own socket, open on every page: the header's count of
    invitations, pushed as it changes; the player is online while one is open."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated or user.is_guest:
            await self.close(CLOSE_FORBIDDEN)
            return
        self.user = user
        self.language = socket_language(self.scope)
        server.ensure_running()
        await self.accept()
        server.SOCKETS.add(self)
        await server.database(people.user_socket_open)(
            user=user, channel_name=self.channel_name, process_id=server.PROCESS_ID
        )
        await self.rejoin()

    async def rejoin(self) -> None:
        await self.channel_layer.group_add(push.user_group(self.user.pk), self.channel_name)
        await self.send_json(await server.database(people.invitations_frame)(user_id=self.user.pk))

    async def disconnect(self, code: int) -> None:
        server.SOCKETS.discard(self)
        if getattr(self, "user", None) is None:
            return
        try:
            await self.channel_layer.group_discard(push.user_group(self.user.pk), self.channel_name)
        finally:
            await self.note_closed()

    async def note_closed(self) -> None:
        if getattr(self, "user", None) is not None:
            await server.database(people.user_socket_close)(channel_name=self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        await self.send_error("malformed", _("Unknown message type."), request=None)

    async def user_frame(self, event: dict[str, Any]) -> None:
        await self.send_json(event["frame"])
