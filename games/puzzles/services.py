"""Playing a puzzle: checking a move against the solver's line, and rating a player's first
try. The day's puzzle is chosen here too (once a day, the first visit writes it).

The rating is openskill's, as the site's other ratings (rankings/rating_math.py): each try is a
game of two, the player against the puzzle, won when the player finds every move of the line
without a hint or the solution, lost otherwise. Only a player's first try of a puzzle is
rated (later ones are practice). What is shown is `shown_value`: 1000 + 30 × (mu − 3 sigma).
docs/puzzles.md and the rules page on puzzles say how it moves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db import IntegrityError, transaction

from accounts.models import User
from games.engine import Action, MalformedAction
from rankings.rating_math import MODEL, shown_value

from .mining import action_key, position_at
from .models import DailyPuzzle, Puzzle, PuzzleAttempt, PuzzleRating


class PuzzleError(ValueError):
    """A move the puzzle cannot take: not an action, not the player's, not legal, or out of
    turn. Its message is for the player; nothing changed."""


@dataclass
class Answer:
    """What the server answers to a move: right or wrong; the solver's reply (right) or the
    refutation to the end of the deal (wrong); whether the puzzle is solved."""

    right: bool
    action: dict[str, Any]
    line: list[dict[str, Any]] = field(default_factory=list)
    outcome: dict[str, Any] | None = None
    loss: float = 0.0
    done: bool = False


def puzzle_check(*, puzzle: Puzzle, step: int, action: Any) -> Answer:
    """Check ``action`` (a record's action, NOTATION.md) as the player's move number ``step``
    (0 first). Raises :class:`PuzzleError`. Reads nothing but the puzzle; writes nothing."""
    steps = puzzle.steps
    if not isinstance(step, int) or not 0 <= step < len(steps):
        raise PuzzleError("step")
    if isinstance(action, dict):
        action = {**action, "seat": puzzle.seat}
    try:
        parsed = Action.from_dict(action, 2)
    except MalformedAction:
        raise PuzzleError("malformed") from None
    at = steps[step]["at"]
    state = position_at(puzzle.record, puzzle.line, at)
    if parsed not in state.legal_actions_for(puzzle.seat):
        raise PuzzleError("illegal_card" if parsed.kind == "play" else "illegal")
    key = action_key(parsed)
    if key == action_key(steps[step]["best"]):
        following = steps[step + 1]["at"] if step + 1 < len(steps) else len(puzzle.line)
        done = step + 1 == len(steps)
        return Answer(
            right=True,
            action=parsed.to_dict(),
            line=puzzle.line[at + 1 : following],
            outcome=puzzle.outcome if done else None,
            done=done,
        )
    wrong = steps[step]["wrong"][key]
    return Answer(
        right=False,
        action=parsed.to_dict(),
        line=wrong["line"][1:],
        outcome=wrong["outcome"],
        loss=wrong["loss"],
    )


@dataclass(frozen=True)
class Rated:
    """A rated try: the player's rating before and after, the puzzle's after."""

    solved: bool
    before: int
    after: int
    puzzle_after: int

    @property
    def change(self) -> int:
        return self.after - self.before


def rate(
    player: tuple[float, float], puzzle: tuple[float, float], solved: bool
) -> tuple[tuple[float, float], tuple[float, float]]:
    """openskill's update of a try: (mu, sigma) of the player and of the puzzle after it.

    >>> (p, q) = rate((25.0, 25 / 3), (25.0, 25 / 3), True)
    >>> p[0] > 25 > q[0], p[1] < 25 / 3
    (True, True)
    """
    ranks = [0, 1] if solved else [1, 0]
    [[mine], [its]] = MODEL.rate(
        [
            [MODEL.rating(mu=player[0], sigma=player[1])],
            [MODEL.rating(mu=puzzle[0], sigma=puzzle[1])],
        ],
        ranks=ranks,
    )
    return (mine.mu, mine.sigma), (its.mu, its.sigma)


@transaction.atomic
def puzzle_try_rate(
    *, user: User, puzzle: Puzzle, solved: bool, hint: bool = False
) -> Rated | None:
    """Rate ``user``'s first try of ``puzzle``; None when it was rated before (a later try,
    or the same answer sent twice), and nothing changes then.

    Locks, in this order, the player's puzzle rating row, then the puzzle's row: two tries of
    one player, or of one puzzle, are rated one after the other, each from the other's result.
    """
    PuzzleRating.objects.get_or_create(user=user)
    rating = PuzzleRating.objects.select_for_update().get(user=user)
    locked = Puzzle.objects.select_for_update().get(pk=puzzle.pk)
    if PuzzleAttempt.objects.filter(user=user, puzzle=locked).exists():
        return None
    before = shown_value(rating.mu, rating.sigma)
    (rating.mu, rating.sigma), (locked.mu, locked.sigma) = rate(
        (rating.mu, rating.sigma), (locked.mu, locked.sigma), solved
    )
    rating.tries += 1
    rating.solved += solved
    locked.tries += 1
    locked.solved += solved
    rating.save()
    locked.save(update_fields=["mu", "sigma", "tries", "solved"])
    after = shown_value(rating.mu, rating.sigma)
    puzzle_after = shown_value(locked.mu, locked.sigma)
    PuzzleAttempt.objects.create(
        user=user,
        puzzle=locked,
        solved=solved,
        hint=hint,
        rating_before=before,
        rating_after=after,
        puzzle_rating_after=puzzle_after,
    )
    puzzle.mu, puzzle.sigma, puzzle.tries, puzzle.solved = (
        locked.mu,
        locked.sigma,
        locked.tries,
        locked.solved,
    )
    return Rated(solved=solved, before=before, after=after, puzzle_after=puzzle_after)


def puzzle_of_the_day(*, day: date) -> Puzzle | None:
    """The day's puzzle, the same for everyone: chosen on the day's first visit (the oldest
    puzzle never chosen before) and kept. None while no puzzle exists."""
    daily = DailyPuzzle.objects.filter(day=day).select_related("puzzle").first()
    if daily is not None:
        return daily.puzzle
    used = DailyPuzzle.objects.values("puzzle_id")
    candidates = Puzzle.objects.exclude(pk__in=used)
    puzzle = candidates.order_by("pk").first() or Puzzle.objects.order_by("pk").first()
    if puzzle is None:
        return None
    try:
        with transaction.atomic():
            DailyPuzzle.objects.create(day=day, puzzle=puzzle)
    except IntegrityError:
        pass  # another visit chose it first: theirs stands
    return DailyPuzzle.objects.select_related("puzzle").get(day=day).puzzle
