"""Rankings' receivers: a submitted result's award queued; the starting chips of a new
player; bans on the leaderboards."""

import logging

from allauth.account.signals import user_signed_up
from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver
from kombu.exceptions import OperationalError

from accounts.models import User
from rankings.awards import result_submitted
from rankings.models import BoardRow, ChipAccount, GameResult
from rankings.ratings import ratings_follow_is_active
from rankings.services import ALL_TIME, board_count_add, chips_signup_grant
from rankings.tasks import award_game

logger = logging.getLogger(__name__)


@receiver(result_submitted, sender=GameResult, dispatch_uid="rankings_queue_award")
def queue_award(sender, game_id: int, **kwargs) -> None:
    """A committed result's award, queued. Robust: a broker down at this moment must not
    fail the finished game; the award sweep pays it later."""
    try:
        award_game.delay(game_id)
    except OperationalError as exc:
        # The broker (Redis) is down: the award sweep pays this game once it is back.
        logger.warning("award of game %s not queued, the sweep will pay it: %r", game_id, exc)


@receiver(user_signed_up, dispatch_uid="rankings_signup_grant")
def grant_starting_chips(sender, request, user, **kwargs) -> None:
    """A new player starts with 1,000 chips, once (the grant's key is per player).

    Only signups get them: staff made with `createsuperuser` or in the admin are not
    players and get nothing until a moderator grants some.
    """
    chips_signup_grant(user=user)


@receiver(post_save, sender=User, dispatch_uid="rankings_board_rows_follow_is_active")
def board_rows_follow_is_active(sender, instance: User, update_fields=None, **kwargs) -> None:
    """A banned (deactivated) player leaves every leaderboard, the rating boards too, and comes
    back when unbanned.

    The leaderboard rows keep a copy of `is_active` so that a page never joins the users.
    (A bulk `QuerySet.update` of users sends no signal: use the services to ban.)
    """
    if update_fields is not None and "is_active" not in update_fields:
        return  # e.g. a login's last_login: nothing to copy
    with transaction.atomic():
        flipping = list(
            BoardRow.objects.filter(user=instance, games__gt=0)
            .exclude(active=instance.is_active)
            .values_list("period", "start", "variant")
        )
        # The rows first, then the counts: the award's order, so the two never deadlock.
        BoardRow.objects.filter(user=instance).exclude(active=instance.is_active).update(
            active=instance.is_active
        )
        sign = 1 if instance.is_active else -1
        board_count_add({board: sign for board in flipping})
        if ("all", ALL_TIME, "") in flipping:
            ChipAccount.objects.filter(user=instance).update(ranked=instance.is_active)
        ratings_follow_is_active(user=instance)
