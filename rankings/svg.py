"""SVG drawn on the server: grade badges and the XP-over-time chart. No chart library."""

import functools
import math
from collections.abc import Sequence
from datetime import datetime

from django.utils.formats import date_format
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from rankings.grades import GRADES, Grade


def _star(cx: float, cy: float, r: float) -> str:
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append(f"{cx + radius * math.cos(angle):.2f},{cy + radius * math.sin(angle):.2f}")
    return " ".join(points)


def grade_badge_svg(grade: Grade, *, size: int = 48) -> SafeString:
    """A round badge: the grade's colours, a coin of oros in the middle, one star per rank.

    Drawn once per grade, size and language: a leaderboard page shows fifty.
    """
    return _badge(grade.code, size, get_language())


@functools.lru_cache(maxsize=256)
def _badge(code: str, size: int, language: str | None) -> SafeString:
    grade = next(grade for grade in GRADES if grade.code == code)
    stars = []
    for i in range(grade.stars):
        # Spread the stars along the lower arc of the ring.
        angle = math.pi / 2 + (i - (grade.stars - 1) / 2) * 0.55
        stars.append(
            f'<polygon points="{_star(24 + 17 * math.cos(angle), 24 + 17 * math.sin(angle), 4)}"'
            ' fill="#fff3c4" stroke="#5a4300" stroke-width=".6"/>'
        )
    crown = ""
    if grade is GRADES[-1]:
        crown = (
            '<path d="M15 10 L18 4 L21 9 L24 3 L27 9 L30 4 L33 10 Z" fill="#fff3c4"'
            ' stroke="#5a4300" stroke-width=".7"/>'
        )
    name = escape(str(grade.name))
    return format_html(
        '<svg class="grade-badge grade-{}" role="img" aria-label="{}" width="{}" height="{}"'
        ' viewBox="0 0 48 48" xmlns="http://www.w3.org/2000/svg"><title>{}</title>'
        '<circle cx="24" cy="24" r="22" fill="{}" stroke="{}" stroke-width="3"/>'
        '<circle cx="24" cy="22" r="9" fill="#f5c542" stroke="#8a6508" stroke-width="1.5"/>'
        '<circle cx="24" cy="22" r="4.5" fill="none" stroke="#8a6508" stroke-width="1.2"/>'
        "{}{}</svg>",
        grade.code,
        name,
        size,
        size,
        name,
        grade.color,
        grade.ring,
        mark_safe(crown),  # a constant
        mark_safe("".join(stars)),  # built from numbers only
    )


def _nice_ceiling(value: int) -> int:
    """The next round number at or above `value`, for the top of the axis."""
    if value <= 10:
        return 10
    magnitude = 10 ** (len(str(value)) - 1)
    for step in (1, 2, 5, 10):
        if value <= step * magnitude:
            return step * magnitude
    return 10 * magnitude


def xp_chart_svg(
    points: Sequence[tuple[datetime, int]],
    *,
    start: datetime | None = None,
    width: int = 640,
    height: int = 240,
) -> SafeString | None:
    """A line of total XP over time, from `start` (at 0 XP) to the last award.

    Returns None when there is nothing to draw. Dashed lines mark the grade thresholds that
    fall inside the chart.
    """
    if not points:
        return None
    series = list(points)
    origin = start if start is not None and start <= series[0][0] else series[0][0]
    series.insert(0, (origin, 0))
    left, right, top, bottom = 48, 12, 12, 28
    plot_w, plot_h = width - left - right, height - top - bottom
    t0 = series[0][0].timestamp()
    span = max(series[-1][0].timestamp() - t0, 1.0)
    y_max = _nice_ceiling(series[-1][1])

    def x(moment: datetime) -> float:
        return left + plot_w * (moment.timestamp() - t0) / span

    def y(value: int) -> float:
        return top + plot_h * (1 - value / y_max)

    # A step line: XP jumps at each award and stays flat in between.
    path = [f"M{x(series[0][0]):.1f},{y(0):.1f}"]
    for moment, total in series[1:]:
        path.append(f"H{x(moment):.1f}V{y(total):.1f}")
    thresholds = "".join(
        format_html(
            '<line class="threshold" x1="{}" x2="{}" y1="{}" y2="{}"/>'
            '<text class="threshold-label" x="{}" y="{}" text-anchor="end">{}</text>',
            left,
            left + plot_w,
            f"{y(grade.min_xp):.1f}",
            f"{y(grade.min_xp):.1f}",
            left + plot_w - 2,
            f"{y(grade.min_xp) - 3:.1f}",
            grade.name,
        )
        for grade in GRADES[1:]
        if grade.min_xp <= y_max
    )
    label = _("Experience over time: %(xp)s XP now.") % {"xp": series[-1][1]}
    return format_html(
        '<svg class="xp-chart" role="img" aria-label="{}" viewBox="0 0 {} {}"'
        ' xmlns="http://www.w3.org/2000/svg"><title>{}</title>'
        '<rect class="plot" x="{}" y="{}" width="{}" height="{}"/>{}'
        '<text class="axis-label" x="{}" y="{}" text-anchor="end">{}</text>'
        '<text class="axis-label" x="{}" y="{}" text-anchor="end">0</text>'
        '<text class="axis-label" x="{}" y="{}">{}</text>'
        '<text class="axis-label" x="{}" y="{}" text-anchor="end">{}</text>'
        '<path class="xp-line" d="{}"/>'
        '<circle class="xp-now" cx="{}" cy="{}" r="4"/></svg>',
        label,
        width,
        height,
        label,
        left,
        top,
        plot_w,
        plot_h,
        mark_safe(thresholds),  # each piece went through format_html
        left - 6,
        top + 10,
        y_max,
        left - 6,
        top + plot_h,
        left,
        height - 8,
        date_format(series[0][0], "SHORT_DATE_FORMAT"),
        left + plot_w,
        height - 8,
        date_format(series[-1][0], "SHORT_DATE_FORMAT"),
        "".join(path),
        f"{x(series[-1][0]):.1f}",
        f"{y(series[-1][1]):.1f}",
    )
