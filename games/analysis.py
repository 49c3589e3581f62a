"""The analysis of finished games: computed once by a low-priority task after a game ends
(games/tasks.py), shown on the replay page and, as accuracy per kind of table, on the
player's profile. Only finished games are analysed and shown: the analysis is scored from
each player's own view, but it names the best choice, which must never reach a table in
play.

The scoring itself is the robots' (games/bots/analysis.py); this module stores it and draws
its chart (SVG drawn on the server, as rankings/svg.py does).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from games.bots.analysis import accuracy_of, analyse_record, seat_marks
from games.models import Game, GameAnalysis, GameSeat
from rankings.kinds import kind_label, table_kind

logger = logging.getLogger(__name__)

RECENT_GAMES = 20  # the profile's average accuracy is over this many last analysed games


def game_analysis_compute(
    *, game_id: int, seconds: float | None = None, playouts: int | None = None
) -> GameAnalysis | None:
    """The analysis of a finished game, computed now unless it exists: run twice, it is
    computed once (the unique game settles a race between two workers). None for a game
    that is not finished or has no record. Locks nothing; it runs outside any transaction,
    for up to about twice ``settings.GAME_ANALYSIS_SECONDS``. With ``playouts`` the clock
    is not read: each decision gets that many playouts, and the analysis is repeatable."""
    existing = GameAnalysis.objects.filter(game_id=game_id).first()
    if existing is not None:
        return existing
    game = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).first()
    if game is None or not game.record.get("deals"):
        return None
    if playouts is not None:
        data = analyse_record(game.record, seconds=None, playouts=playouts, seed=game_id)
    else:
        if seconds is None:
            seconds = settings.GAME_ANALYSIS_SECONDS
        data = analyse_record(game.record, seconds=seconds, seed=game_id)
    try:
        with transaction.atomic():
            return GameAnalysis.objects.create(game=game, data=data, seconds=data["seconds"])
    except IntegrityError:
        return GameAnalysis.objects.get(game_id=game_id)


# The analysis sweep looks this far back for a finished game still without its analysis, and
# leaves alone those that ended too recently to have been analysed yet.
SWEEP_WITHIN = timedelta(days=2)
SWEEP_AFTER = timedelta(minutes=10)
SWEEP_BATCH = 20


def games_unanalysed(*, now: datetime) -> list[int]:
    """Finished games of the last two days still without their analysis, older than ten
    minutes (its task was lost: a restart dropped the embedded lane, or the broker lost it);
    never a guest's practice, which is not analysed (games/table/play.py)."""
    return list(
        Game.objects.filter(
            status=Game.Status.FINISHED,
            analysis__isnull=True,
            finished_at__gte=now - SWEEP_WITHIN,
            finished_at__lte=now - SWEEP_AFTER,
        )
        .exclude(seats__user__is_guest=True)
        .order_by("finished_at")
        .values_list("pk", flat=True)[:SWEEP_BATCH]
    )


def game_analysis_for(*, game: Game) -> dict[str, Any] | None:
    """The stored analysis of a finished game, or None (not finished, or not yet done)."""
    if game.status != Game.Status.FINISHED:
        return None
    analysis = GameAnalysis.objects.filter(game=game).first()
    return None if analysis is None else analysis.data


def player_accuracy_by_kind(*, user: Any) -> list[dict[str, Any]]:
    """A player's average accuracy per kind of table over their last analysed games."""
    seats = (
        GameSeat.objects.filter(
            user=user, game__status=Game.Status.FINISHED, game__analysis__isnull=False
        )
        .select_related("game__analysis")
        .order_by("-game__finished_at")[:RECENT_GAMES]
    )
    kinds: dict[str, list[float]] = defaultdict(list)
    for seat in seats:
        game = seat.game
        accuracy = accuracy_of(seat_marks(game.analysis.data, seat.seat))
        if accuracy is None:
            continue
        rules = game.rules
        kind = table_kind(variant=rules.variant, players=rules.players, pairs=rules.pairs)
        kinds[kind_label(kind)].append(accuracy)
    return [
        {"kind": kind, "accuracy": round(sum(values) / len(values), 1), "games": len(values)}
        for kind, values in sorted(kinds.items())
    ]


