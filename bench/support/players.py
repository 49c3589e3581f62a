"""Players for the tools' tables: made straight in the database, logged in by cookie."""

from __future__ import annotations

import uuid


def new_player(chips: int = 0):
    """A player of a name of its own, granted `chips` through the ledger. No password: the
    tools log their players in with `bench.support.client.session_cookie`."""
    from accounts.models import User
    from rankings.services import chips_grant

    name = f"bench-{uuid.uuid4().hex[:12]}"
    user = User.objects.create_user(username=name, email=f"{name}@example.com", password=None)
    if chips:
        chips_grant(user=user, amount=chips, key=f"bench-grant:{user.pk}")
    return user
