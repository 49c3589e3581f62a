from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext_lazy as _

# (url name, label, one line for the home page). A section appears once its app routes it.
SECTIONS = [
    ("rules", _("Rules"), _("How to play Tute, Habanero and Pocha, with examples.")),
    ("table_list", _("Lobby"), _("Find a table, or open your own and choose its options.")),
    (
        "arena_list",
        _("Arenas"),
        _("Timed tournaments: join, play game after game, reach the podium."),
    ),
    (
        "puzzle_next",
        _("Puzzles"),
        _("Endgames from the players' own games, each with one right card: find it."),
    ),
    ("rankings", _("Rankings"), _("The best players by experience and chips.")),
    ("player_search", _("Players"), _("Find a player by name and ask them to be your friend.")),
]


def site_nav(request) -> dict:
    items = []
    for name, label, blurb in SECTIONS:
        try:
            url = reverse(name)
        except NoReverseMatch:
            continue
        items.append(
            {"url": url, "label": label, "blurb": blurb, "active": request.path.startswith(url)}
        )
    return {"site_nav": items}
