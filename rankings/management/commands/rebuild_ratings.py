"""Rebuild every rating from the stored results, kind by kind, in the game order.

    python manage.py rebuild_ratings [--kind tute2]

Each kind is one transaction under the kind's lock: awards of that kind wait, then rate from
the rebuilt numbers. A rebuild of unchanged results reaches the numbers already stored.
"""

from django.core.management.base import BaseCommand

from rankings.kinds import TABLE_KINDS
from rankings.ratings import ratings_rebuild


class Command(BaseCommand):
    help = "Rebuild every rating from the stored game results, in the game order."

    def add_arguments(self, parser):
        parser.add_argument("--kind", choices=[kind for kind, _label in TABLE_KINDS])

    def handle(self, *args, kind: str | None, **options):
        for code, _label in TABLE_KINDS:
            if kind is None or code == kind:
                games = ratings_rebuild(kind=code)
                self.stdout.write(f"{code}: {games} games rated")
