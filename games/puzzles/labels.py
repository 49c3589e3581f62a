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

THEME_HINTS = {
    "cante": _("A cante is at stake: las cuarenta or a 20, sung while you may."),
    "last_trick": _("Think of the last trick and its 10 points."),
    "capote": _("The capote decides this deal."),
    "arrastre": _("Make them spend a trump they would rather keep."),
    "keep_trump": _("Your trumps are worth more later."),
    "carry": _("Count the points carried from the last deal."),
}
