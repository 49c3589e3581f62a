from django.contrib.auth.decorators import login_required
from django.http import HttpResponseNotAllowed, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _

from accounts.ip import client_ip
from games import selectors, services
from games.forms import TableOptionsForm
from games.models import Game, Table, Variant


def game_detail(request, pk: int):
    game = get_object_or_404(Game.objects.prefetch_related("seats__user"), pk=pk)
    return render(request, "games/game_detail.html", {"game": game, "seats": game.seats.all()})


def game_record(request, pk: int):
    """The game record as JSON, for finished games only: a live one would show hidden cards."""
    game = get_object_or_404(Game, pk=pk, status=Game.Status.FINISHED)
    response = JsonResponse(game.record, json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="tute-game-{game.pk}.json"'
    return response


def lobby_filters(request) -> dict:
    """The lobby's filters from the query string: ?variant=tute&free=1&max_stake=50."""
    variant = request.GET.get("variant") or None
    stake = request.GET.get("max_stake", "")
    return {
        "variant": variant if variant in Variant.values else None,
        "free_seats": request.GET.get("free") == "1",
        "max_stake": int(stake) if stake.isdigit() else None,
    }


def table_list(request):
    """The lobby: open tables (kept live by /ws/lobby/) and the form to create one."""
    tables = selectors.lobby_tables(**lobby_filters(request))
    return render(request, "games/table_list.html", {"tables": tables, "form": TableOptionsForm()})


@login_required
def table_create(request):
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    form = TableOptionsForm(request.POST)
    # The lobby's "Practice against robots" button: the same options, robots in the other
    # seats, the game started at once.
    create = services.table_practice if "practice" in request.POST else services.table_create
    if form.is_valid():
        try:
            table = create(
                master=request.user, options=form.cleaned_data, ip_address=client_ip(request)
            )
        except services.TableError as error:
            form.add_service_error(error)
        else:
            return redirect(table)
    response = render(
        request, "games/table_list.html", {"tables": selectors.lobby_tables(), "form": form}
    )
    response.status_code = 400
    return response


# The sentences the table page's live-play script shows, translated here.
LIVE_STRINGS = {
    "free": _("Free seat"),
    "robot_seat": _("Robot (%(robot)s)"),
    "robot_plays": _("a robot plays for now"),
    "away": _("away"),
    "abandoned": _("abandoned"),
    "seconds": _("%(seconds)s s"),
    "sing": _("Sing %(suit)s"),
    "tute": _("Tute of %(rank)s"),
    "exchange": _("Exchange %(card)s"),
    "capote_yes": _("Declare capote"),
    "capote_no": _("No capote"),
    "bid": _("Bid %(tricks)s"),
    "proposal": _("%(player)s proposes to cancel the game."),
    "leave_confirm": _("Leave the game? You will have abandoned it: you lose it."),
    "over": _("Game over."),
    "cancelled": _("The game was cancelled."),
}


def table_detail(request, pk: int):
    """A table; its live state comes over /ws/tables/<id>/."""
    table = get_object_or_404(Table, pk=pk)
    return render(
        request,
        "games/table_detail.html",
        {
            "table": table,
            "summary": selectors.table_summary(table=table),
            "live_strings": {key: str(text) for key, text in LIVE_STRINGS.items()},
        },
    )
