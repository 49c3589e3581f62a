"""Guests: visitors who practise against robots without an account.

A guest is a `User` row marked `is_guest` (accounts.services.guest_create), logged in for
the visit's session, with no password and no chips. A guest only ever sits at their own
practice tables: they never sit with people, never chat, never open, join or are invited
to a table, and their games are staked and ranked nowhere (no result goes to rankings).

Guests cost the site little: a guest idle for `GUEST_IDLE_HOURS` is deleted with their
tables and games (games/table/practice.py `guests_sweep`, through each table's door). A
guest who signs up gets a new account, which starts as any new player's.

This module says what a guest may do; it changes nothing.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.table.refusals import TableError

GUEST_IDLE_HOURS = 6
# The requests a guest may make at their practice table (games/table/requests.py).
# (A guest only ever sits at their own practice tables, so these are about those alone.)
GUEST_REQUESTS = (
    *("act", "next_deal", "start", "stand", "leave", "resume", "cancel", "cancel_answer"),
    *("hint", "rematch", "rematch_answer"),
)
GUEST_REFUSAL = _("Guests practise against robots only: sign up to play with people.")


def is_guest(user: Any) -> bool:
    return bool(getattr(user, "is_guest", False))


def refuse_guest(user: Any) -> None:
    """Refuse what only players may do (sit, open a table, chat, invite, "Play now")."""
    if is_guest(user):
        raise TableError("invalid", GUEST_REFUSAL)
