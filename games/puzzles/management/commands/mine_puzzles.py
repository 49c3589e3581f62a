"""Mine finished games for puzzles now, in this process (to fill the puzzles in after the fact).

    python manage.py mine_puzzles --games 1000     # the last 1,000 finished games not mined
    python manage.py mine_puzzles --game 12 --game 40

A game already mined is left alone: run twice, nothing is stored twice.
"""

from django.core.management.base import BaseCommand

from games.puzzles.store import puzzles_mine_game, unmined_games


class Command(BaseCommand):
    help = "Mine finished 2-player games for puzzles (the most recent not mined first)."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=100, help="how many games at most")
        parser.add_argument("--game", type=int, action="append", help="this game (repeatable)")

    def handle(self, *args, games: int, game: list[int] | None, **options):
        if game:
            ids = game
        else:
            ids = list(
                unmined_games().order_by("-finished_at", "-pk").values_list("pk", flat=True)[:games]
            )
        total = 0
        for game_id in ids:
            found = puzzles_mine_game(game_id=game_id)
            total += found or 0
            self.stdout.write(f"game {game_id}: {found if found is not None else 'not finished'}")
        self.stdout.write(self.style.SUCCESS(f"{len(ids)} games mined, {total} puzzles"))
