"""Tell PostgreSQL's planner that a board's period, start and variant go together.

Without it, it multiplies their selectivities, expects a hundredth of a board's rows, and
reads the chips leaderboard with a hash join and a sort instead of walking its index.
"""

from django.db import migrations

CREATE = (
    "CREATE STATISTICS IF NOT EXISTS rankings_board_scope_stats (dependencies, mcv) "
    "ON period, start, variant FROM rankings_boardrow"
)
DROP = "DROP STATISTICS IF EXISTS rankings_board_scope_stats"


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("rankings", "0006_boards_read_from_their_indexes")]

    operations = [migrations.RunPython(create, drop)]
