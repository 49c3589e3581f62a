"""The options sentence ("4 players, in pairs · Competitive · No stake · …"), rendered once
by the server's template (templates/games/_table_options.html) in every language of the
site, and sent in each table summary (docs/protocol.md `options_text`). The pages, the lobby's
script and the table's script show it as it comes: none of them builds it.

Frames are encoded once for every socket of a seat, whatever its language, so the summary
carries the sentence in each language and a page shows its own. What the sentence says of
the game (in pairs, deals or points to win) is the engine's answer (`Rules`), never worked
out again here or in the template.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from games.engine.options import Options
from games.options import RULE_NAMES

TEMPLATE = "games/_table_options.html"


def options_text(options: Mapping[str, Any], *, robots: bool = False) -> dict[str, str]:
    """The sentence about a table's `options` (every §10 option, by name), by language code.
    With `robots` (robots sit at it) a practice table says why nothing is at stake: robots
    play practice games only (RULES.md §11), so a "Play now" table they fill turns practice
    and its players read it there."""
    return dict(_rendered(tuple(sorted(options.items())), robots))


def in_language(texts: Mapping[str, str], language: str | None = None) -> str:
    """One text of `options_text()`: in `language` (the active one when not given), else in
    the site's default language."""
    code = language or translation.get_language() or settings.LANGUAGE_CODE
    return texts.get(code) or texts[settings.LANGUAGE_CODE]


# Tables change their options rarely and many share them: each sentence is rendered once.
@lru_cache(maxsize=1024)
def _rendered(items: tuple[tuple[str, Any], ...], robots: bool) -> tuple[tuple[str, str], ...]:
    options = dict(items)
    rules = Options.from_dict({name: options[name] for name in RULE_NAMES}).rules
    context = {"o": options, "rules": rules, "robots": robots}
    texts = []
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            texts.append((code, " ".join(render_to_string(TEMPLATE, context).split())))
    return tuple(texts)
