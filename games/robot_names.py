"""What players read for a robot: a name of its seat's own and its level in their words.

The registry's names (``heuristic``, ``strong``, ``random`` and the four levels) stay for the
protocol and the admin; a page or a frame shows :func:`robot_label` instead.

>>> robot_name(0), robot_name(3)
('Robot Lola', 'Robot Tomás')
>>> from django.utils import translation
>>> with translation.override("en"):
...     str(robot_label(1, "heuristic"))
'Robot Paco · medium'
"""

from __future__ import annotations

from django.utils.functional import lazy
from django.utils.translation import gettext, pgettext_lazy

# A robot's name goes with its seat (a name, not translated). No wind of a compass: the felt
# turns each player to the bottom, and a partner called "Sur" at the top read wrong.
SEAT_NAMES = ("Lola", "Paco", "Rosa", "Tomás")

# The level a player understands, for each name of the robot registry.
LEVEL_WORDS = {
    "easy": pgettext_lazy("robot level", "easy"),
    "medium": pgettext_lazy("robot level", "medium"),
    "hard": pgettext_lazy("robot level", "hard"),
    "expert": pgettext_lazy("robot level", "expert"),
    "heuristic": pgettext_lazy("robot level", "medium"),
    "strong": pgettext_lazy("robot level", "hard"),
    "random": pgettext_lazy("robot level", "random"),
}


def robot_name(seat: int) -> str:
    """The robot's name at a seat: distinct at every table, the same on every page."""
    return f"Robot {SEAT_NAMES[seat % len(SEAT_NAMES)]}"


def level_word(robot: str) -> str:
    """The robot's level in the reader's language (the registry name if it has none)."""
    word = LEVEL_WORDS.get(robot)
    return str(word) if word is not None else robot


def _label(seat: int, robot: str) -> str:
    return gettext("%(name)s · %(level)s") % {"name": robot_name(seat), "level": level_word(robot)}


robot_label = lazy(_label, str)
