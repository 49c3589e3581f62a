"""A table's chat: lines go to the players (and the spectators, where guests may watch).

A chat line is no new version of the table: it has its own frame, and a lost line is only
a line (docs/protocol.md).
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games import push
from games.models import ChatMessage
from games.table import permits
from games.table.frames import chat_json
from games.table.refusals import TableError, require_user
from games.table.room import Part, locked_room

CHAT_BURST = 5  # messages a user may post ...
CHAT_WINDOW = timedelta(seconds=10)  # ... within this time


@transaction.atomic
def chat_post(*, table_id: int, user: User, text: str) -> ChatMessage:
    """Post a chat message at a table. Locks the table, then the author's user row, whose
    latest messages are counted: at most 5 in 10 seconds, in whichever process they came."""
    user = require_user(user)
    room = locked_room(table_id, load=Part.SEATS | Part.GAME)
    table = room.table
    # The author's row as it is now (a moderator may have muted them since they came).
    author = User.objects.select_for_update().get(pk=user.pk)
    permits.require("chat", room, author)
    text = text.strip() if isinstance(text, str) else ""
    if not text or len(text) > ChatMessage.MAX_LENGTH:
        raise TableError(
            "invalid",
            _("A chat message has 1 to %(max)s characters.") % {"max": ChatMessage.MAX_LENGTH},
        )
    since = timezone.now() - CHAT_WINDOW
    if ChatMessage.objects.filter(user=author, created_at__gte=since).count() >= CHAT_BURST:
        raise TableError("rate_limited", _("Not so fast: at most 5 messages in 10 seconds."))
    message = ChatMessage.objects.create(table=table, user=author, text=text)
    game = room.game
    frame = {
        "type": "chat",
        "table_id": table.pk,
        "version": table.version,  # chat is no new version: a lost line is only a line
        "count": game.action_count if game is not None else 0,
        "message": chat_json(message),
    }
    groups = [push.seat_group(table.pk, n) for n in range(table.players)]
    if table.guests:
        groups.append(push.watch_group(table.pk))
    messages = [(group, {"type": "table.chat", "frame": frame}) for group in groups]
    transaction.on_commit(lambda: push.send(messages), robust=True)
    return message
