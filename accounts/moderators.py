"""The Moderators group: exactly the permissions to run the site, nothing to delete history.

Each app declares the rights its moderators need as `moderator_permissions` on its AppConfig
(accounts its own, rankings the ledger's), so accounts names no app above it. Each app's
migration grants its own; `moderators_group_sync` (tests, repairs) sets exactly their union.
"""

from django.apps import apps as global_apps

MODERATORS_GROUP = "Moderators"

# (app label, codename). View rights to see a player's record; custom rights to act. No add,
# change or delete: every change goes through an admin action and a service.
ACCOUNTS_MODERATOR_PERMISSIONS: tuple[tuple[str, str], ...] = (
    ("accounts", "view_user"),
    ("accounts", "ban_user"),
    ("accounts", "mute_user"),
    ("accounts", "view_knownip"),
    ("accounts", "view_moderationaction"),
)


def moderator_permissions() -> set[tuple[str, str]]:
    """Every installed app's `moderator_permissions`, together."""
    return {
        permission
        for config in global_apps.get_app_configs()
        for permission in getattr(config, "moderator_permissions", ())
    }


def _permissions(apps, permissions):
    # Imported here: this module is read while the app registry is still loading.
    from django.contrib.auth.management import create_permissions

    for label in {label for label, _codename in permissions}:
        app_config = apps.get_app_config(label)
        # Permissions are normally made after all migrations (post_migrate); make ours now.
        models_module = getattr(app_config, "models_module", None)
        app_config.models_module = models_module or True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = models_module
    Permission = apps.get_model("auth", "Permission")
    return [
        Permission.objects.get(content_type__app_label=label, codename=codename)
        for label, codename in sorted(permissions)
    ]


def moderators_group_grant(apps, permissions) -> None:
    """Create the group if missing and add `permissions` to it (an app's data migration)."""
    Group = apps.get_model("auth", "Group")
    group, _created = Group.objects.get_or_create(name=MODERATORS_GROUP)
    group.permissions.add(*_permissions(apps, permissions))


def moderators_group_sync(apps=global_apps):
    """Create the group if missing and give it exactly `moderator_permissions()`."""
    Group = apps.get_model("auth", "Group")
    group, _created = Group.objects.get_or_create(name=MODERATORS_GROUP)
    group.permissions.set(_permissions(apps, moderator_permissions()))
    return group
