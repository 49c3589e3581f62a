"""What every socket of the site shares (docs/protocol.md): frames of JSON text up to 4 KiB,
refusals in the player's language, a handler that fails without killing the socket, and a
channel layer lost under it closed cleanly so that the client connects again.

The sockets only parse a message into a request and hand it to the live-play wing
(games/table/) in one sync function (`server.database`: on the process's database threads),
where the service's `atomic()` block and its `select_for_update` live. They keep no game
state: the frames they forward were built by the service that changed the table.
"""

from __future__ import annotations

import contextlib
import json
import logging
from typing import Any

from autobahn.exception import Disconnected  # daphne's WebSocket layer
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts.ip import forwarded_ip
from games import push, server

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
