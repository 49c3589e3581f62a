from django.http import JsonResponse
from django.shortcuts import render

from games.finding import finding_context
from games.puzzles.views import daily_context
from tute_site.health import run_checks


def home(request):
    # Practice and "Play now" first (games/finding.py), then the day's puzzle.
    return render(request, "home.html", {**finding_context(request), **daily_context()})


async def healthz(request):
    """Report the database, the channel layer and the broker; 503 when one is down."""
    report = await run_checks()
    return JsonResponse(report, status=200 if report["status"] == "ok" else 503)
