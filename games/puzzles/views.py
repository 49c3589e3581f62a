"""The puzzle pages: the next puzzle near the player's rating, one puzzle (tap a card, a hint,
the solution), the day's puzzle.

The page decides no rule: each move is posted, the server checks it against the solver's line
(services.puzzle_check) and answers with the position after the solver's reply, or with the
refutation. Where the player is in a puzzle is kept in their session, so a move can only be
the next one. htmx swaps the board in; without JavaScript each form posts the whole page.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from rankings.rating_math import shown_value

from . import board as boards
from . import selectors, services
from .labels import SUMMARIES, THEME_LABELS, TITLES
from .models import Puzzle
from .themes import THEMES

SEEN_KEPT = 200  # puzzles a visitor opened, remembered so as not to serve them again
ERRORS = {
    "step": _("The puzzle has moved on: here is where you are."),
    "malformed": _("That is not a move."),
    "illegal_card": _("That card cannot be played now."),
    "illegal": _("That move is not allowed now."),
}


def _progress(request: HttpRequest, puzzle: Puzzle) -> dict[str, Any]:
    return request.session.get("puzzles", {}).get(str(puzzle.pk)) or {
        "step": 0,
        "failed": False,
        "hint": False,
        "done": False,
    }


def _keep(request: HttpRequest, puzzle: Puzzle, progress: dict[str, Any]) -> None:
    kept = request.session.get("puzzles", {})
    kept[str(puzzle.pk)] = progress
    if len(kept) > SEEN_KEPT:
        kept.pop(next(iter(kept)))
    request.session["puzzles"] = kept


def _seen(request: HttpRequest) -> list[int]:
    return [int(pk) for pk in request.session.get("puzzles", {})]


def _theme(request: HttpRequest) -> str | None:
    theme = request.GET.get("theme") or request.POST.get("theme") or ""
    return theme if theme in THEMES else None


@require_GET
def puzzle_next(request: HttpRequest) -> HttpResponse:
    """The next puzzle for this player (near their rating, never one they tried), by theme."""
    theme = _theme(request)
    user = request.user if request.user.is_authenticated else None
    puzzle = selectors.puzzle_next(user=user, theme=theme, seen=_seen(request))
    if puzzle is not None:
        url = reverse("puzzle", args=[puzzle.pk])
        return redirect(f"{url}?theme={theme}" if theme else url)
    context = {
        "theme": theme,
        "themes": _theme_filter(),
        "rating": _player_rating(request),
    }
    return render(request, "puzzles/none.html", context)


@require_GET
def puzzle_daily(request: HttpRequest) -> HttpResponse:
    puzzle = services.puzzle_of_the_day(day=timezone.localdate())
    if puzzle is None:
        return redirect("puzzle_next")
    return redirect("puzzle", pk=puzzle.pk)


@require_GET
def puzzle_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A puzzle from its start (a later visit is practice, once rated)."""
    puzzle = get_object_or_404(Puzzle, pk=pk)
    progress = _progress(request, puzzle)
    progress.update(step=0, done=False)
    _keep(request, puzzle, progress)
    return _render(request, puzzle, progress, feedback=None)


@require_POST
def puzzle_move(request: HttpRequest, pk: int) -> HttpResponse:
    puzzle = get_object_or_404(Puzzle, pk=pk)
    progress = _progress(request, puzzle)
    try:
        step = int(request.POST.get("step", ""))
    except ValueError:
        step = -1
    if progress["done"] or step != progress["step"]:
        return _render(request, puzzle, progress, feedback=_error("step"), status=409)
    try:
        answer = services.puzzle_check(
            puzzle=puzzle, step=step, action=_action(request.POST.get("action", ""))
        )
    except services.PuzzleError as exc:
        return _render(request, puzzle, progress, feedback=_error(str(exc)), status=400)
    me = puzzle.seat
    feedback: dict[str, Any] = {
        "kind": "right" if answer.right else "wrong",
        "move": boards.action_label(answer.action, me),
        "line": boards.line_items(answer.line, me),
        "outcome": boards.outcome_text(answer.outcome, me) if answer.outcome else "",
    }
    if answer.right:
        progress["step"] = step + 1
        if answer.done:
            progress["done"] = True
            feedback["kind"] = "done"
            feedback["rated"] = _rate(request, puzzle, progress, solved=True)
    else:
        progress["failed"] = True
        feedback["rated"] = _rate(request, puzzle, progress, solved=False)
    _keep(request, puzzle, progress)
    return _render(request, puzzle, progress, feedback=feedback)


@require_POST
def puzzle_hint(request: HttpRequest, pk: int) -> HttpResponse:
    """A hint for the move to find; the try then counts as failed (the rules page says so)."""
    puzzle = get_object_or_404(Puzzle, pk=pk)
    progress = _progress(request, puzzle)
    if progress["done"]:
        return _render(request, puzzle, progress, feedback=None)
    progress["hint"] = True
    feedback = {
        "kind": "hint",
        "text": boards.hint_text(puzzle, progress["step"], selectors.puzzle_themes(puzzle=puzzle)),
        "rated": _rate(request, puzzle, progress, solved=False),
    }
    _keep(request, puzzle, progress)
    return _render(request, puzzle, progress, feedback=feedback)


