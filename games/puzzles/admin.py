"""Puzzles in the moderators' admin: read only (what was found, its themes, its rating and
tries). A puzzle is never edited by hand: the solver made it."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from rankings.rating_math import shown_value

from .models import Puzzle


@admin.register(Puzzle)
class PuzzleAdmin(admin.ModelAdmin):
    list_display = (
        "pk",
        "variant",
        "themes_shown",
        "rating",
        "tries",
        "solved",
        "gap",
        "created_at",
    )
    list_filter = ("variant", "themes__code")
    fields = ("key", "variant", "seat", "themes_shown", "rating", "tries", "solved", "gap", "loss")
    readonly_fields = fields

    @admin.display(description=_("themes"))
    def themes_shown(self, puzzle: Puzzle) -> str:
        return ", ".join(puzzle.themes.values_list("code", flat=True))

    @admin.display(description=_("puzzle rating"))
    def rating(self, puzzle: Puzzle) -> int:
        return shown_value(puzzle.mu, puzzle.sigma)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
