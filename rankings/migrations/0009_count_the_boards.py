"""Count the players of every leaderboard already kept, once: the award keeps them after."""

from django.db import migrations
from django.db.models import Count


def count(apps, schema_editor):
    BoardRow = apps.get_model("rankings", "BoardRow")
    BoardCount = apps.get_model("rankings", "BoardCount")
    rows = (
        BoardRow.objects.filter(games__gt=0, active=True)
        .values("period", "start", "variant")
        .annotate(players=Count("pk"))
        .order_by()
    )
    BoardCount.objects.bulk_create(BoardCount(**row) for row in rows)


class Migration(migrations.Migration):
    dependencies = [("rankings", "0008_ratings_trophies_and_board_counts")]

    operations = [migrations.RunPython(count, migrations.RunPython.noop)]