@require_POST
def puzzle_solution(request: HttpRequest, pk: int) -> HttpResponse:
    """The whole solution from where the player is: the line to its end, then the deal's end."""
    puzzle = get_object_or_404(Puzzle, pk=pk)
    progress = _progress(request, puzzle)
    step = min(progress["step"], len(puzzle.steps) - 1)
    start = puzzle.steps[step]["at"]
    me = puzzle.seat
    feedback = {
        "kind": "solution",
        "line": boards.line_items(puzzle.line[start:], me),
        "rest": boards.line_items(puzzle.rest, me),
        "outcome": boards.outcome_text(puzzle.outcome, me),
        "rated": None if progress["done"] else _rate(request, puzzle, progress, solved=False),
    }
    progress.update(done=True, step=len(puzzle.steps), failed=True)
    _keep(request, puzzle, progress)
    return _render(request, puzzle, progress, feedback=feedback)


def _action(key: str) -> dict[str, Any] | str:
    """A posted ``kind:value`` (``play:1O``, ``sing:C``, ``capote:true``) as a record's action;
    anything else comes back as it is, and the check refuses it."""
    kind, _sep, value = key.partition(":")
    if not value:
        return key
    if kind == "capote":
        return {"capote": value == "true"} if value in ("true", "false") else key
    return {kind: value}


def _error(code: str) -> dict[str, Any]:
    return {"kind": "error", "text": ERRORS.get(code, ERRORS["malformed"])}


def _rate(
    request: HttpRequest, puzzle: Puzzle, progress: dict[str, Any], *, solved: bool
) -> services.Rated | None:
    """Rate the player's first try (a visitor's is not rated): a solve counts only without a
    hint and without a wrong card before."""
    if not request.user.is_authenticated:
        return None
    solved = solved and not progress["failed"] and not progress["hint"]
    return services.puzzle_try_rate(
        user=request.user, puzzle=puzzle, solved=solved, hint=progress["hint"]
    )


def _player_rating(request: HttpRequest) -> int | None:
    if not request.user.is_authenticated:
        return None
    return shown_value(*selectors.puzzle_rating_of(user=request.user))


def _theme_filter() -> list[dict[str, Any]]:
    counts = selectors.theme_counts()
    return [{"code": c, "label": THEME_LABELS[c], "count": counts[c]} for c in THEMES]


def _render(
    request: HttpRequest,
    puzzle: Puzzle,
    progress: dict[str, Any],
    *,
    feedback: dict[str, Any] | None,
    status: int = 200,
) -> HttpResponse:
    steps = puzzle.steps
    step = progress["step"]
    upto = len(puzzle.line) if progress["done"] else steps[step]["at"]
    themes = selectors.puzzle_themes(puzzle=puzzle)
    finished = progress["done"] or progress["failed"]
    context = {
        "puzzle": puzzle,
        "title": TITLES[puzzle.variant],
        "board": boards.board(puzzle, upto),
        "step": step,
        "moves": len(steps),
        "done": progress["done"],
        # After a wrong card or the hint the try is lost: the rest is practice.
        "practice": progress["failed"] or progress["hint"],
        "feedback": feedback,
        "themes": [{"code": c, "label": THEME_LABELS[c]} for c in themes] if finished else [],
        "puzzle_rating": shown_value(puzzle.mu, puzzle.sigma),
        "rating": _player_rating(request),
        "attempt": selectors.attempt_of(user=request.user, puzzle=puzzle),
        "theme": _theme(request),
        "theme_filter": _theme_filter(),
    }
    template = "puzzles/puzzle.html"
    if request.htmx and not request.htmx.history_restore_request:
        template += "#board"
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ("HX-Request", "HX-History-Restore-Request"))
    return response


def daily_context() -> dict[str, Any]:
    """The home page's daily puzzle: the hand to play from and how many solved it."""
    puzzle = services.puzzle_of_the_day(day=timezone.localdate())
    if puzzle is None:
        return {}
    position = boards.board(puzzle, puzzle.steps[0]["at"])
    return {
        "daily": {
            "puzzle": puzzle,
            "summary": SUMMARIES[puzzle.variant],
            "hand": position["hand"],
            "solved": puzzle.solved,
        }
    }


def profile_context(user: Any) -> dict[str, Any]:
    """A player's puzzle history for their profile: rating, solved, failed, the rating's chart
    and the themes they miss most."""
    from django.utils.translation import gettext

    from rankings.svg import rating_chart_svg

    history = selectors.player_puzzles(user=user)
    if history is None:
        return {"puzzles": None}
    chart = rating_chart_svg({"puzzles": history.chart}, kinds=[("puzzles", gettext("Puzzles"))])
    missed = [{"label": THEME_LABELS[code], "count": n} for code, n in history.missed_themes]
    return {"puzzles": history, "puzzle_chart": chart, "puzzle_missed": missed}
