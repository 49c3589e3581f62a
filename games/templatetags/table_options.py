"""What players read for a table option's setting, from the declaration of the options
(games/table/options.py): ``{{ t.options.variant|value_label:"variant" }}`` gives "Habanero"."""

from __future__ import annotations

from django import template

from games.table.options import option_value_label

register = template.Library()


@register.filter
def value_label(value: object, code: str) -> str:
    """The name players read for `value` of the option `code` (on/off for a switch)."""
    return str(option_value_label(code, value))
