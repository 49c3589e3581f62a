"""Tables stored before their options were normalised (games/engine/options.py
`Options.normalised`): each option that does not apply to the table's game at rest, so that
no habanero table says "in pairs". The facts are written out here as they stood when this
migration was made, as a migration must: later changes to the engine do not rewrite history.
"""

from django.db import migrations
from django.db.models import Q

TUTE, HABANERO, POCHA = "tute", "habanero", "pocha"
AT_REST = (
    # (which tables, the option, its value at rest)
    (~Q(variant=TUTE, players=4), "pairs", False),
    (~Q(variant=TUTE), "rounds", 1),
    (~Q(variant=HABANERO), "points_to_win", 4),
    (Q(variant=POCHA), "allow_tute", False),
    (~Q(variant=TUTE, players=2), "stock_play", "free"),
)


def normalise(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    for tables, name, rest in AT_REST:
        Table.objects.filter(tables).exclude(**{name: rest}).update(**{name: rest})


class Migration(migrations.Migration):
    dependencies = [("games", "0012_merge_finding_and_while_away")]

    operations = [migrations.RunPython(normalise, migrations.RunPython.noop)]
