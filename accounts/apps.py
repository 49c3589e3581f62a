from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from accounts.moderators import ACCOUNTS_MODERATOR_PERMISSIONS


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Players")
    moderator_permissions = ACCOUNTS_MODERATOR_PERMISSIONS

    def ready(self) -> None:
        from accounts import signals  # noqa: F401 - connects the login receiver
