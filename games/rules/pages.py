"""The rules pages: which exist, their titles, and the language-specific prose of each.

Long prose lives in one template per language, ``templates/rules/<lang>/<page>.html``; the
frame around it (tabs, table of contents, language links) is shared and translated with
gettext. The table of contents is read from the prose's own ``<h2 id>`` headings, so it can
never drift from the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import unescape

from django.conf import settings
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.html import strip_tags
from django.utils.translation import gettext_lazy as _

PROSE_LANGUAGES = tuple(code for code, _name in settings.LANGUAGES)


@dataclass(frozen=True)
class RulesPage:
    slug: str
    title: Promise | str
    short: Promise | str  # its label in the tabs
    blurb: Promise | str

    @property
    def url(self) -> str:
        if self.slug == "index":
            return reverse("rules")
        return reverse("rules_page", args=[self.slug])

    def prose_template(self, language: str) -> str:
        return f"rules/{language}/{self.slug}.html"


PAGES = (
    RulesPage(
        "index",
        _("The rules"),
        _("Overview"),
        _("The Spanish deck, the three games side by side, and where to start."),
    ),
    RulesPage(
        "tute",
        _("Tute"),
        "Tute",
        _("The classic: two to four players, alone or in pairs, cantes and tute."),
    ),
    RulesPage(
        "habanero",
        _("Habanero"),
        "Habanero",
        _("Tute for two: a stock to draw from, the capote and the mano de vuelta."),
    ),
    RulesPage(
        "pocha",
        _("Pocha"),
        "Pocha",
        _("Bid the exact number of tricks you will take, hand after hand."),
    ),
    RulesPage(
        "rankings",
        _("XP, chips and rankings"),
        _("XP and chips"),
        _("What a competitive game earns, what a stake risks, and who counts."),
    ),
    RulesPage(
        "puzzles",
        _("Puzzles"),
        _("Puzzles"),
        _("Endgames from real games with one right answer: how they are found and rated."),
    ),
    RulesPage(
        "tables",
        _("Tables, options and robots"),
        _("Tables"),
        _("The table master, every option and its default, robots, timers, cancelling, arenas."),
    ),
)
PAGES_BY_SLUG = {page.slug: page for page in PAGES}

_HEADING = re.compile(r'<h2\b[^>]*\bid="([^"]+)"[^>]*>(.*?)</h2>', re.S)


def table_of_contents(prose_html: str) -> list[dict[str, str]]:
    """The prose's second-level headings, in order: ``[{"id", "text"}]``."""
    return [
        {"id": anchor, "text": " ".join(unescape(strip_tags(text)).split())}
        for anchor, text in _HEADING.findall(prose_html)
    ]
