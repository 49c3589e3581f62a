from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django.views.i18n import set_language as django_set_language

from accounts import selectors, services
from accounts.forms import LanguageForm
from accounts.language import language_choose
from accounts.models import User


@require_POST
def set_language(request):
    """Django's language switch, which also keeps the choice (accounts/language.py)."""
    response = django_set_language(request)
    language_choose(request, request.POST.get("language", ""))
    return response


def friendship_context(request: HttpRequest, player: User) -> dict:
    """What the friends box of `player`'s profile needs, as `request.user` sees it."""
    viewer = request.user
    if not viewer.is_authenticated or viewer.pk == player.pk:
        return {"player": player, "friendship": None, "friend_state": None}
    friendship = selectors.friendship_between(a=viewer, b=player)
    if friendship is None:
        state = "none"
    elif friendship.status == friendship.Status.ACCEPTED:
        state = "friends"
    elif friendship.requested_by_id == viewer.pk:
        state = "sent"
    else:
        state = "received"
    return {"player": player, "friendship": friendship, "friend_state": state}


FRIEND_ACTIONS = {"request", "accept", "decline", "remove"}


@login_required
@require_POST
def friend_action(request: HttpRequest, username: str, action: str) -> HttpResponse:
    if action not in FRIEND_ACTIONS:
        raise Http404
    player = get_object_or_404(User, username=username)
    me = request.user
    level = messages.SUCCESS
    try:
        if action == "request":
            friendship = services.friend_request(from_user=me, to_user=player)
            if friendship.status == friendship.Status.ACCEPTED:
                text = _("You and %(name)s are now friends.")
            else:
                text = _("Friend request sent to %(name)s.")
        elif action == "accept":
            services.friend_accept(user=me, requester=player)
            text = _("You and %(name)s are now friends.")
        elif action == "decline":
            services.friend_decline(user=me, requester=player)
            text = _("You declined the request from %(name)s.")
        else:
            services.friend_remove(user=me, other=player)
            text = _("%(name)s is no longer your friend.")
    except services.FriendshipError:
        level, text = messages.ERROR, _("That is not possible with %(name)s.")
    text = text % {"name": player.username}
    if request.htmx:
        # The box swaps in place and says what happened itself.
        context = {
            **friendship_context(request, player),
            "friends": selectors.friends_of(player),
            "friend_message": text,
        }
        return render(request, "accounts/_social.html", context)
    messages.add_message(request, level, text)
    if request.POST.get("next") == "self":
        return redirect(me)
    if request.POST.get("next") == "friends":
        return redirect("friends")
    return redirect(player)


@login_required
@require_http_methods(["GET", "POST"])
def player_settings(request: HttpRequest) -> HttpResponse:
    user = request.user
    if request.method == "POST":
        form = LanguageForm(request.POST)
        if form.is_valid():
            services.user_set_language(user=user, language=form.cleaned_data["language"])
            response = redirect("player_settings")
            # Keep the cookie in step, so the language stays after logging out.
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                user.language,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
                secure=settings.LANGUAGE_COOKIE_SECURE,
            )
            with translation.override(user.language):
                messages.success(request, _("Your settings were saved."))
            return response
    else:
        form = LanguageForm(initial={"language": user.language or request.LANGUAGE_CODE})
    return render(request, "accounts/settings.html", {"form": form})
