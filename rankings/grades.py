"""Grades: the one place that says how much XP each grade needs.

The profile badge, the admin, the leaderboard and the rules pages all read these.

>>> grade_for_xp(0).name == "Novice"
True
>>> grade_for_xp(499).code, grade_for_xp(500).code
('apprentice', 'player')
>>> next_grade(grade_for_xp(10_000)) is None
True
"""

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Grade:
    code: str
    name: Promise | str
    min_xp: int
    # Badge colours: the disc and the ring. `stars` is how many pips the badge shows.
    color: str
    ring: str
    stars: int


GRADES: tuple[Grade, ...] = (
    Grade("novice", _("Novice"), 0, "#8a8f98", "#5b5f66", 0),
    Grade("apprentice", _("Apprentice"), 100, "#3f8f5b", "#1f5d3a", 1),
    Grade("player", _("Player"), 500, "#2f6fb0", "#1c4673", 2),
    Grade("expert", _("Expert"), 2_000, "#8c3fb0", "#5a2373", 3),
    Grade("master", _("Master"), 5_000, "#b0413f", "#7a1f1f", 4),
    Grade("grand_master", _("Grand Master"), 10_000, "#d4a017", "#8a6508", 5),
)


def grade_for_xp(xp: int) -> Grade:
    """The highest grade whose threshold `xp` reaches."""
    current = GRADES[0]
    for grade in GRADES:
        if xp >= grade.min_xp:
            current = grade
    return current


def next_grade(grade: Grade) -> Grade | None:
    index = GRADES.index(grade)
    return GRADES[index + 1] if index + 1 < len(GRADES) else None
