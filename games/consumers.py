"""WebSocket consumers of a table and of the lobby (docs/protocol.md).

A consumer only parses a message into a request (games/table/requests.py), checks who is
asking and hands the request to the live-play wing (games/table/) in one sync function
(`server.database`: on the process's database threads), where the service's `atomic()`
block and its `select_for_update` live. It keeps no game state: the frames it forwards were
built by the service that changed the table, one per seat, and it joins only the group of its
own seat (or the spectators'), so it never holds another seat's hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

import orjson
from autobahn.exception import Disconnected  # daphne's WebSocket layer
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts.ip import forwarded_ip
from games import push, server
from games.models import Table
from games.selectors import lobby_row_for, lobby_tables
from games.table import matchmaking, people, presence, requests
from games.table.frames import socket_state
from games.table.permits import narrow
from games.table.refusals import TableError

logger = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 4096
# A message over the limit is still read this far, to name its `type` in the refusal.
READ_TYPE_BYTES = 65536
CLOSE_UNKNOWN_TABLE = 4404
CLOSE_FORBIDDEN = 4403
# The channel layer (Redis) failed under the socket: the client connects again.
CLOSE_LAYER_LOST = 4503
# The database failed while the socket was opening (after retries): connect again later.
CLOSE_TRY_AGAIN = 1013
BUSY = _("The server could not do that just now. Please try again.")
# Socket closings still being written down (a reference keeps each task alive).
_CLOSING: set[asyncio.Task] = set()


async def closings_finished(timeout: float = 30) -> int:
    """Wait for the closed sockets' notes still running, up to `timeout` seconds; how many
    are still running. Their pushes need this event loop: a loop closed under them (a test's,
    at its end) would leave their threads waiting for it for ever."""
    running = list(_CLOSING)
    if not running:
        return 0
    _done, pending = await asyncio.wait(running, timeout=timeout)
    return len(pending)


def _closed(task: asyncio.Task) -> None:
    """A closing's note is done: it failed only if its table is gone (or the database is
    down, and the sweeper hands the seat over later); say so in one line."""
    _CLOSING.discard(task)
    if not task.cancelled() and task.exception() is not None:
        logger.warning("a closed socket's note failed: %r", task.exception())


def socket_ip(scope: dict[str, Any]) -> str | None:
    """The client's address: the connection's, or behind trusted proxies the one they
    forwarded (accounts.ip, settings.TRUSTED_PROXY_COUNT)."""
    client = scope.get("client")
    # A header sent more than once reads as one list, in order (RFC 9110 §5.3).
    forwarded = ", ".join(
        value.decode("latin-1")
        for name, value in scope.get("headers") or []
        if name == b"x-forwarded-for"
    )
    return forwarded_ip(peer=client[0] if client else None, forwarded_for=forwarded or None)


def socket_language(scope: dict[str, Any]) -> str:
    """The player's language: their account's, else the language cookie, else the browser's."""
    user = scope.get("user")
    if user is not None and user.is_authenticated and user.language:
        return user.language
    candidates = [scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME, "")]
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    candidates += [code for code, _q in translation.trans_real.parse_accept_lang_header(accept)]
    for code in candidates:
        if not code:
            continue
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


def seat_in(frame: dict[str, Any], username: str | None) -> int | None:
    """The seat `username` holds according to a state frame's table."""
    if username is None:
        return None
    for entry in frame["table"]["seats"]:
        if entry is not None and entry["user"] == username:
            return entry["seat"]
    return None


