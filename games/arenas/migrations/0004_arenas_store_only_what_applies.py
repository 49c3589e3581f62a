"""Arenas stored before their options were brought to rest (games/options.py
`options_at_rest`): each option that does not apply to the arena's game at rest, so that no
2-player arena says "in pairs". The facts are written out as they stood when this migration
was made, as a migration must (the same as games' 0013 for tables)."""

from django.db import migrations
from django.db.models import Q

TUTE, HABANERO, POCHA = "tute", "habanero", "pocha"
AT_REST = (
    # (which arenas, the option, its value at rest)
    (~Q(variant=TUTE, players=4), "pairs", False),
    (~Q(variant=TUTE), "rounds", 1),
    (~Q(variant=HABANERO), "points_to_win", 4),
    (Q(variant=POCHA), "allow_tute", False),
    (~Q(variant=TUTE, players=2), "stock_play", "free"),
)


def normalise(apps, schema_editor):
    Arena = apps.get_model("arenas", "Arena")
    for arenas, name, rest in AT_REST:
        Arena.objects.filter(arenas).exclude(**{name: rest}).update(**{name: rest})


class Migration(migrations.Migration):
    dependencies = [("arenas", "0003_arena_sockets")]

    operations = [migrations.RunPython(normalise, migrations.RunPython.noop)]
