from django.http import HttpRequest

from games.table.people import pending_invitations


def invitations(request: HttpRequest) -> dict:
    """The number of invitations waiting for the player, shown in the header (and kept
    live by the page's `/ws/me/` socket)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or user.is_guest:
        return {}
    return {"invitations_pending": pending_invitations(user=user).count()}
