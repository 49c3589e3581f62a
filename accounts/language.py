"""Which language a visitor chose, and what happens to it when they log in.

A choice made with the language switcher (or a rules page's language link) is saved on a
logged-in player at once. A visitor who is not logged in yet has it kept in their session;
when they then log in, that fresh choice wins over the language saved on their account and
becomes the account's setting: the page they were reading stays in the language they picked.
Without such a choice in this visit, logging in shows the account's own language.
"""

from django.conf import settings
from django.http import HttpRequest

from accounts import services
from accounts.models import User

CHOSEN_LANGUAGE_SESSION_KEY = "tute_chosen_language"


def language_choose(request: HttpRequest, language: str) -> None:
    """Remember `language`, picked by the visitor of `request`: on their account, or in
    their session until they log in."""
    if language not in dict(settings.LANGUAGES):
        return
    user = request.user
    if user.is_authenticated:
        if user.language != language:
            services.user_set_language(user=user, language=language)
    elif hasattr(request, "session"):
        request.session[CHOSEN_LANGUAGE_SESSION_KEY] = language


def language_on_login(request: HttpRequest | None, user: User) -> None:
    """A language picked in this visit before logging in becomes the account's setting."""
    session = getattr(request, "session", None)
    chosen = session.pop(CHOSEN_LANGUAGE_SESSION_KEY, None) if session is not None else None
    if chosen in dict(settings.LANGUAGES) and chosen != user.language:
        services.user_set_language(user=user, language=chosen)
