"""A GET of an address that takes only a POST (`/tables/practice/`, `/tables/play-now/`, …)
answers with the site's own page, as a 404 or a 403 does, not the browser's bare "HTTP ERROR
405": Django's `require_POST` returns an empty 405, and Django has no handler for it."""

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string


class MethodNotAllowedPageMiddleware:
    """Give an empty 405 answer the site's styled page (its `Allow` header kept)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or response.streaming or response.content:
            return response
        if request.method == "HEAD" or request.headers.get("HX-Request"):
            return response
        response.content = render_to_string("405.html", request=request).encode()
        response["Content-Type"] = "text/html; charset=utf-8"
        return response
