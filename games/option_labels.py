"""What players read for each table option and its values: the rules pages say it, and the
table form will say the same. The codes (`stock_play`, `follow_trump`…) are for the engine,
records and URLs, never for players.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models import Variant

OPTION_LABELS: dict[str, Promise] = {
    "variant": pgettext_lazy("table option", "Game"),
    "players": pgettext_lazy("table option", "Players"),
    "pairs": pgettext_lazy("table option", "In pairs"),
    "rounds": pgettext_lazy("table option", "Deals to win"),
    "points_to_win": pgettext_lazy("table option", "Points to win"),
    "move_time": pgettext_lazy("table option", "Time per move"),
    "competitive": pgettext_lazy("table option", "Competitive"),
    "stake": pgettext_lazy("table option", "Stake"),
    "private": pgettext_lazy("table option", "Private table"),
    "guests": pgettext_lazy("table option", "Spectators"),
    "allow_tute": pgettext_lazy("table option", "Tute allowed"),
    "stock_play": pgettext_lazy("table option", "Play while the stock lasts"),
}

STOCK_PLAY_LABELS: dict[str, Promise] = {
    "free": pgettext_lazy("table option", "Free play"),
    "follow_trump": pgettext_lazy("table option", "Trump on a trump lead"),
    "strict": pgettext_lazy("table option", "All duties"),
}

VALUE_LABELS: dict[str, dict[str, str | Promise]] = {
    "variant": dict(Variant.choices),
    "stock_play": STOCK_PLAY_LABELS,
}


def option_label(code: str) -> Promise:
    """The name players read for the table option `code`; an unknown code is an error."""
    return OPTION_LABELS[code]


def option_value_label(code: str, value: object) -> str | Promise:
    """The name players read for a setting of option `code`: on/off for a switch."""
    if isinstance(value, bool):
        return _("on") if value else _("off")
    return VALUE_LABELS.get(code, {}).get(str(value), str(value))
