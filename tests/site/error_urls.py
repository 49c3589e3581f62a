"""The site's URLs plus three that fail on purpose, to see the error pages a player would."""

from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.urls import path

from tute_site.urls import urlpatterns as site_urlpatterns


def forbidden(request):
    raise PermissionDenied


def bad_request(request):
    raise SuspiciousOperation("a tampered request")


def broken(request):
    raise RuntimeError("a bug")


urlpatterns = [
    path("test-errors/403/", forbidden),
    path("test-errors/400/", bad_request),
    path("test-errors/500/", broken),
    *site_urlpatterns,
]
