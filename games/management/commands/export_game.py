import json

from django.core.management.base import BaseCommand, CommandError

from games.models import Game


class Command(BaseCommand):
    help = "Write the JSON record of a stored game (NOTATION.md) to standard output."

    def add_arguments(self, parser):
        parser.add_argument("game_id", type=int)

    def handle(self, *args, game_id: int, **options):
        record = Game.objects.filter(pk=game_id).values_list("record", flat=True).first()
        if record is None:
            raise CommandError(f"No game with id {game_id}.")
        self.stdout.write(json.dumps(record, ensure_ascii=False, indent=2))
