from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

# The Moderators group's rights here: see tables, games and chat, close a table, decide
# on players' reports. No add,
# change or delete: every change goes through an admin action and a service.
GAMES_MODERATOR_PERMISSIONS: tuple[tuple[str, str], ...] = (
    ("games", "view_table"),
    ("games", "close_table"),
    ("games", "view_tableseat"),
    ("games", "view_game"),
    ("games", "view_gameseat"),
    ("games", "view_chatmessage"),
    ("games", "view_invitation"),
    ("games", "view_report"),
    ("games", "decide_report"),
)


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")
    moderator_permissions = GAMES_MODERATOR_PERMISSIONS

    def ready(self) -> None:
        from games import signals  # noqa: F401 - a mute reaches the player's tables
        from games.events import subscribe
        from games.tasks import analyse_ended_game

        # A finished game's analysis is queued as soon as its end is committed.
        subscribe(analyse_ended_game)
