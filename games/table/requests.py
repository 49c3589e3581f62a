"""What a player may ask at a table, parsed once into typed requests.

The table socket (games/sockets/table.py) and the table page's plain forms (games/views/tables.py)
both parse what they receive here and hand the request to `handle`, the one place that
says which service answers which request. A message that is not a request is refused with
`Malformed` (its message says why) before any service runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.table import cancel, chat, hint, matchmaking, play, presence, rematch, seating


class Malformed(ValueError):
    """A message that is not a request: `message` says why, in the player's language."""

    def __init__(self, message: Any) -> None:
        super().__init__(str(message))
        self.message = message


@dataclass(frozen=True)
class Act:
    action: Any
    count: int | None = None


@dataclass(frozen=True)
class Sit:
    seat: int | None = None


@dataclass(frozen=True)
class SetOptions:
    options: dict[str, Any]


@dataclass(frozen=True)
class Invite:
    username: str


@dataclass(frozen=True)
class Chat:
    text: str


@dataclass(frozen=True)
class CancelAnswer:
    accept: bool


@dataclass(frozen=True)
class RematchAnswer:
    accept: bool


@dataclass(frozen=True)
class Plain:
    """A request with nothing but its type: start, next_deal, stand, leave, resume, cancel,
    rematch, robots."""

    type: str


@dataclass(frozen=True)
class Hint:
    """What the strongest robot would do now (practice tables only): answered to the asking
    socket alone, with a `hint` frame."""


Request = Act | Sit | SetOptions | Invite | Chat | CancelAnswer | RematchAnswer | Hint | Plain


def _int_or_none(content: dict[str, Any], name: str, message: Any) -> int | None:
    value = content.get(name)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise Malformed(message)
    return value


def _typed(content: dict[str, Any], name: str, kind: type, message: Any) -> Any:
    value = content.get(name)
    if not isinstance(value, kind):
        raise Malformed(message)
    return value


PLAIN = {
    "start": play.game_start,
    "next_deal": play.game_next_deal,
    "stand": seating.table_stand,
    "leave": presence.game_leave,
    "resume": presence.game_resume,
    "cancel": cancel.game_cancel_propose,
    "rematch": rematch.rematch_offer,
    "robots": matchmaking.table_fill_robots,
}
PARSERS = {
    "act": lambda c: Act(c.get("action"), _int_or_none(c, "count", _("count must be an integer."))),
    "sit": lambda c: Sit(_int_or_none(c, "seat", _("seat must be an integer."))),
    "options": lambda c: SetOptions(_typed(c, "options", dict, _("options must be an object."))),
    "invite": lambda c: Invite(_typed(c, "username", str, _("username must be a string."))),
    "chat": lambda c: Chat(_typed(c, "text", str, _("text must be a string."))),
    "cancel_answer": lambda c: CancelAnswer(
        _typed(c, "accept", bool, _("accept must be true or false."))
    ),
    "rematch_answer": lambda c: RematchAnswer(
        _typed(c, "accept", bool, _("accept must be true or false."))
    ),
    "hint": lambda c: Hint(),
    **{kind: (lambda c, kind=kind: Plain(kind)) for kind in PLAIN},
}


def parse(content: dict[str, Any]) -> Request:
    """The request a socket message (a JSON object with a `type`) asks for."""
    parser = PARSERS.get(content.get("type")) if isinstance(content.get("type"), str) else None
    if parser is None:
        raise Malformed(_("Unknown message type."))
    return parser(content)


def parse_form(post: Any) -> Request:
    """The request a table page's plain form posts (`do` names it; a seat and a username
    come as text)."""
    kind = post.get("do", "")
    seat = post.get("seat", "")
    content = {
        "type": kind,
        "seat": int(seat) if seat.isdigit() else None,
        "username": post.get("username", "").strip(),
    }
    if kind not in FORM_REQUESTS:
        raise Malformed(_("Unknown request."))
    return parse(content)


def handle(
    request: Request, *, table_id: int, user: User, ip_address: str | None
) -> dict[str, Any] | None:
    """Answer `request` by `user` at table `table_id`: the one place that says which
    service answers which request. Raises the service's TableError. Returns the frame
    that answers the asking socket alone (a hint), if any."""
    where = {"table_id": table_id, "user": user}
    match request:
        case Act(action=action, count=count):
            play.game_act(**where, action=action, count=count)
        case Sit(seat=seat):
            # The address the game records for this player when it starts.
            seating.table_sit(**where, seat=seat, ip_address=ip_address)
        case SetOptions(options=options):
            seating.table_set_options(**where, options=options)
        case Invite(username=username):
            seating.table_invite(**where, username=username)
        case Chat(text=text):
            chat.chat_post(**where, text=text)
        case CancelAnswer(accept=accept):
            cancel.game_cancel_answer(**where, accept=accept)
        case RematchAnswer(accept=accept):
            rematch.rematch_answer(**where, accept=accept)
        case Hint():
            # Read without the table's lock; the robot thinks within a time bound.
            return hint.game_hint(**where)
        case Plain(type=kind):
            PLAIN[kind](**where)
    return None


# What the table page's buttons post without the socket (no script).
FORM_REQUESTS = ("sit", "stand", "start", "next_deal", "invite", "rematch", "robots")
