"""The lobby and a table's pages: the list, a new table, the table page and its plain forms
(the no-script way to every request the socket takes), the invitation's answer, chat
muting and the report form."""

from datetime import UTC

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from accounts.ip import client_ip
from games import reports
from games.finding import finding_context
from games.forms import InviteForm, LobbyFilterForm, ReportForm, TableOptionsForm
from games.models import Table
from games.options import OPTION, option_value_label
from games.robot_names import LEVEL_WORDS, SEAT_NAMES, robot_name
from games.table import permits, requests, seating
from games.table.frames import table_summary
from games.table.refusals import TableError
from games.table.room import Part, Room
from games.views.table_strings import TABLE_STRINGS, all_cards

# The lobby's script has the watchers' words counted up to this many (then the last one).
WATCHERS_COUNTED = 50


def _lobby_strings() -> dict:
    """The words of the lobby's rows, for its script, which draws the rows the lobby socket
    pushes as the page draws its own (table_list.html; the options sentence comes written in
    each row, `options_text`). Counted words are counted here, for every count an option
    allows (games/options.py): the script picks no plural."""

    def counted(singular: str, plural: str, numbers: range) -> dict[int, str]:
        return {n: ngettext(singular, plural, n) % {"n": n} for n in numbers}

    return {
        "variants": {
            code: option_value_label("variant", code) for code in OPTION["variant"].codes()
        },
        "running": _("Game running"),
        "waiting": _("Waiting for players"),
        "master": _("table master"),
        "free_seat": _("free seat"),
        "robot_label": _("%(name)s · %(level)s"),
        "robot_names": [robot_name(n) for n in range(len(SEAT_NAMES))],
        "levels": {code: str(word) for code, word in LEVEL_WORDS.items()},
        "invited": _("You are invited"),
        "same_address": _(
            "Two players here sit from the same address: the game will count for no ranking "
            "(the stakes are still played)."
        ),
        "same_address_badge": _("Counts for no ranking"),
        "watchers": counted("%(n)s watching", "%(n)s watching", range(WATCHERS_COUNTED + 1)),
        "join": _("Join"),
        "watch": _("Watch"),
        "empty": _("No table matches. Open one and wait for players to join!"),
        "free_seats": counted(
            "%(n)s free seat", "%(n)s free seats", range(OPTION["players"].maximum + 1)
        ),
    }


def _lobby_context(request, form: TableOptionsForm | None = None) -> dict:
    filters = LobbyFilterForm(request.GET, auto_id="filter_%s")
    return {
        **finding_context(request),
        "filters": filters,
        "tables": filters.tables(request.user),
        "form": form if form is not None else TableOptionsForm(),
        "strings": _lobby_strings(),
    }


def table_list(request):
    """The lobby: open tables with filters (kept live by /ws/lobby/), and the create form."""
    context = _lobby_context(request)
    template = "games/table_list.html"
    if request.htmx:
        template += "#lobby-tables"
    return render(request, template, context)


@login_required
def table_create(request):
    """Create a table from the lobby's form; the service's refusals go next to their field."""
    if request.method != "POST":
        return redirect("table_list")
    form = TableOptionsForm(request.POST)
    # The lobby's "Practice against robots" button: the same options, robots in the other
    # seats, the game started at once.
    create = seating.table_practice if "practice" in request.POST else seating.table_create
    if form.is_valid():
        try:
            table = create(
                master=request.user, options=form.cleaned_data, ip_address=client_ip(request)
            )
        except TableError as error:
            form.add_service_error(error)
        else:
            return redirect(table)
    return render(request, "games/table_list.html", _lobby_context(request, form), status=400)


def table_detail(request, pk: int, options_form: TableOptionsForm | None = None):
    """A table. Its seats are drawn here for browsers without JavaScript; the script redraws
    everything (seats, options, game, chat) from the table socket's `state` frames."""
    # An arena game's table links back to its arena (games.arenas's `arena_game`).
    tables = Table.objects.select_related("master", "arena_game__arena")
    table = get_object_or_404(tables, pk=pk)
    room = Room(table=table).load(Part.SEATS)  # read once: the summary, what may be asked
    summary = table_summary(table=table, seats=room.seats)
    if options_form is None:
        options_form = TableOptionsForm(initial=summary["options"], auto_id="opt_%s")
    context = {
        "table": table,
        "summary": summary,
        # What the page's first drawing offers; the socket's frames say it from then on.
        "may": permits.may_for(room, request.user),
        "options_form": options_form,
        "invite_form": InviteForm(),
        "all_cards": all_cards(),
        "strings": TABLE_STRINGS,
        "mute": _mute(request.user),
        "arena": _arena_of(table),
    }
    return render(request, "games/table_detail.html", context)


