"""The rules pages: server-rendered, in the reader's language, swapped in place by htmx.

The language is part of a rules page's address (``/rules/habanero/?lang=fr``) so that a link
can switch it without JavaScript. Following such a link also switches the rest of the site:
the response sets the language cookie and a logged-in player's setting, as the switcher does.
With htmx, the page's own fragment is swapped in, with the header out of band (its labels
follow the language) and the new address pushed to the history.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from accounts.language import language_choose
from games.rules import content
from games.rules.pages import PAGES, PAGES_BY_SLUG, PROSE_LANGUAGES, table_of_contents

LANGUAGE_PARAM = "lang"


def _requested_language(request: HttpRequest) -> str | None:
    code = request.GET.get(LANGUAGE_PARAM, "")
    return code if code in PROSE_LANGUAGES else None


def _current_language() -> str:
    code = (translation.get_language() or settings.LANGUAGE_CODE).split("-")[0]
    return code if code in PROSE_LANGUAGES else settings.LANGUAGE_CODE


def _url(page_url: str, language: str) -> str:
    return f"{page_url}?{urlencode({LANGUAGE_PARAM: language})}"


def remember_language(request: HttpRequest, response: HttpResponse, language: str) -> None:
    """Make the rest of the site follow: the cookie, and the player's own setting."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    language_choose(request, language)


@require_GET
def rules_page(request: HttpRequest, slug: str) -> HttpResponse:
    page = PAGES_BY_SLUG.get(slug)
    if page is None:
        raise Http404("There is no such rules page.")
    if slug == "index" and request.resolver_match.url_name != "rules":
        return redirect(page.url, permanent=True)
    chosen = _requested_language(request)
    if chosen:
        translation.activate(chosen)
        request.LANGUAGE_CODE = chosen
    language = _current_language()

    context = {
        "page": page,
        "lang": language,
        "pages": [
            {"page": p, "url": _url(p.url, language), "current": p.slug == slug} for p in PAGES
        ],
        "language_links": [
            {
                "code": code,
                "name": translation.get_language_info(code)["name_local"],
                "url": _url(page.url, code),
                "current": code == language,
            }
            for code in PROSE_LANGUAGES
        ],
        **content.page_context(slug),
    }
    prose = render_to_string(page.prose_template(language), context, request)
    context["prose"] = mark_safe(prose)  # our own template, rendered just above
    context["toc"] = table_of_contents(prose)

    # A history restore needs the whole page: htmx puts the answer in place of the body.
    fragment = request.htmx and not request.htmx.history_restore_request
    template = "rules/page.html#rules-swap" if fragment else "rules/page.html"
    response = render(request, template, context)
    patch_vary_headers(response, ("HX-Request", "HX-History-Restore-Request"))
    if chosen:
        remember_language(request, response, chosen)
    return response
