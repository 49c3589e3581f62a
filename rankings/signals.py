"""Rankings' receivers: the starting chips of a new player."""

from allauth.account.signals import user_signed_up
from django.dispatch import receiver

from rankings.services import chips_signup_grant


@receiver(user_signed_up, dispatch_uid="rankings_signup_grant")
def grant_starting_chips(sender, request, user, **kwargs) -> None:
    """A new player starts with 1,000 chips, once (the grant's key is per player).

    Only signups get them: staff made with `createsuperuser` or in the admin are not
    players and get nothing until a moderator grants some.
    """
    chips_signup_grant(user=user)
