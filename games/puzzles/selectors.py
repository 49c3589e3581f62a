"""Reads of the puzzles: the next puzzle for a player, a player's history, the day's count."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import F, Func, QuerySet

from accounts.models import User
from rankings.rating_math import MODEL, shown_value

from .models import Puzzle, PuzzleAttempt, PuzzleRating, PuzzleTheme
from .themes import THEMES


@dataclass(frozen=True)
class PlayerPuzzles:
    """A player's puzzle rating and history, for the profile."""

    rating: int
    tries: int
    solved: int
    chart: list[tuple[datetime, int]]
    missed_themes: list[tuple[str, int]]  # (theme, failed tries), most first

    @property
    def failed(self) -> int:
        return self.tries - self.solved


def puzzle_rating_of(*, user: User | None) -> tuple[float, float]:
    """The player's (mu, sigma); a new rating for a visitor or a player never rated."""
    if user is not None and user.is_authenticated:
        row = PuzzleRating.objects.filter(user=user).values_list("mu", "sigma").first()
        if row is not None:
            return row
    return MODEL.mu, MODEL.sigma


def puzzle_next(*, user: User | None, theme: str | None, seen: list[int]) -> Puzzle | None:
    """The puzzle to serve next: one the player never tried (rated tries, and ``seen``, the
    ones this visitor opened), of ``theme`` if given, with the rating nearest theirs."""
    mu, _sigma = puzzle_rating_of(user=user)
    puzzles: QuerySet[Puzzle] = Puzzle.objects.exclude(pk__in=seen)
    if user is not None and user.is_authenticated:
        puzzles = puzzles.exclude(attempts__user=user)
    if theme:
        puzzles = puzzles.filter(themes__code=theme)
    distance = Func(F("mu") - mu, function="ABS")
    return puzzles.annotate(distance=distance).order_by("distance", "pk").first()


def player_puzzles(*, user: User) -> PlayerPuzzles | None:
    """A player's puzzle rating, tries, chart and the themes they miss most; None for a
    player who never tried one."""
    rating = PuzzleRating.objects.filter(user=user).first()
    if rating is None or not rating.tries:
        return None
    attempts = PuzzleAttempt.objects.filter(user=user).order_by("created_at", "pk")
    chart = list(attempts.values_list("created_at", "rating_after"))
    missed = Counter(
        PuzzleTheme.objects.filter(
            puzzle__attempts__user=user, puzzle__attempts__solved=False
        ).values_list("code", flat=True)
    )
    return PlayerPuzzles(
        rating=shown_value(rating.mu, rating.sigma),
        tries=rating.tries,
        solved=rating.solved,
        chart=chart,
        missed_themes=sorted(missed.items(), key=lambda item: (-item[1], THEMES.index(item[0])))[
            :3
        ],
    )


def puzzle_themes(*, puzzle: Puzzle) -> list[str]:
    codes = set(puzzle.themes.values_list("code", flat=True))
    return [code for code in THEMES if code in codes]


def theme_counts() -> dict[str, int]:
    """How many puzzles each theme has (the puzzles page's filter)."""
    counts = Counter(PuzzleTheme.objects.values_list("code", flat=True))
    return {code: counts.get(code, 0) for code in THEMES}


def rating_shown(mu_sigma: tuple[float, float]) -> int:
    return shown_value(*mu_sigma)


def attempt_of(*, user: Any, puzzle: Puzzle) -> PuzzleAttempt | None:
    if user is None or not user.is_authenticated:
        return None
    return PuzzleAttempt.objects.filter(user=user, puzzle=puzzle).first()
