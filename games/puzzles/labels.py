"""The themes' names and hints in the players' words (the rules page on puzzles explains each
one at length)."""

from django.utils.translation import gettext_lazy as _

THEME_LABELS = {
    "cante": _("The cante in time"),
    "last_trick": _("The last trick's 10"),
    "capote": _("Capote"),
    "arrastre": _("Forced trumping"),
    "keep_trump": _("Keeping the trump"),
    "carry": _("The carried points"),
}

# Each variant's puzzle, titled and summed up (a puzzle is a 2-player tute or habanero endgame).
TITLES = {"tute": _("Tute puzzle"), "habanero": _("Habanero puzzle")}
SUMMARIES = {
    "tute": _("A tute endgame with one right move."),
    "habanero": _("A habanero endgame with one right move."),
}

THEME_HINTS = {
    "cante": _("A cante is at stake: las cuarenta or a 20, sung while you may."),
    "last_trick": _("Think of the last trick and its 10 points."),
    "capote": _("The capote decides this deal."),
    "arrastre": _("Make them spend a trump they would rather keep."),
    "keep_trump": _("Your trumps are worth more later."),
    "carry": _("Count the points carried from the last deal."),
}
