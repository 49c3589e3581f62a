"""The table options of RULES.md §10: their defaults, and the check of a change."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.bots import bot_names
from games.engine import Options
from games.engine.options import PLAYERS_ALLOWED, OptionError
from games.models import StockPlay, Table
from games.table.refusals import TableError

MAX_MOVE_TIME = 300
MAX_STAKE = 1_000_000
TABLE_OPTIONS = (
    "variant",
    "players",
    "pairs",
    "rounds",
    "points_to_win",
    "move_time",
    "competitive",
    "stake",
    "private",
    "guests",
    "allow_tute",
    "stock_play",
    "robot_level",
)
DEFAULT_OPTIONS: dict[str, Any] = {
    "variant": "tute",
    "players": 4,
    "pairs": True,
    "rounds": 1,
    "points_to_win": 4,
    "move_time": 30,
    "competitive": True,
    "stake": 0,
    "private": False,
    "guests": True,
    "allow_tute": True,
    "stock_play": "free",
    "robot_level": "heuristic",
}


def table_options(table: Table) -> dict[str, Any]:
    """Every §10 option of a table, by name."""
    return {name: getattr(table, name) for name in TABLE_OPTIONS}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def clean_table_options(*, data: Mapping[str, Any], current: Mapping[str, Any]) -> dict[str, Any]:
    """`current` options changed by `data`, checked against RULES.md §10.

    Raises TableError("invalid", field=...) naming the first wrong option. An option `data`
    leaves out keeps its value, except `players` when the variant changes to one that is not
    played by that many (habanero: 2).
    """
    if not isinstance(data, Mapping):
        raise TableError("malformed", _("Options must be an object."))
    for name in data:
        if name not in TABLE_OPTIONS:
            raise TableError("invalid", _("There is no such option."), field=str(name))
    out = {**current, **data}
    variant = out["variant"]
    if variant not in PLAYERS_ALLOWED:
        raise TableError("invalid", _("Choose tute, habanero or pocha."), field="variant")
    allowed = PLAYERS_ALLOWED[variant]
    if "players" not in data and out["players"] not in allowed:
        out["players"] = 2 if variant == "habanero" else 4
    if not _is_int(out["players"]) or out["players"] not in allowed:
        raise TableError(
            "invalid",
            _("This variant is played by %(allowed)s players.")
            % {"allowed": ", ".join(str(n) for n in allowed)},
            field="players",
        )
    for name in ("pairs", "competitive", "private", "guests", "allow_tute"):
        if not isinstance(out[name], bool):
            raise TableError("invalid", _("Choose yes or no."), field=name)
    for name in ("rounds", "points_to_win"):
        if not _is_int(out[name]) or not 1 <= out[name] <= 5:
            raise TableError("invalid", _("Choose a number from 1 to 5."), field=name)
    if not _is_int(out["move_time"]) or not 0 <= out["move_time"] <= MAX_MOVE_TIME:
        raise TableError(
            "invalid",
            _("Choose a number of seconds from 0 to %(max)s.") % {"max": MAX_MOVE_TIME},
            field="move_time",
        )
    if not _is_int(out["stake"]) or not 0 <= out["stake"] <= MAX_STAKE:
        raise TableError(
            "invalid",
            _("A stake is a number of chips from 0 to %(max)s.") % {"max": MAX_STAKE},
            field="stake",
        )
    if out["stake"] and not out["competitive"]:
        raise TableError("invalid", _("Only a competitive table plays for a stake."), field="stake")
    if out["stock_play"] not in StockPlay.values:
        raise TableError("invalid", _("Choose free, follow_trump or strict."), field="stock_play")
    if out["robot_level"] not in bot_names():
        raise TableError(
            "invalid",
            _("Choose a robot among: %(names)s.") % {"names": ", ".join(bot_names())},
            field="robot_level",
        )
    try:
        Options.from_dict({name: out[name] for name in ("variant", *RULE_NAMES)})
    except OptionError:
        # The checks above cover every rule option; this only guards against them drifting.
        raise TableError("invalid", _("These options do not make a game.")) from None
    return out


RULE_NAMES = ("players", "pairs", "rounds", "points_to_win", "allow_tute", "stock_play")