@login_required
@require_GET
def table_invited(request, pk: int):
    """The master's list of who they invited and what became of it (the table page reads it
    again when it changes)."""
    table = get_object_or_404(Table, pk=pk)
    if table.master_id != request.user.pk:
        raise PermissionDenied
    return render(request, "games/_invitations.html", {"table": table})


def _arena_of(table: Table):
    """The arena whose game this table plays, or None."""
    try:
        return table.arena_game.arena
    except ObjectDoesNotExist:
        return None


def _mute(user) -> dict[str, str] | None:
    """A muted player's mute as the chat box shows it (the script shows the time in the
    player's own clock), or None."""
    if not (user.is_authenticated and user.is_muted):
        return None
    until = user.muted_until.astimezone(UTC)
    return {
        "until": until.isoformat().replace("+00:00", "Z"),
        "time": f"{until:%H:%M} UTC",
        "reason": user.mute_reason,
    }


def chat_mute(request):
    """The player's mute, for the table page's chat box: `{"until": null}` when not muted."""
    mute = _mute(request.user)
    return JsonResponse(
        {"until": mute["until"], "reason": mute["reason"]}
        if mute
        else {"until": None, "reason": ""}
    )


@login_required
@require_POST
def table_request(request, pk: int):
    """One table request from a plain form (sit, stand, start, next deal, invite): parsed
    and answered as the socket's (games/table/requests.py)."""
    get_object_or_404(Table, pk=pk)
    try:
        requests.handle(
            requests.parse_form(request.POST),
            table_id=pk,
            user=request.user,
            ip_address=client_ip(request),
        )
    except requests.Malformed as error:
        messages.error(request, str(error.message))
    except TableError as error:
        messages.error(request, str(error.message))
    return redirect("table_detail", pk=pk)


@login_required
@require_POST
def table_options(request, pk: int):
    """The master's options form, posted without the socket; errors next to their field."""
    get_object_or_404(Table, pk=pk)
    form = TableOptionsForm(request.POST, auto_id="opt_%s")
    if form.is_valid():
        try:
            seating.table_set_options(table_id=pk, user=request.user, options=form.cleaned_data)
        except TableError as error:
            form.add_service_error(error)
        else:
            return redirect("table_detail", pk=pk)
    return table_detail(request, pk, options_form=form)


# How many of the table's latest messages the report page offers.
REPORT_MESSAGES = 30


@login_required
def table_report(request, pk: int):
    """Report a chat message or a player of this table to the moderators: a plain page,
    linked from the table page (`?message=<id>` picks a message, `?player=<name>` a player)."""
    table = get_object_or_404(Table, pk=pk)
    if not reports.may_report_at(user=request.user, table=table):
        raise PermissionDenied
    latest = (
        table.chat_messages.exclude(user=request.user)
        .select_related("user")
        .order_by("-created_at", "-pk")[:REPORT_MESSAGES]
    )
    chat = list(reversed(latest))
    people = reports.table_people(table=table).exclude(pk=request.user.pk)
    kwargs = {"messages": chat, "people": people}
    if request.method == "POST":
        form = ReportForm(request.POST, **kwargs)
        if form.is_valid():
            data = form.cleaned_data
            try:
                reports.report_create(
                    reporter=request.user,
                    table_id=table.pk,
                    reason=data["reason"],
                    note=data["note"],
                    message_id=data["message"],
                    reported=people.filter(username=data["player"]).first(),
                )
            except reports.ReportError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, _("Thank you: the moderators will read your report."))
                return redirect(table)
    else:
        form = ReportForm(
            initial={
                "message": request.GET.get("message", ""),
                "player": request.GET.get("player", ""),
            },
            **kwargs,
        )
    status = 400 if form.errors else 200
    context = {"table": table, "form": form, "per_hour": reports.REPORTS_PER_HOUR}
    return render(request, "games/table_report.html", context, status=status)
