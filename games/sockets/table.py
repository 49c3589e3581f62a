"""`/ws/tables/<id>/`: the table's socket (docs/protocol.md).

It joins only the group of its own seat (or the spectators'), so it never holds another
seat's hand; a spectator's socket narrows the spectators' `may` to what its own user may do.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import orjson
from django.utils.translation import gettext_lazy as _

from games import push, server
from games.models import Table
from games.sockets.base import (
    BUSY,
    CLOSE_FORBIDDEN,
    CLOSE_UNKNOWN_TABLE,
    JsonSocket,
    socket_ip,
    socket_language,
)
from games.table import presence, requests
from games.table.frames import socket_state
from games.table.permits import narrow
from games.table.refusals import LOG_IN, TableError

logger = logging.getLogger(__name__)

# Socket closings still being written down (a reference keeps each task alive).
CLOSING: set[asyncio.Task] = set()


def _closed(task: asyncio.Task) -> None:
    """A closing's note is done: it failed only if its table is gone (or the database is
    down, and the sweeper hands the seat over later); say so in one line."""
    CLOSING.discard(task)
    if not task.cancelled() and task.exception() is not None:
        logger.warning("a closed socket's note failed: %r", task.exception())


def seat_in(frame: dict[str, Any], username: str | None) -> int | None:
    """The seat `username` holds according to a state frame's table."""
    if username is None:
        return None
    for entry in frame["table"]["seats"]:
        if entry is not None and entry["user"] == username:
            return entry["seat"]
    return None


