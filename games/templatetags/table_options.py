"""What players read for a table option's setting, from the declaration of the options
(games/options.py): ``{{ t.options.variant|value_label:"variant" }}`` gives "Habanero"."""

from __future__ import annotations

import json
from collections.abc import Mapping

from django import template

from games.options import option_value_label
from games.robot_names import robot_label as _robot_label
from games.table.options import option_facts as _option_facts
from games.table.options_text import in_language as _in_language

register = template.Library()


@register.filter
def value_label(value: object, code: str) -> str:
    """The name players read for `value` of the option `code` (on/off for a switch)."""
    return str(option_value_label(code, value))


@register.filter
def in_language(texts: Mapping[str, str]) -> str:
    """A text the server wrote in every language (a summary's `options_text`), in the
    page's: ``{{ summary.options_text|in_language }}``."""
    return _in_language(texts)


@register.simple_tag
def option_facts() -> str:
    """Which options apply to each game, as JSON for an options form's script: put in a
    ``data-option-facts`` attribute, escaped like any text."""
    return json.dumps(_option_facts(), separators=(",", ":"))


@register.filter
def robot_label(robot: str, seat: int) -> str:
    """A robot seat as players read it: "Robot Lola · medium"."""
    return str(_robot_label(seat, robot))


@register.simple_tag
def table_invitations(table) -> list:
    """Who the table's master invited, and whether they accepted, declined or wait."""
    from games.table.people import table_invitations as rows

    return rows(table=table, seats=list(table.seats.all()))
