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
    single = len(series) == 2
    if single:
        # One award: drawn in the middle of the chart, its level held to the right edge,
        # not a line against the edge.
        span *= 2
    y_max = _nice_ceiling(series[-1][1])

    def x(moment: datetime) -> float:
        return left + plot_w * (moment.timestamp() - t0) / span

    def y(value: int) -> float:
        return top + plot_h * (1 - value / y_max)

    # A step line: XP jumps at each award and stays flat in between.
    path = [f"M{x(series[0][0]):.1f},{y(0):.1f}"]
    for moment, total in series[1:]:
        path.append(f"H{x(moment):.1f}V{y(total):.1f}")
    if single:
        path.append(f"H{left + plot_w:.1f}")
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
        date_format(series[0][0], "DATE_FORMAT"),
        left + plot_w,
        height - 8,
        date_format(series[-1][0], "DATE_FORMAT"),
        "".join(path),
        f"{x(series[-1][0]):.1f}",
        f"{y(series[-1][1]):.1f}",
    )


def trophy_icon_svg(trophy, *, size: int = 48) -> SafeString:
    """A trophy's icon: a cup in the trophy's colour, its emblem on the bowl, its name as the
    title (in the page's language)."""
    return _trophy_icon(trophy.code, size, get_language())


@functools.lru_cache(maxsize=256)
def _trophy_icon(code: str, size: int, language: str | None) -> SafeString:
    from rankings.trophies import BY_CODE

    trophy = BY_CODE[code]
    name = escape(str(trophy.name))
    emblem = trophy.emblem
    font = (
        14 if len(emblem) <= 1 else (11 if len(emblem) == 2 else (8 if len(emblem) == 3 else 6.5))
    )
    return format_html(
        '<svg class="trophy-icon trophy-{}" role="img" aria-label="{}" width="{}" height="{}"'
        ' viewBox="0 0 48 48" xmlns="http://www.w3.org/2000/svg"><title>{}</title>'
        '<path d="M12 8 H36 V12 H42 C42 20 38 24 33 25 C31 29 28 31 26 32 V37 H31 V42 H17'
        " V37 H22 V32 C20 31 17 29 15 25 C10 24 6 20 6 12 H12 Z M12 16 H10 C10.5 19 12 21 13.5 21.5"
        ' Z M36 16 V21.5 C37.5 21 38.5 19 39 16 Z" fill="{}" stroke="#3b2a05" stroke-width="1.2"'
        ' stroke-linejoin="round"/>'
        '<ellipse cx="24" cy="10" rx="12" ry="2" fill="#fff" opacity=".35"/>'
        '<text x="24" y="{}" text-anchor="middle" font-family="Georgia, serif" font-size="{}"'
        ' font-weight="bold" fill="#fffbea" stroke="#3b2a05" stroke-width=".4">{}</text></svg>',
        trophy.code,
        name,
        size,
        size,
        name,
        trophy.color,
        f"{19 + font * 0.35:.1f}",
        font,
        emblem,
    )


# One colour per kind of table, in TABLE_KINDS' order.
RATING_COLORS = ("#1f6f43", "#2e86c1", "#8e44ad", "#c0392b", "#d68910", "#34495e")


def rating_chart_svg(
    history: dict[str, Sequence[tuple[datetime, int]]],
    *,
    kinds: Sequence[tuple[str, str]],
    width: int = 640,
    height: int = 240,
) -> SafeString | None:
    """A line per kind of table of the rating after each rated game, on one time axis, and a
    legend. None when the player was never rated."""
    series = [(kind, label, list(history[kind])) for kind, label in kinds if history.get(kind)]
    if not series:
        return None
    colors = dict(zip((kind for kind, _label in kinds), RATING_COLORS, strict=False))
    left, right, top, bottom = 48, 12, 12, 28 + 18 * ((len(series) + 2) // 3)
    plot_w, plot_h = width - left - right, height - top - bottom
    moments = [moment for _k, _l, points in series for moment, _v in points]
    values = [value for _k, _l, points in series for _m, value in points]
    t0, t1 = min(moments).timestamp(), max(moments).timestamp()
    span = max(t1 - t0, 1.0)
    low, high = (min(values) // 50) * 50, -(-max(values) // 50) * 50
    high = max(high, low + 50)

    def x(moment: datetime) -> float:
        return left + plot_w * (moment.timestamp() - t0) / span

    def y(value: int) -> float:
        return top + plot_h * (1 - (value - low) / (high - low))

    lines, legend = [], []
    for number, (kind, label, points) in enumerate(series):
        path = "M" + " L".join(f"{x(moment):.1f},{y(value):.1f}" for moment, value in points)
        lines.append(
            format_html(
                '<path class="rating-line" data-kind="{}" d="{}" stroke="{}"/>'
                '<circle class="rating-now" cx="{}" cy="{}" r="3.5" fill="{}"/>',
                kind,
                path,
                colors[kind],
                f"{x(points[-1][0]):.1f}",
                f"{y(points[-1][1]):.1f}",
                colors[kind],
            )
        )
        lx = left + (number % 3) * (plot_w / 3)
        ly = top + plot_h + 36 + 18 * (number // 3)
        legend.append(
            format_html(
                '<rect x="{}" y="{}" width="10" height="10" fill="{}"/>'
                '<text class="axis-label" x="{}" y="{}">{} {}</text>',
                f"{lx:.1f}",
                ly - 9,
                colors[kind],
                f"{lx + 14:.1f}",
                ly,
                label,
                points[-1][1],
            )
        )
    label = _("Rating over time")
    return format_html(
        '<svg class="rating-chart" role="img" aria-label="{}" viewBox="0 0 {} {}"'
        ' xmlns="http://www.w3.org/2000/svg"><title>{}</title>'
        '<rect class="plot" x="{}" y="{}" width="{}" height="{}"/>'
        '<text class="axis-label" x="{}" y="{}" text-anchor="end">{}</text>'
        '<text class="axis-label" x="{}" y="{}" text-anchor="end">{}</text>'
        '<text class="axis-label" x="{}" y="{}">{}</text>'
        '<text class="axis-label" x="{}" y="{}" text-anchor="end">{}</text>{}{}</svg>',
        label,
        width,
        height,
        label,
        left,
        top,
        plot_w,
        plot_h,
        left - 6,
        top + 10,
        high,
        left - 6,
        top + plot_h,
        low,
        left,
        top + plot_h + 16,
        date_format(min(moments), "DATE_FORMAT"),
        left + plot_w,
        top + plot_h + 16,
        date_format(max(moments), "DATE_FORMAT"),
        mark_safe("".join(lines)),  # each piece went through format_html
        mark_safe("".join(legend)),  # each piece went through format_html
    )
