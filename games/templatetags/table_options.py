"""What players read for a table option's setting, from the declaration of the options
(games/table/options.py): ``{{ t.options.variant|value_label:"variant" }}`` gives "Habanero"."""

from __future__ import annotations

from django import template

from games.robot_names import robot_label as _robot_label
from games.table.options import option_value_label

register = template.Library()


@register.filter
def value_label(value: object, code: str) -> str:
    """The name players read for `value` of the option `code` (on/off for a switch)."""
    return str(option_value_label(code, value))


@register.filter
def robot_label(robot: str, seat: int) -> str:
    """A robot seat as players read it: "Robot Norte · medium"."""
    return str(_robot_label(seat, robot))


@register.simple_tag
def table_invitations(table) -> list:
    """Who the table's master invited, and whether they accepted, declined or wait."""
    from games.table.people import table_invitations as rows

    return rows(table=table, seats=list(table.seats.all()))
