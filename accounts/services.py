"""Writes for players: friendships, known IP addresses, settings and moderation.

Chips adjustments by moderators live with the ledger, in `rankings.services`.

Keyword-only, one transaction each. Functions that take a row lock say which.
"""

import secrets
from datetime import datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import Friendship, KnownIP, ModerationAction, User

KNOWN_IPS_KEPT = 20


class FriendshipError(ValueError):
    """A friendship request or answer that makes no sense (to oneself, nothing pending, …)."""


class ModerationError(ValueError):
    """A moderator may not do this to this player."""


# --- Friends -----------------------------------------------------------------------------


def _pair(a: User, b: User) -> tuple[User, User]:
    return (a, b) if a.pk < b.pk else (b, a)


def _locked_friendship(a: User, b: User) -> Friendship | None:
    low, high = _pair(a, b)
    return Friendship.objects.select_for_update().filter(user_low=low, user_high=high).first()


@transaction.atomic
def friend_request(*, from_user: User, to_user: User) -> Friendship:
    """Ask `to_user` to be friends. If they had already asked us, this accepts.

    Asking again, or asking an existing friend, changes nothing. Locks the pair's row.
    """
    if from_user.pk == to_user.pk:
        raise FriendshipError("a player cannot befriend themselves")
    friendship = _locked_friendship(from_user, to_user)
    if friendship is None:
        low, high = _pair(from_user, to_user)
        try:
            with transaction.atomic():
                return Friendship.objects.create(
                    user_low=low, user_high=high, requested_by=from_user
                )
        except IntegrityError:
            # The other player asked at the same instant: answer their request instead.
            friendship = _locked_friendship(from_user, to_user)
    if (
        friendship.status == Friendship.Status.PENDING
        and friendship.requested_by_id != from_user.pk
    ):
        return _accept(friendship)
    return friendship


def _accept(friendship: Friendship) -> Friendship:
    friendship.status = Friendship.Status.ACCEPTED
    friendship.accepted_at = timezone.now()
    friendship.save(update_fields=["status", "accepted_at"])
    return friendship


def _locked_pending_request(*, user: User, requester: User) -> Friendship:
    """The pending request from `requester` to `user`, row locked, or FriendshipError."""
    friendship = _locked_friendship(user, requester)
    if (
        friendship is None
        or friendship.status != Friendship.Status.PENDING
        or friendship.requested_by_id != requester.pk
        or requester.pk == user.pk
    ):
        raise FriendshipError("there is no pending request from this player")
    return friendship


@transaction.atomic
def friend_accept(*, user: User, requester: User) -> Friendship:
    """Accept `requester`'s pending request to `user`. Locks the pair's row."""
    return _accept(_locked_pending_request(user=user, requester=requester))


@transaction.atomic
def friend_decline(*, user: User, requester: User) -> None:
    """Decline `requester`'s pending request: it is deleted. Locks the pair's row."""
    _locked_pending_request(user=user, requester=requester).delete()


@transaction.atomic
def friend_remove(*, user: User, other: User) -> bool:
    """End a friendship, or withdraw one's own pending request. False if there was none.

    Locks the pair's row.
    """
    friendship = _locked_friendship(user, other)
    if friendship is None:
        return False
    if friendship.status == Friendship.Status.PENDING and friendship.requested_by_id != user.pk:
        raise FriendshipError("decline a request instead of removing it")
    friendship.delete()
    return True


# --- IP addresses and settings -----------------------------------------------------------


@transaction.atomic
def user_ip_record(*, user: User, ip: str, when: datetime | None = None) -> KnownIP:
    """Remember that `user` logged in from `ip`; keep only the 20 most recent addresses."""
    when = when or timezone.now()
    updated = KnownIP.objects.filter(user=user, ip_address=ip).update(
        last_seen=when, logins=F("logins") + 1
    )
    if not updated:
        try:
            with transaction.atomic():
                KnownIP.objects.create(user=user, ip_address=ip, first_seen=when, last_seen=when)
        except IntegrityError:
            # Two logins at once from a new address: the other one created it.
            KnownIP.objects.filter(user=user, ip_address=ip).update(
                last_seen=when, logins=F("logins") + 1
            )
    stale = KnownIP.objects.filter(user=user).order_by("-last_seen", "-pk")[KNOWN_IPS_KEPT:]
    KnownIP.objects.filter(pk__in=list(stale.values_list("pk", flat=True))).delete()
    return KnownIP.objects.get(user=user, ip_address=ip)


