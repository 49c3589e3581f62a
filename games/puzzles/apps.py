from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PuzzlesConfig(AppConfig):
    name = "games.puzzles"
    label = "puzzles"
    verbose_name = _("Puzzles")
    default_auto_field = "django.db.models.BigAutoField"
    moderator_permissions = (("puzzles", "view_puzzle"),)

    def ready(self) -> None:
        from games import events
        from games.puzzles import tasks

        # Once a finished game's end is committed, on the slow lane after its analysis: its
        # puzzles.
        events.subscribe(tasks.mine_ended_game)