class JsonSocket(AsyncJsonWebsocketConsumer):
    """Refuses frames over 4 KiB and frames that are not JSON, in the player's language."""

    language = settings.LANGUAGE_CODE

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        return push.encode(content)

    async def send(self, text_data=None, bytes_data=None, close=False) -> None:
        # The client may leave while a push for it is on its way: nobody to tell any more
        # (its disconnect is being handled), and no reason to fail the consumer.
        with contextlib.suppress(Disconnected):
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)

    async def send_json(self, content, close=False) -> None:
        # send_json goes past `send` above (to the base class's): the same for it.
        with contextlib.suppress(Disconnected):
            await super().send_json(content, close=close)

    async def __call__(self, scope, receive, send) -> None:
        try:
            await super().__call__(scope, receive, send)
        except push.LAYER_ERRORS as exc:
            # Redis went away under this socket (its channel, its groups, a push). Close it
            # cleanly instead of crashing: the client connects again and reads the state.
            logger.warning("channel layer failed under a socket, closing it: %r", exc)
            server.SOCKETS.discard(self)
            await self.note_closed()
            with contextlib.suppress(Exception):  # the client may be gone already
                await self.close(CLOSE_LAYER_LOST)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Every handler, guarded: whatever fails in one (the database, a timeout, a bug) is
        logged with its traceback and never kills the socket. A failed request is answered
        with a `busy` error; a failed closing still writes the socket down as closed."""
        try:
            await self._dispatch(message)
        except (StopConsumer, *push.LAYER_ERRORS):
            raise
        except Exception:
            kind = message.get("type")
            logger.exception("socket %s: %s failed; the socket stays open", self.channel_name, kind)
            if kind == "websocket.disconnect":
                server.SOCKETS.discard(self)
                await self.note_closed()
                raise StopConsumer() from None
            if kind == "websocket.connect":
                with contextlib.suppress(Exception):
                    await self.send_error("busy", BUSY, request=None)
                    await self.close(CLOSE_TRY_AGAIN)
            elif kind == "websocket.receive":
                with contextlib.suppress(Exception):
                    await self.send_error("busy", BUSY, request=None)

    async def _dispatch(self, message: dict[str, Any]) -> None:
        """Channels' `dispatch` without its `close_old_connections` before every message, a
        hop to a thread for each frame a socket receives or is pushed: these consumers touch
        the database only through `server.database` and `server.in_thread`, whose threads
        check their connections around each call."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def note_closed(self) -> None:
        """What `disconnect` does that needs no channel layer."""

    async def rejoin(self) -> None:
        """Pushes may have been lost (Redis was away, or lost its data): join the groups
        again, send the whole state."""

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        raw = text_data.encode("utf-8") if text_data is not None else (bytes_data or b"")
        if len(raw) > MAX_MESSAGE_BYTES:
            await self.send_error(
                "too_large",
                _("That message is too large (4 KiB at most)."),
                request=_request_type(raw),
            )
            return
        try:
            content = json.loads(raw)
        except (ValueError, RecursionError):
            await self.send_error("malformed", _("That message is not JSON."), request=None)
            return
        await self.receive_json(content)

    async def error_context(self) -> dict[str, Any]:
        """What every error frame of this socket carries besides the error itself."""
        return {}

    async def send_error(self, code: str, message: Any, **extra: Any) -> None:
        try:
            context = await self.error_context()
        except Exception:  # the refusal is told even when its context cannot be read
            logger.exception("socket %s: the error frame's context failed", self.channel_name)
            context = {}
        with translation.override(self.language):
            frame = {
                "type": "error",
                **context,
                "code": code,
                "message": str(message),
                "rule": None,
                "field": None,
                "request": None,
                **extra,
            }
        await self.send_json(frame)


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
        noted."""
        table = Table.objects.filter(pk=self.table_id).only("guests").first()
        if table is None:
            return None
        seat = None
        if self.user is not None:
            seat = presence.table_socket_open(
                table_id=self.table_id,
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
            closing = asyncio.ensure_future(
                server.in_thread(presence.table_socket_close, channel_name=self.channel_name)
            )
            _CLOSING.add(closing)
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
            await self.send_error("login_required", _("Log in to do that."), request=request)
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


def _request_type(raw: bytes) -> str | None:
    """The `type` of a message refused for its size, when it can be read cheaply."""
    if len(raw) > READ_TYPE_BYTES:
        return None
    try:
        content = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    kind = content.get("type") if isinstance(content, dict) else None
    return kind if isinstance(kind, str) else None


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
            await self.send_error("login_required", _("Log in to do that."), request="play_now")
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
