"""The kinds of table a rating is kept for, each its own game of skill: their codes and
names, and which kind a game is. The one grouping of games by table on the site: the ratings,
their boards and trophies, and a player's accuracy on their profile all read it.

>>> table_kind(variant="tute", players=4, pairs=True)
'tute4pairs'
>>> table_kind(variant="pocha", players=3, pairs=False)
'pocha'
"""

from django.utils.translation import gettext_lazy as _

TABLE_KINDS: tuple[tuple[str, str], ...] = (
    ("tute2", _("Tute, 2 players")),
    ("tute3", _("Tute, 3 players")),
    ("tute4", _("Tute, 4 players alone")),
    ("tute4pairs", _("Tute, 4 players in pairs")),
    ("habanero", _("Habanero")),
    ("pocha", _("Pocha")),
)


def table_kind(*, variant: str, players: int, pairs: bool) -> str:
    """The kind of table a game of `variant` for `players` (in pairs or not) was played at:
    tute's by how many play and whether in pairs, the other games' one kind each."""
    if variant != "tute":
        return variant
    return f"tute{players}{'pairs' if pairs else ''}"


def kind_label(kind: str) -> str:
    """What players read for a kind of table."""
    return str(dict(TABLE_KINDS)[kind])
