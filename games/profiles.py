"""A player's public profile: who they are (accounts), their standing (rankings) and their
games. It sits in games, the app above both."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from accounts import selectors as account_selectors
from accounts.views import friendship_context
from games import selectors
from games.analysis import player_accuracy_by_kind
from games.puzzles.views import profile_context
from rankings import selectors as rankings_selectors
from rankings.kinds import TABLE_KINDS
from rankings.svg import rating_chart_svg, trophy_icon_svg, xp_chart_svg


@require_GET
def player_profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(selectors.players_with_profile(), username__iexact=username)
    if player.username != username:
        return redirect(player, permanent=True)
    is_self = request.user.is_authenticated and request.user.pk == player.pk
    context = {
        **friendship_context(request, player),
        "is_self": is_self,
        "standing": rankings_selectors.player_standing(user=player),
        "stats": rankings_selectors.player_variant_stats(user=player),
        "recent_seats": selectors.player_recent_games(user=player),
        "friends": account_selectors.friends_of(player),
        "accuracy": player_accuracy_by_kind(user=player),
        **profile_context(player),
        "xp_chart": xp_chart_svg(
            rankings_selectors.xp_history(user=player), start=player.date_joined
        ),
        "ratings": rankings_selectors.player_ratings(user=player),
        "rating_chart": rating_chart_svg(
            rankings_selectors.rating_history(user=player), kinds=TABLE_KINDS
        ),
        "trophies": [
            {"award": award, "trophy": trophy, "icon": trophy_icon_svg(trophy)}
            for award in rankings_selectors.player_trophies(user=player)
            if (trophy := rankings_selectors.trophy(award.trophy)) is not None
        ],
    }
    if is_self:
        context["requests_received"] = account_selectors.friend_requests_received(user=player)
        context["requests_sent"] = account_selectors.friend_requests_sent(user=player)
        context["bonus_available"] = rankings_selectors.chips_daily_bonus_available(user=player)
    return render(request, "games/player_profile.html", context)


@require_GET
def player_search(request: HttpRequest) -> HttpResponse:
    """Find a player by name. htmx asks for the results alone as the visitor types."""
    query = request.GET.get("q", "").strip()[:40]
    players = account_selectors.players_matching(
        query=query, players=selectors.players_with_profile()
    )
    template = "games/player_search.html"
    if request.htmx and not request.htmx.history_restore_request:
        template += "#results"
    response = render(request, template, {"query": query, "players": players})
    patch_vary_headers(response, ("HX-Request", "HX-History-Restore-Request"))
    return response
