"""Reads about players: friends, chat rights, known addresses."""

from collections.abc import Iterable

from django.db.models import Case, Q, QuerySet, Value, When
from django.db.models.functions import Lower

from accounts.models import Friendship, KnownIP, User


def friends_of(user: User) -> QuerySet[User]:
    """The players who are `user`'s friends (accepted both ways), by username."""
    accepted = Friendship.objects.filter(status=Friendship.Status.ACCEPTED)
    return User.objects.filter(
        Q(pk__in=accepted.filter(user_low=user).values("user_high"))
        | Q(pk__in=accepted.filter(user_high=user).values("user_low"))
    ).order_by("username")


def are_friends(a: User, b: User) -> bool:
    if a.pk is None or b.pk is None or a.pk == b.pk:
        return False
    low, high = (a, b) if a.pk < b.pk else (b, a)
    return Friendship.objects.filter(
        user_low=low, user_high=high, status=Friendship.Status.ACCEPTED
    ).exists()


def friendship_between(*, a: User, b: User) -> Friendship | None:
    if a.pk == b.pk:
        return None
    low, high = (a, b) if a.pk < b.pk else (b, a)
    return Friendship.objects.filter(user_low=low, user_high=high).first()


def friend_requests_received(*, user: User) -> QuerySet[User]:
    """Players waiting for `user`'s answer, oldest request first."""
    pending = Friendship.objects.filter(status=Friendship.Status.PENDING).exclude(requested_by=user)
    requesters = pending.filter(Q(user_low=user) | Q(user_high=user)).values("requested_by")
    return User.objects.filter(pk__in=requesters).order_by("username")


def friend_requests_sent(*, user: User) -> QuerySet[User]:
    pending = Friendship.objects.filter(status=Friendship.Status.PENDING, requested_by=user)
    return User.objects.filter(
        Q(pk__in=pending.filter(user_low=user).values("user_high"))
        | Q(pk__in=pending.filter(user_high=user).values("user_low"))
    ).order_by("username")


SEARCH_RESULTS = 20


def players_matching(*, query: str, limit: int = SEARCH_RESULTS) -> QuerySet[User]:
    """Players whose name contains `query`, any case: exact name first, then names that
    start with it, then the rest, each alphabetically. Banned accounts and staff are left
    out: moderators are not players to befriend or invite."""
    query = query.strip()
    if not query:
        return User.objects.none()
    return (
        User.objects.filter(username__icontains=query, is_active=True, is_staff=False)
        .annotate(
            rank=Case(
                When(username__iexact=query, then=Value(0)),
                When(username__istartswith=query, then=Value(1)),
                default=Value(2),
            )
        )
        .order_by("rank", Lower("username"))[:limit]
    )


def friend_requests_pending_count(*, user: User) -> int:
    """How many players wait for `user`'s answer to a friend request."""
    return (
        Friendship.objects.filter(status=Friendship.Status.PENDING)
        .filter(Q(user_low=user) | Q(user_high=user))
        .exclude(requested_by=user)
        .count()
    )


def can_chat(user: User) -> bool:
    """Whether `user` may write in a chat now: logged in, not banned, not muted."""
    return bool(user.is_authenticated and user.is_active and not user.is_muted)


def known_ips(*, user: User) -> QuerySet[KnownIP]:
    return KnownIP.objects.filter(user=user).order_by("-last_seen")


def shared_ips(*, users: Iterable[User]) -> dict[str, set[int]]:
    """The addresses from which two or more of `users` have logged in, with who (by pk).

    For the tables: a game between players who share an address does not count.
    """
    pks = {user.pk for user in users}
    seen: dict[str, set[int]] = {}
    for ip, user_pk in KnownIP.objects.filter(user__in=pks).values_list("ip_address", "user_id"):
        seen.setdefault(ip, set()).add(user_pk)
    return {ip: owners for ip, owners in seen.items() if len(owners) > 1}
