from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PuzzlesConfig(AppConfig):
    name = "games.puzzles"
    label = "puzzles"
    verbose_name = _("Puzzles")
    default_auto_field = "django.db.models.BigAutoField"
    moderator_permissions = (("puzzles", "view_puzzle"),)

    def ready(self) -> None:
        from games.puzzles import tasks
        from games.tasks import analysis_stored

        # Once a finished game's analysis is stored, on the slow lane: its puzzles.
        analysis_stored.connect(tasks.after_analysis, dispatch_uid="puzzles_after_analysis")
