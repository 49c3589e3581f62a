"""The site's addresses plus a bare Django view: the baseline of the leaderboard bench."""

from django.http import HttpResponse
from django.urls import include, path


def bare(request):
    return HttpResponse("ok")


urlpatterns = [path("bench/bare/", bare), path("", include("tute_site.urls"))]
