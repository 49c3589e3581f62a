from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from rankings import selectors
from rankings.grades import GRADES
from rankings.services import DailyBonusAlreadyClaimed, DailyBonusNotNeeded, chips_daily_bonus


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


@login_required
@require_POST
def daily_bonus(request: HttpRequest) -> HttpResponse:
    try:
        chips_daily_bonus(user=request.user)
    except DailyBonusAlreadyClaimed:
        messages.info(request, _("You already had today's bonus. Come back tomorrow."))
    except DailyBonusNotNeeded:
        messages.info(request, _("The daily bonus is for players with fewer than 1,000 chips."))
    else:
        messages.success(request, _("100 chips added: today's bonus."))
    return redirect(request.user)
