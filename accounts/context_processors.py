from django.http import HttpRequest

from accounts.selectors import friend_requests_pending_count


def friend_requests(request: HttpRequest) -> dict:
    """The number of friend requests waiting for the player, shown in the header."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"friend_requests_pending": friend_requests_pending_count(user=user)}