def user_set_language(*, user: User, language: str) -> None:
    if language not in dict(settings.LANGUAGES):
        raise ValueError(f"unknown language {language!r}")
    user.language = language
    user.save(update_fields=["language"])


# --- Moderation ----------------------------------------------------------------------------


def check_moderator_may_act(*, moderator: User, user: User) -> None:
    """Raise `ModerationError` unless `moderator` may act on `user` (not self, not staff)."""
    if moderator.pk == user.pk:
        raise ModerationError(_("A moderator cannot moderate themselves."))
    if (user.is_staff or user.is_superuser) and not moderator.is_superuser:
        raise ModerationError(_("Only a superuser may moderate staff."))


def moderation_log(
    *,
    moderator: User,
    kind: str,
    reason: str = "",
    target: User | None = None,
    game_id: int | None = None,
    table_id: int | None = None,
    until: datetime | None = None,
) -> ModerationAction:
    """Write one line of the moderation log, inside the caller's transaction: the services
    of rankings (a game excluded or counted again) and games (a table closed, a report
    decided) log here, as bans and mutes do."""
    return ModerationAction.objects.create(
        moderator=moderator,
        kind=kind,
        reason=reason.strip(),
        target=target,
        game_id=game_id,
        table_id=table_id,
        until=until,
    )


def _locked_user(user: User) -> User:
    return User.objects.select_for_update().get(pk=user.pk)


@transaction.atomic
def user_ban(*, user: User, moderator: User, reason: str) -> ModerationAction:
    """Ban a player: they are logged out everywhere and cannot log in; the reason is shown.

    Locks the player's row.
    """
    reason = reason.strip()
    if not reason:
        raise ModerationError(_("A ban needs a reason."))
    check_moderator_may_act(moderator=moderator, user=user)
    target = _locked_user(user)
    target.is_active = False
    target.banned_at = timezone.now()
    target.ban_reason = reason
    target.save(update_fields=["is_active", "banned_at", "ban_reason"])
    return ModerationAction.objects.create(
        moderator=moderator, target=target, kind=ModerationAction.Kind.BAN, reason=reason
    )


@transaction.atomic
def user_unban(*, user: User, moderator: User, reason: str = "") -> ModerationAction:
    """Lift a ban. Locks the player's row."""
    check_moderator_may_act(moderator=moderator, user=user)
    target = _locked_user(user)
    if not target.is_banned:
        raise ModerationError(_("This player is not banned."))
    target.is_active = True
    target.banned_at = None
    target.ban_reason = ""
    target.save(update_fields=["is_active", "banned_at", "ban_reason"])
    return ModerationAction.objects.create(
        moderator=moderator, target=target, kind=ModerationAction.Kind.UNBAN, reason=reason.strip()
    )


@transaction.atomic
def user_mute(*, user: User, moderator: User, until: datetime, reason: str) -> ModerationAction:
    """Stop a player chatting until `until`. Locks the player's row."""
    reason = reason.strip()
    if not reason:
        raise ModerationError(_("A mute needs a reason."))
    if until <= timezone.now():
        raise ModerationError(_("A mute ends in the future."))
    check_moderator_may_act(moderator=moderator, user=user)
    target = _locked_user(user)
    target.muted_until = until
    target.mute_reason = reason
    target.save(update_fields=["muted_until", "mute_reason"])
    return ModerationAction.objects.create(
        moderator=moderator,
        target=target,
        kind=ModerationAction.Kind.MUTE,
        reason=reason,
        until=until,
    )


@transaction.atomic
def user_unmute(*, user: User, moderator: User, reason: str = "") -> ModerationAction:
    """End a mute now. Locks the player's row."""
    check_moderator_may_act(moderator=moderator, user=user)
    target = _locked_user(user)
    target.muted_until = None
    target.mute_reason = ""
    target.save(update_fields=["muted_until", "mute_reason"])
    return ModerationAction.objects.create(
        moderator=moderator, target=target, kind=ModerationAction.Kind.UNMUTE, reason=reason.strip()
    )


# A guest's name has a character no player's name may have (accounts.validators): it is
# never taken from a player, nor a player's from it.
GUEST_PREFIX = "guest~"


def guest_create() -> User:
    """A guest: a visitor who practises against robots with no account. No password, no
    chips; deleted once idle (games/table/practice.py `guests_sweep`)."""
    while True:
        name = f"{GUEST_PREFIX}{secrets.token_hex(3)}"
        if not User.objects.filter(username=name).exists():
            break
    user = User(username=name, is_guest=True)
    user.set_unusable_password()
    user.save()
    return user