class TableConsumer(JsonSocket):
    """`/ws/tables/<id>/`: the state of one table as its user may see it, and their requests."""

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        user = self.scope.get("user")
        self.user = user if user is not None and user.is_authenticated else None
        self.username = self.user.username if self.user is not None else None
        self.language = socket_language(self.scope)
        self.group: str | None = None
        self.seat: int | None = None
        # What this socket knows of its user as a spectator (permits.person).
        self.facts: dict[str, Any] | None = None
        # The table's version and the game's count in the last frame sent.
        self.version = self.count = 0
        server.ensure_running()
        await self.accept()
        arrived = await server.database(self._arrive)()
        if arrived is None:
            await self.send_error("unknown_table", _("There is no such table."), request=None)
            await self.close(CLOSE_UNKNOWN_TABLE)
            return
        guests, seat = arrived
        if self.user is None and not guests:
            await self.send_error("login_required", _("Log in to watch this table."), request=None)
            await self.close(CLOSE_FORBIDDEN)
            return
        # Join the seat's group first, then read once: a push that lands in between is older
        # or equal, and the client keeps the frame with the highest version.
        server.SOCKETS.add(self)
        self.seat, self.group = seat, push.frame_group(self.table_id, seat)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.refresh()

    def _arrive(self) -> tuple[bool, int | None] | None:
        """Whether the table admits guests, and the user's seat (None: no such table). A
        user's socket is counted (a player who was away is back) and a player's address
        noted. The table's row is read once for it all; the state is read after the seat's
        group is joined (`refresh`), so that no push falls between the two."""
        table = Table.objects.select_related("master").filter(pk=self.table_id).first()
        if table is None:
            return None
        seat = None
        if self.user is not None:
            seat = presence.table_socket_open(
                table=table,
                user=self.user,
                channel_name=self.channel_name,
                process_id=server.PROCESS_ID,
                ip_address=socket_ip(self.scope),
            )
        return table.guests, seat

    async def disconnect(self, code: int) -> None:
        server.SOCKETS.discard(self)
        group, self.group = self.group, None
        try:
            if group is not None:
                await self.channel_layer.group_discard(group, self.channel_name)
        finally:
            await self.note_closed()

    async def note_closed(self) -> None:
        """Write down that this socket closed (in the background)."""
        if getattr(self, "user", None) is not None and not getattr(self, "_closing", False):
            self._closing = True
            # The player's last socket closing during a game hands their seat to a robot. In
            # the background: the socket closes at once, whatever the database's pace (and
            # should this process die first, the sweeper closes its sockets).
            # A thread of its own too: the sockets' database thread stays free for the rest
            # of the closing.
            closing = asyncio.get_running_loop().create_task(
                server.in_thread(presence.table_socket_close, channel_name=self.channel_name)
            )
            CLOSING.add(closing)
            closing.add_done_callback(_closed)

    async def rejoin(self) -> None:
        self.group = None  # the list layer's groups went with Redis's data
        await self.refresh()

    async def refresh(self, event: dict[str, Any] | None = None) -> None:
        """Read this user's state afresh, join their seat's group (or the spectators') and
        send the whole state (with `event`, the change that made it stale)."""
        read = await server.database(socket_state)(table_id=self.table_id, user=self.user)
        if read is None:
            return
        fresh, self.facts = read
        fresh["event"] = event
        seat = seat_in(fresh, self.username)
        group = push.frame_group(self.table_id, seat)
        if group != self.group:
            if self.group is not None:
                await self.channel_layer.group_discard(self.group, self.channel_name)
            await self.channel_layer.group_add(group, self.channel_name)
            self.group, self.seat = group, seat
            # Read again: a push sent before joining the new group may have been missed.
            read = await server.database(socket_state)(table_id=self.table_id, user=self.user)
            if read is not None:
                fresh, self.facts = read
            fresh["event"] = event
        await self.send_state(fresh)

    def you(self, *, master: str) -> dict[str, Any]:
        """Who this socket is at the table, which frames with the table's summary carry."""
        return {
            "user": self.username,
            "seat": self.seat,
            "master": self.username is not None and master == self.username,
        }

    async def send_state(self, frame: dict[str, Any]) -> None:
        """Send a frame read for this socket, with `you` when it carries the table."""
        self.version, self.count = frame["version"], frame["count"]
        if "table" in frame:
            table = frame["table"]
            frame = {
                **frame,
                "you": self.you(master=table["master"]),
            }
        await self.send(text_data=push.encode(frame))

    # --- Pushes from services ------------------------------------------------------------

    async def table_frame(self, event: dict[str, Any]) -> None:
        """A seat's frame, pushed as JSON text (games/push.py `table_messages`): sent as it
        is, with `you` added to a frame that carries the table."""
        table = event["table"]
        if event["seat"] != self.seat or (
            table is not None and table["seated"].get(self.username) != self.seat
        ):
            # Someone sat or stood, or a late frame of a group we left: never forward a view
            # that is not ours; read our own instead.
            await self.refresh(event["event"])
            return
        text = event["text"]
        self.version, self.count = event["version"], event["count"]
        if table is not None and self.facts is not None:
            # The spectators' frame answers for anyone: this socket's user may do less.
            frame = orjson.loads(text)
            frame["may"] = narrow(frame["may"], self.facts)
            text = push.encode(frame)
        if table is not None:
            # The text is a JSON object: `you` goes in before its closing brace.
            you = push.encode(self.you(master=table["master"]))
            text = f'{text[:-1]},"you":{you}}}'
        await self.send(text_data=text)

    async def table_chat(self, event: dict[str, Any]) -> None:
        await self.send_json(event["frame"])

    # --- Requests from the client --------------------------------------------------------

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict):
            await self.send_error(
                "malformed",
                _("A message must be a JSON object."),
                request=None,
            )
            return
        kind = content.get("type")
        request = kind if isinstance(kind, str) else None
        if "table_id" in content and content["table_id"] != self.table_id:
            await self.send_error(
                "wrong_table",
                _("That message is for another table."),
                request=request,
            )
            return
        if kind == "sync":
            try:
                await self.refresh()
            except push.LAYER_ERRORS:
                raise
            except Exception:
                logger.exception("table %s: sync failed", self.table_id)
                await self.send_error("busy", BUSY, request=request)
            return
        try:
            parsed = requests.parse(content)
        except requests.Malformed as exc:
            await self.send_error("malformed", exc.message, request=request)
            return
        if self.user is None:
            await self.send_error("login_required", LOG_IN, request=request)
            return
        try:
            if isinstance(parsed, requests.Hint):
                # The robot thinks up to a second: off the sockets' database threads.
                error, reply = await server.in_thread(self._handle, request=parsed)
            else:
                error, reply = await server.database(self._handle)(parsed)
        except Exception:
            # Rolled back whole (the service is one transaction): nothing changed.
            logger.exception("table %s: %s by %s failed", self.table_id, kind, self.username)
            error, reply = TableError("busy", BUSY), None
        if reply is not None:
            await self.send_json(reply)
        if error is not None:
            await self.send_error(
                error.code,
                error.message,
                rule=error.rule,
                field=error.field,
                request=request,
            )
            if error.code == "stale":
                await self.refresh()

    def _handle(self, request: requests.Request) -> tuple[TableError | None, dict[str, Any] | None]:
        """The request's refusal, or the frame that answers this socket alone."""
        try:
            reply = requests.handle(
                request,
                table_id=self.table_id,
                user=self.user,
                ip_address=socket_ip(self.scope),
            )
        except TableError as error:
            return error, None
        return None, reply

    async def error_context(self) -> dict[str, Any]:
        """`table_id`, and the table's version and the game's action count as this socket
        last told them, for an error frame."""
        return {"table_id": self.table_id, "version": self.version, "count": self.count}
