"""The table options' check and what a page reads of them (RULES.md §10), on their
declaration (games/options.py): `clean_table_options`, which every service that sets a
table's options calls, and which options apply to a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise, lazy
from django.utils.text import get_text_list
from django.utils.translation import gettext_lazy as _

from games.engine.options import (
    PLAYERS_ALLOWED,
    RULE_OPTIONS,
    VARIANTS,
    OptionError,
    options_that_apply,
)
from games.options import (
    OPTION,
    OPTIONS,
    TABLE_OPTIONS,
    TableOption,
    options_at_rest,
    variant_players,
)
from games.table.refusals import TableError


def clean_table_options(*, data: Mapping[str, Any], current: Mapping[str, Any]) -> dict[str, Any]:
    """`current` options changed by `data`, checked against RULES.md §10.

    Raises TableError("invalid", field=...) naming the first wrong option. An option `data`
    leaves out keeps its value, except `players` when the variant changes to one that is not
    played by that many (habanero: 2).
    """

    if not isinstance(data, Mapping):
        raise TableError("malformed", _("Options must be an object."))
    for name in data:
        if name not in OPTION:
            raise TableError("invalid", _("There is no such option."), field=str(name))
    out = {**current, **data}
    variant = out["variant"]
    # A new variant that is not played by that many: its own number, unless `data` says one.
    if (
        "players" not in data
        and variant in VARIANTS
        and out["players"] not in PLAYERS_ALLOWED[variant]
    ):
        out["players"] = variant_players(variant)
    for option in OPTIONS:
        if not _allowed(option, out):
            raise TableError("invalid", _refusal(option, out), field=option.name)
    if out["stake"] and not out["competitive"]:
        raise TableError("invalid", _("Only a competitive table plays for a stake."), field="stake")
    try:
        # Stored as the game is played: an option that does not apply to it is at rest.
        return options_at_rest(out)
    except OptionError:
        # The checks above cover every rule option; this only guards against them drifting.
        raise TableError("invalid", _("These options do not make a game.")) from None


def option_applies(name: str, *, variant: str, players: int) -> bool:
    """Whether the table option `name` changes anything at a table of `variant` and
    `players`: the engine's answer for a rule option (options_that_apply), yes for the rest."""
    return name not in RULE_OPTIONS or name in options_that_apply(variant, players)


def option_facts() -> dict[str, Any]:
    """What a page's options form needs to show only the options that apply, as data: for
    each variant, who plays it (`players`), how many when nobody says (`default`) and, for
    each number of players, the options that change nothing there (`idle`)."""
    facts: dict[str, Any] = {}
    for variant, allowed in PLAYERS_ALLOWED.items():
        idle = {
            n: [
                name
                for name in TABLE_OPTIONS
                if not option_applies(name, variant=variant, players=n)
            ]
            for n in allowed
        }
        facts[variant] = {
            "players": list(allowed),
            "default": variant_players(variant),
            "idle": idle,
        }
    return facts


def _allowed(option: TableOption, out: Mapping[str, Any]) -> bool:
    if not option.accepts(out[option.name]):
        return False
    # The one range that hangs on another option: who plays the variant (§3), checked after it.
    return option.name != "players" or out["players"] in PLAYERS_ALLOWED[out["variant"]]


def _refusal(option: TableOption, out: Mapping[str, Any]) -> Promise:
    allowed = PLAYERS_ALLOWED[out["variant"]] if out["variant"] in VARIANTS else ()
    values = {
        "min": option.minimum,
        "max": option.maximum,
        "names": ", ".join(option.codes()),
        "either": _either(list(option.codes())),
        "allowed": ", ".join(str(n) for n in allowed),
    }
    return _filled(option.refusal, values)


def _fill(message: Promise, values: Mapping[str, Any]) -> str:
    return str(message) % values


# Filled in the language active when the refusal is read, like the message itself.
_filled = lazy(_fill, str)
# "a, b or c", with "or" in the language of the reader.
_either = lazy(get_text_list, str)


def table_options(table: Any) -> dict[str, Any]:
    """Every §10 option of a table, by name."""
    return {name: getattr(table, name) for name in TABLE_OPTIONS}
