from django.conf import settings
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