def replay_anchor(deal: int, step: int) -> str:
    """The replay's address of a position: the deal's number and the step as its counter
    numbers it (static/js/replay.js reads it).

    >>> replay_anchor(2, 5)
    'replay-deal-2-step-5'
    """
    return f"replay-deal-{deal}-step-{step}"


# ---------------------------------------------------------------------- the chart

SIDE_CLASSES = ("side-a", "side-b", "side-c", "side-d")


def deal_chart_svg(
    decisions: list[dict[str, Any]],
    *,
    sides: list[int],
    names: list[str],
    width: int = 640,
    height: int = 200,
) -> SafeString | None:
    """The expected result through one deal: one line per side, a point at each of its
    scored decisions (the expected result of the choice made, 0 lost to 100 won), and a
    mark on every inaccuracy, mistake and blunder. None when nothing was scored."""
    if not decisions:
        return None
    left, right, top, bottom = 36, 12, 12, 24
    plot_w, plot_h = width - left - right, height - top - bottom
    last = max(d["index"] for d in decisions) or 1
    low, high = 0.0, 100.0

    def x(index: int) -> float:
        return left + plot_w * index / last

    def y(value: float) -> float:
        value = min(high, max(low, value))
        return top + plot_h * (high - value) / (high - low)

    lines = []
    dots = []
    for side in sorted(set(sides)):
        mine = [d for d in decisions if sides[d["seat"]] == side]
        if not mine:
            continue
        cls = SIDE_CLASSES[side % len(SIDE_CLASSES)]
        path = "".join(
            f"{'M' if i == 0 else 'L'}{x(d['index']):.1f},{y(d['expected']):.1f}"
            for i, d in enumerate(mine)
        )
        lines.append(format_html('<path class="analysis-line {}" d="{}"/>', cls, path))
        for d in mine:
            if d["mark"] == "best":
                dots.append(
                    format_html(
                        '<circle class="analysis-point {}" cx="{}" cy="{}" r="2"/>',
                        cls,
                        f"{x(d['index']):.1f}",
                        f"{y(d['expected']):.1f}",
                    )
                )
                continue
            dots.append(
                format_html(
                    '<circle class="analysis-dot mark-{}" cx="{}" cy="{}" r="4">'
                    "<title>{}</title></circle>",
                    d["mark"],
                    f"{x(d['index']):.1f}",
                    f"{y(d['expected']):.1f}",
                    f"{names[d['seat']]}: {mark_label(d['mark'])}",
                )
            )
    legend = "".join(
        format_html(
            '<text class="axis-label {}" x="{}" y="{}">{}</text>',
            SIDE_CLASSES[side % len(SIDE_CLASSES)],
            left + 4 + 150 * i,
            height - 6,
            " & ".join(n for s, n in zip(sides, names, strict=True) if s == side),
        )
        for i, side in enumerate(sorted(set(sides)))
    )
    label = _("Expected result through the deal, from 0 (lost) to 100 (won).")
    return format_html(
        '<svg class="analysis-chart" role="img" aria-label="{}" viewBox="0 0 {} {}"'
        ' xmlns="http://www.w3.org/2000/svg"><title>{}</title>'
        '<rect class="plot" x="{}" y="{}" width="{}" height="{}"/>'
        '<line class="threshold" x1="{}" x2="{}" y1="{}" y2="{}"/>'
        '<text class="axis-label" x="{}" y="{}" text-anchor="end">100</text>'
        '<text class="axis-label" x="{}" y="{}" text-anchor="end">50</text>'
        '<text class="axis-label" x="{}" y="{}" text-anchor="end">0</text>'
        "{}{}{}</svg>",
        label,
        width,
        height,
        label,
        left,
        top,
        plot_w,
        plot_h,
        left,
        left + plot_w,
        f"{y(50):.1f}",
        f"{y(50):.1f}",
        left - 4,
        f"{y(100) + 4:.1f}",
        left - 4,
        f"{y(50) + 4:.1f}",
        left - 4,
        f"{y(0) + 4:.1f}",
        mark_safe("".join(lines)),  # each piece went through format_html
        mark_safe("".join(dots)),
        mark_safe(legend),
    )


