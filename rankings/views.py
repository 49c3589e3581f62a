from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from rankings import selectors
from rankings.grades import GRADES
from rankings.kinds import TABLE_KINDS
from rankings.models import VARIANTS
from rankings.services import DailyBonusAlreadyClaimed, DailyBonusNotNeeded, chips_daily_bonus

# Each board's measure, then its period: the tabs never mix one with the other.
BOARD_LABELS = {
    "xp": _("XP, all time"),
    "week": _("XP, this week"),
    "month": _("XP, this month"),
    "chips": _("Chips"),
    "rating": _("Rating"),
    "gain": _("Rating, last 7 days"),
}


def board_url(*, board: str, variant: str = "", page: int = 1) -> str:
    """The address of one leaderboard page: every board has its own, for links and history."""
    query = {"board": board}
    if variant:
        query["variant"] = variant
    if page > 1:
        query["page"] = page
    return f"{reverse('rankings')}?{urlencode(query)}"


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    """The leaderboards, public. An htmx request gets the board alone, to swap in place."""
    board = request.GET.get("board", "xp")
    board = board if board in BOARD_LABELS else "xp"
    rated = board in selectors.RATING_BOARDS
    scopes = TABLE_KINDS if rated else (("", _("All variants")), *VARIANTS)
    variant = request.GET.get("variant", "")
    variant = variant if variant in dict(scopes) else scopes[0][0]
    try:
        page = int(request.GET.get("page", "1"))
    except ValueError:
        page = 1
    result = selectors.leaderboard(board=board, variant=variant, page=page, viewer=request.user)

    def tab_url(code: str) -> str:
        # Between the XP and the rating boards a variant and a kind do not translate: start
        # the other family at its first scope.
        to_rated = code in selectors.RATING_BOARDS
        if to_rated == rated:
            return board_url(board=code, variant=variant)
        return board_url(board=code, variant=TABLE_KINDS[0][0] if to_rated else "")

    context = {
        "result": result,
        "board_label": BOARD_LABELS[board],
        "rated": rated,
        "boards": [
            {"label": label, "url": tab_url(code), "active": code == board}
            for code, label in BOARD_LABELS.items()
        ],
        "scopes": [
            {"label": label, "url": board_url(board=board, variant=code), "active": code == variant}
            for code, label in scopes
        ],
        "previous_url": board_url(board=board, variant=variant, page=result.page - 1)
        if result.page > 1
        else None,
        "next_url": board_url(board=board, variant=variant, page=result.page + 1)
        if result.page < result.pages
        else None,
        "my_url": board_url(board=board, variant=variant, page=result.viewer_page)
        if result.viewer_page
        else None,
        "grades": GRADES,
    }
    template = "rankings/leaderboard.html"
    return render(request, f"{template}#board" if request.htmx else template, context)


@login_required
@require_POST
def daily_bonus(request: HttpRequest) -> HttpResponse:
    try:
        chips_daily_bonus(user=request.user)
    except DailyBonusAlreadyClaimed:
        messages.info(request, gettext("You already had today's bonus. Come back tomorrow."))
    except DailyBonusNotNeeded:
        messages.info(
            request, gettext("The daily bonus is for players with fewer than 1,000 chips.")
        )
    else:
        messages.success(request, gettext("100 chips added: today's bonus."))
    return redirect(request.user)
