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
        from games import events, server
        from games.arenas import tasks

        # An arena game's score is counted as soon as its end is committed.
        events.subscribe(tasks.arena_game_ended)
        # Without Redis (no beat), the daphne process's own loop queues the arenas' tick.
        if tasks.tick not in server.EMBEDDED_SWEEPS:
            server.EMBEDDED_SWEEPS.append(tasks.tick)
