import math
import time
from types import SimpleNamespace
from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.utils import filter_users_by_email
from allauth.core import context as allauth_context
from allauth.core.internal import ratelimit
from django.conf import settings
from django.contrib.sites.shortcuts import get_current_site
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.models import User

TOO_MANY_LOGIN_ATTEMPTS = "too_many_login_attempts"
SITE_NAME = "Tute online"


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

    # --- The login lock -------------------------------------------------------------------
    # ACCOUNT_RATE_LIMITS["login_failed"] counts failures per account ("key") and, far more
    # loosely, per address ("ip"): players behind one address (a household, a café) do not
    # lock each other out, while one address still cannot try a password on every account.

    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials: Any) -> str:
        """Count failures per account, however the player typed it: name or email, any case.

        allauth keys them by the text typed; it uses this method both to count failures and
        to clear them after a password reset.
        """
        login = (credentials.get("email") or credentials.get("username") or "").strip()
        if "@" in login:
            user = filter_users_by_email(login, prefer_verified=True)
            user = user[0] if user else None
        else:
            user = User.objects.filter(username__iexact=login).first()
        return f"player:{user.pk}" if user else f"login:{login.lower()}"

    def pre_authenticate(self, request: HttpRequest, **credentials: Any) -> None:
        """allauth's lock, whose message says how long it lasts."""
        try:
            super().pre_authenticate(request, **credentials)
        except ValidationError as error:
            if error.code != TOO_MANY_LOGIN_ATTEMPTS:
                raise
            key = self._get_login_attempts_cache_key(request, **credentials)
            minutes = max(1, math.ceil(login_lock_seconds(request, key=key) / 60))
            message = ngettext(
                "Too many failed login attempts. Try again in %(count)s minute.",
                "Too many failed login attempts. Try again in %(count)s minutes.",
                minutes,
            ) % {"count": minutes}
            raise ValidationError(message, code=TOO_MANY_LOGIN_ATTEMPTS) from error

    # --- Emails ---------------------------------------------------------------------------

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        """Account emails name the site, not the address it was reached at.

        allauth greets with `current_site.name`, which without django.contrib.sites is the
        request's host ("Hello from 127.0.0.1:8000!"). The domain stays the real one.
        """
        request = allauth_context.request
        domain = get_current_site(request).domain if request is not None else ""
        site = SimpleNamespace(name=SITE_NAME, domain=domain)
        super().send_mail(template_prefix, email, {"current_site": site, **context})

    def respond_user_inactive(self, request: HttpRequest, user) -> HttpResponse:
        """A banned player is told why, right on the login page's answer."""
        if getattr(user, "is_banned", False):
            return render(request, "account/account_banned.html", {"banned_user": user}, status=403)
        return super().respond_user_inactive(request, user)


def login_lock_seconds(request: HttpRequest, *, key: str) -> float:
    """How long until a login for `key` from this request's address is counted again.

    Reads the failures allauth keeps per rate of "login_failed" (newest first): a full rate
    opens again when its oldest counted failure leaves the window.
    """
    now = time.time()
    wait = 0.0
    for rate in ratelimit.get_rates(app="allauth.account", action="login_failed"):
        cache_key = ratelimit.get_cache_key(
            request, app="allauth.account", action="login_failed", rate=rate, key=key
        )
        recent = [t for t in cache.get(cache_key, []) if t > now - rate.duration]
        if len(recent) >= rate.amount:
            wait = max(wait, recent[rate.amount - 1] + rate.duration - now)
    return wait
