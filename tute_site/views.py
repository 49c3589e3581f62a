from django.http import JsonResponse
from django.shortcuts import render

from tute_site.health import run_checks


def home(request):
    return render(request, "home.html")


async def healthz(request):
    """Report the database, the channel layer and the broker; 503 when one is down."""
    report = await run_checks()
    return JsonResponse(report, status=200 if report["status"] == "ok" else 503)
