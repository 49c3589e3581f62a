"""Puzzles as stored truth: each puzzle with its line and rating, each player's puzzle rating,
each rated try, the day's puzzle, and which finished games were mined.

A puzzle's `record` is the game up to the puzzle's position. It stays on the server: a page
shows only what the player's seat saw there (games/puzzles/board.py), never this record.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game
from rankings.rating_math import MODEL


class Puzzle(models.Model):
    # Where it was found: the game, deal, action and seat (unique: mined twice, stored once).
    key = models.CharField(_("found at"), max_length=64, unique=True)
    game = models.ForeignKey(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    variant = models.CharField(_("variant"), max_length=16)
    record = models.JSONField(_("the game up to the puzzle"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    # The solver's line from the position: the player's moves and the other seat's replies.
    line = models.JSONField(_("line"))
    # One entry per move of the player: its place in the line, the best action, and the
    # refutation of every other action (best play to the end of the deal, and that end).
    steps = models.JSONField(_("steps"))
    # The solution's end of the deal (best play after the line) and how the deal ends.
    rest = models.JSONField(_("rest of the deal"), default=list)
    outcome = models.JSONField(_("outcome"))
    gap = models.FloatField(_("points the next best loses"))
    loss = models.FloatField(_("points lost in the game"), default=0.0)
    mu = models.FloatField(default=MODEL.mu)
    sigma = models.FloatField(default=MODEL.sigma)
    tries = models.PositiveIntegerField(_("rated tries"), default=0)
    solved = models.PositiveIntegerField(_("solved"), default=0)
    created_at = models.DateTimeField(_("found"), auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        verbose_name = _("puzzle")
        verbose_name_plural = _("puzzles")
        indexes = [models.Index(fields=["mu"], name="puzzles_puzzle_mu")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(solved__lte=models.F("tries")), name="puzzles_solved_le_tries"
            )
        ]

    def __str__(self) -> str:
        return f"puzzle #{self.pk}"

    @property
    def player_moves(self) -> int:
        return len(self.steps)


class PuzzleTheme(models.Model):
    """One theme of a puzzle (games/puzzles/themes.py), a row each so a theme is a filter."""

    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="themes")
    code = models.CharField(max_length=16)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["puzzle", "code"], name="puzzles_theme_once"),
        ]
        indexes = [models.Index(fields=["code", "puzzle"], name="puzzles_theme_code")]

    def __str__(self) -> str:
        return f"{self.code} of puzzle #{self.puzzle_id}"


class PuzzleRating(models.Model):
    """A player's puzzle rating: openskill's mu and sigma, as the site's other ratings."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_rating"
    )
    mu = models.FloatField(default=MODEL.mu)
    sigma = models.FloatField(default=MODEL.sigma)
    tries = models.PositiveIntegerField(default=0)
    solved = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(solved__lte=models.F("tries")),
                name="puzzles_rating_solved_le_tries",
            )
        ]

    def __str__(self) -> str:
        return f"puzzle rating of user #{self.user_id}"


class PuzzleAttempt(models.Model):
    """A player's one rated try of a puzzle (later tries are practice, not stored): solved or
    failed, with a hint or not, and both ratings after it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_attempts"
    )
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="attempts")
    solved = models.BooleanField()
    hint = models.BooleanField(default=False)
    rating_before = models.IntegerField()
    rating_after = models.IntegerField()
    puzzle_rating_after = models.IntegerField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "puzzle"], name="puzzles_one_rated_try"),
        ]

    def __str__(self) -> str:
        return f"try of puzzle #{self.puzzle_id} by user #{self.user_id}"


class DailyPuzzle(models.Model):
    """The day's puzzle, the same for everyone (chosen on the day's first visit)."""

    day = models.DateField(unique=True)
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="+")

    def __str__(self) -> str:
        return f"puzzle of {self.day}"


class MinedGame(models.Model):
    """A finished game that was mined (once), and how many puzzles it gave."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="+")
    puzzles = models.PositiveSmallIntegerField(default=0)
    seconds = models.FloatField(default=0.0)
    mined_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"game #{self.game_id} mined"
