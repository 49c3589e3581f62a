from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArenasConfig(AppConfig):
    name = "games.arenas"
    label = "arenas"
    verbose_name = _("Arenas")
    default_auto_field = "django.db.models.BigAutoField"
    moderator_permissions = (
        ("arenas", "view_arena"),
        ("arenas", "add_arena"),
        ("arenas", "change_arena"),
        ("arenas", "view_arenaplayer"),
        ("arenas", "view_arenagame"),
    )

    def ready(self) -> None:
        from games import server
        from games.arenas import tasks
        from games.table import game_over

        # An arena game's score is counted as soon as its end is committed.
        game_over.connect(tasks.arena_game_over, dispatch_uid="arenas_game_over")
        # Without Redis (no beat), the daphne process's own loop queues the arenas' tick.
        server.EMBEDDED_SWEEPS.append(tasks.tick)
