"""The Moderators group: exactly the permissions to run the site, nothing to delete history.

Used by the data migration that creates it (with the historical app registry) and by tests.
"""

from django.apps import apps as global_apps

MODERATORS_GROUP = "Moderators"

# (app label, codename). View rights to see a player's record; the three custom rights
# to act. No add, change or delete: every change goes through an admin action and a service.
MODERATOR_PERMISSIONS: tuple[tuple[str, str], ...] = (
    ("accounts", "view_user"),
    ("accounts", "ban_user"),
    ("accounts", "mute_user"),
    ("accounts", "view_knownip"),
    ("accounts", "view_moderationaction"),
    ("rankings", "view_chipaccount"),
    ("rankings", "view_chiptransfer"),
    ("rankings", "view_ledgerentry"),
    ("rankings", "view_xpevent"),
    ("rankings", "adjust_chips"),
)


def moderators_group_sync(apps=global_apps):
    """Create the group if missing and give it exactly MODERATOR_PERMISSIONS."""
    from django.contrib.auth.management import create_permissions

    for label in {label for label, _codename in MODERATOR_PERMISSIONS}:
        app_config = apps.get_app_config(label)
        # Permissions are normally made after all migrations (post_migrate); make ours now.
        models_module = getattr(app_config, "models_module", None)
        app_config.models_module = models_module or True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = models_module
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name=MODERATORS_GROUP)
    permissions = [
        Permission.objects.get(content_type__app_label=label, codename=codename)
        for label, codename in MODERATOR_PERMISSIONS
    ]
    group.permissions.set(permissions)
    return group
