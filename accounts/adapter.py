from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext_lazy as _


class AccountAdapter(DefaultAccountAdapter):
    """allauth, fitted to Tute: our wording, the signup language, and the reason for a ban.

    The starting chips are rankings' business: it grants them on allauth's `user_signed_up`.
    """

    error_messages = {
        **DefaultAccountAdapter.error_messages,
        "username_taken": _("A player with that username already exists."),
    }

    def save_user(self, request: HttpRequest, user, form, commit: bool = True):
        """The language a player signs up in becomes their setting."""
        language = translation.get_language()
        if not user.language and language in dict(settings.LANGUAGES):
            user.language = language
        return super().save_user(request, user, form, commit=commit)

    def respond_user_inactive(self, request: HttpRequest, user) -> HttpResponse:
        """A banned player is told why, right on the login page's answer."""
        if getattr(user, "is_banned", False):
            return render(request, "account/account_banned.html", {"banned_user": user}, status=403)
        return super().respond_user_inactive(request, user)
