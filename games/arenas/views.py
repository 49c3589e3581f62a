"""The arenas' pages: the list, and one arena (standings, tables, time left, Join or Pause).

The arena's page works without JavaScript (plain forms post Join and Pause); with it, the
arena's socket (/ws/arenas/<id>/) tells the page when anything changed and the page swaps
in its `arena-live` partial again."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from accounts.ip import client_ip
from games.arenas import services
from games.arenas.frames import arena_json, arena_podium, arena_standings, arena_tables
from games.arenas.models import Arena, ArenaPlayer
from games.table.refusals import TableError


def arena_list(request):
    arenas = list(Arena.objects.exclude(status=Arena.Status.FINISHED).order_by("starts_at")[:20])
    finished = list(Arena.objects.filter(status=Arena.Status.FINISHED).order_by("-starts_at")[:10])
    return render(request, "arenas/arena_list.html", {"arenas": arenas, "finished": finished})


def arena_detail(request, pk: int):
    arena = get_object_or_404(Arena, pk=pk)
    standings = arena_standings(arena)
    for standing in standings:  # each game's points beside its replay
        standing["played"] = list(zip(standing["points"], standing["game_ids"], strict=True))
    me = None
    if request.user.is_authenticated:
        me = ArenaPlayer.objects.filter(arena=arena, user=request.user).first()
    mine = next((s for s in standings if me and s["user"] == request.user.username), None)
    context = {
        "arena": arena,
        "standings": standings,
        "tables": arena_tables(arena),
        "podium": arena_podium(arena, standings),
        "pot": arena_json(arena),
        "me": me,
        # Why a game scored nothing, said once under the standings.
        "shared": any(any(standing["shared"]) for standing in standings),
        "mine": mine,
        "seconds_left": max(0, int((arena.ends_at - timezone.now()).total_seconds())),
        "seconds_to_start": max(0, int((arena.starts_at - timezone.now()).total_seconds())),
        "open": arena.status != Arena.Status.FINISHED and timezone.now() < arena.closes_at,
    }
    template = "arenas/arena_detail.html"
    if request.htmx:
        template += "#arena-live"
    return render(request, template, context)


@login_required
@require_POST
def arena_request(request, pk: int, action: str):
    """Join or Pause from the page's form: the socket's services."""
    get_object_or_404(Arena, pk=pk)
    try:
        if action == "join":
            services.arena_join(arena_id=pk, user=request.user, ip_address=client_ip(request))
        else:
            services.arena_pause(arena_id=pk, user=request.user)
    except TableError as error:
        messages.error(request, str(error.message))
    return redirect("arena_detail", pk=pk)
