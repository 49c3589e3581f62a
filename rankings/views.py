from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from rankings import selectors
from rankings.grades import GRADES


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "rankings/leaderboard.html",
        {
            "by_xp": selectors.leaderboard_by_xp(limit=20),
            "by_chips": selectors.leaderboard_by_chips(limit=20),
            "grades": GRADES,
        },
    )