def mark_label(mark: str) -> str:
    return {
        "best": _("best"),
        "inaccuracy": _("inaccuracy"),
        "mistake": _("mistake"),
        "blunder": _("blunder"),
    }[mark]


MARK_SYMBOLS = {"best": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def action_text(action: dict[str, Any], name: str) -> str:
    """An action of a record (NOTATION.md) as a sentence of the page."""
    from games.templatetags.cards import card_label, card_suit

    if "play" in action:
        return _("%(user)s plays %(card)s") % {"user": name, "card": card_label(action["play"])}
    if "sing" in action:
        return _("%(user)s sings in %(suit)s") % {"user": name, "suit": card_suit(action["sing"])}
    if "tute" in action:
        return _("%(user)s announces tute") % {"user": name}
    if "exchange" in action:
        return _("%(user)s exchanges %(card)s") % {
            "user": name,
            "card": card_label(action["exchange"]),
        }
    if "capote" in action:
        if action["capote"]:
            return _("%(user)s declares capote") % {"user": name}
        return _("%(user)s declines capote") % {"user": name}
    if "bid" in action:
        return _("%(user)s bids %(n)s") % {"user": name, "n": action["bid"]}
    return ""


def analysis_for_page(
    data: dict[str, Any], replay: dict[str, Any], names: list[str]
) -> dict[str, Any]:
    """The analysis as the replay page shows it: per deal its rows (each scored decision
    with its mark and the best choice), its chart and whether its endgame was solved
    exactly, each player's accuracy; and, on ``replay``'s steps, each decision's line."""
    sides = replay["sides"]
    deals = []
    for deal, replay_deal in zip(data["deals"], replay["deals"], strict=False):
        rows = []
        for d in deal["decisions"]:
            name = names[d["seat"]]
            row = {
                "index": d["index"],
                "name": name,
                "action": action_text(d["action"], name),
                # The best choice is named where the choice made lost points to it.
                "best": None if d["mark"] == "best" else action_text(d["best"], name),
                "mark": d["mark"],
                "mark_label": mark_label(d["mark"]),
                "symbol": MARK_SYMBOLS[d["mark"]],
                "expected": d["expected"],
                "expected_best": d["expected_best"],
                "loss": d["loss"],
                "exact": d["exact"],
                # A decision where every legal action came out alike counts in no accuracy.
                "choice": d.get("choice", True),
                # The step showing the decision made: the position before it is one back.
                "anchor": replay_anchor(deal["number"], d["index"] + 2),
            }
            rows.append(row)
            line = _("%(mark)s: expected result %(expected)s of 100.") % {
                "mark": row["mark_label"].capitalize(),
                "expected": row["expected"],
            }
            if row["best"]:
                line += " " + _("Best: %(best)s (%(expected)s).") % {
                    "best": row["best"],
                    "expected": row["expected_best"],
                }
            if row["exact"]:
                line += " " + _("Solved exactly.")
            steps = replay_deal["steps"]
            if d["index"] + 1 < len(steps):
                steps[d["index"] + 1]["analysis"] = {"mark": d["mark"], "text": line}
        deals.append(
            {
                "number": deal["number"],
                "rows": rows,
                "chart": deal_chart_svg(deal["decisions"], sides=sides, names=names),
                "exact": any(d["exact"] for d in deal["decisions"]),
            }
        )
    accuracy = []
    for seat in range(len(names)):
        marks = seat_marks(data, seat)
        accuracy.append(
            {
                "name": names[seat],
                "accuracy": accuracy_of(marks),
                "best": marks.count("best"),
                "decisions": len(marks),
            }
        )
    return {
        "deals": deals,
        "accuracy": accuracy,
        "complete": data.get("complete", True),
        "thresholds": data.get("thresholds"),
    }
