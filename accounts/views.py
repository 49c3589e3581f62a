from django.conf import settings
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language


@require_POST
def set_language(request):
    """Django's language switch, which also saves the choice on a logged-in player."""
    response = django_set_language(request)
    language = request.POST.get("language", "")
    user = request.user
    if user.is_authenticated and language in dict(settings.LANGUAGES) and user.language != language:
        user.language = language
        user.save(update_fields=["language"])
    return response
