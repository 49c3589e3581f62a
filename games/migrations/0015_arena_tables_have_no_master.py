"""An arena's table has no master's panel: the tables an arena seated are marked, those made
before included (each has its arena game)."""

from django.db import migrations, models


def mark_arena_tables(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    ArenaGame = apps.get_model("arenas", "ArenaGame")
    Table.objects.filter(pk__in=ArenaGame.objects.values("table_id")).update(arena_table=True)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_seat_robot_decisions"),
        ("arenas", "0004_arenas_store_only_what_applies"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="arena_table",
            field=models.BooleanField(
                default=False, editable=False, verbose_name="an arena's table"
            ),
        ),
        migrations.RunPython(mark_arena_tables, migrations.RunPython.noop),
    ]
