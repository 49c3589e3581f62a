from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from rankings.services import chips_signup_grant


class AccountAdapter(DefaultAccountAdapter):
    """allauth, fitted to Tute: our wording, the starting chips, and the reason for a ban."""

    error_messages = {
        **DefaultAccountAdapter.error_messages,
        "username_taken": _("A player with that username already exists."),
    }

    def save_user(self, request: HttpRequest, user, form, commit: bool = True):
        """A new player starts with 1,000 chips, in the same transaction as their account.

        Only signups get them: staff made with `createsuperuser` or in the admin are not
        players and get nothing until a moderator grants some.
        """
        language = translation.get_language()
        if not user.language and language in dict(settings.LANGUAGES):
            # The language they signed up in becomes their setting.
            user.language = language
        with transaction.atomic():
            user = super().save_user(request, user, form, commit=commit)
            if commit:
                chips_signup_grant(user=user)
        return user

    def respond_user_inactive(self, request: HttpRequest, user) -> HttpResponse:
        """A banned player is told why, right on the login page's answer."""
        if getattr(user, "is_banned", False):
            return render(request, "account/account_banned.html", {"banned_user": user}, status=403)
        return super().respond_user_inactive(request, user)
