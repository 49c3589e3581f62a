from django.conf import settings
from django.shortcuts import redirect
from django.utils import translation


class UserLanguageMiddleware:
    """Show a logged-in player every page in their chosen language.

    LocaleMiddleware has already picked the cookie or the browser's language; a player's own
    setting comes first, so it runs after authentication and overrides that choice.
    """

    def __init__(self, get_response):
        self.get_response = get_response
        self.languages = {code for code, _name in settings.LANGUAGES}

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and user.language in self.languages:
            translation.activate(user.language)
            request.LANGUAGE_CODE = user.language
        return self.get_response(request)


# What a guest (a visitor practising against robots without an account) may open: the home
# page, the tables and the rules, finished games, the language, and the way to sign up.
GUEST_PATHS = ("/tables/", "/rules/", "/games/", "/guest/", "/i18n/", "/chat/", "/static/")
# ...but not these, which are a player's: reporting someone.
GUEST_NEVER = ("/report/",)


class GuestMiddleware:
    """Keep a guest to practice: any other page (a profile, settings, friends, the daily
    bonus, a report) sends them to the home page, where they may sign up. Their rows stay
    few, and none that would outlive them (accounts.models.User.is_guest)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and user.is_guest:
            path = request.path
            allowed = path == "/" or path.startswith(GUEST_PATHS)
            if not allowed or any(part in path for part in GUEST_NEVER):
                return redirect("home")
        return self.get_response(request)
