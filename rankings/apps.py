from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

# The Moderators group's rights here: see the ledger and the games' awards, adjust a
# player's chips, exclude a game from the leaderboards.
RANKINGS_MODERATOR_PERMISSIONS: tuple[tuple[str, str], ...] = (
    ("rankings", "view_chipaccount"),
    ("rankings", "view_chiptransfer"),
    ("rankings", "view_ledgerentry"),
    ("rankings", "view_xpevent"),
    ("rankings", "adjust_chips"),
    ("rankings", "view_gameresult"),
    ("rankings", "view_gameresultseat"),
    ("rankings", "exclude_gameresult"),
)


class RankingsConfig(AppConfig):
    name = "rankings"
    verbose_name = _("Rankings")
    moderator_permissions = RANKINGS_MODERATOR_PERMISSIONS

    def ready(self) -> None:
        from rankings import signals  # noqa: F401 - connects the signup grant
