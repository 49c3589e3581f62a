"""The rights the Moderators group needs on tables, games and chat.

accounts/moderators.py owns the group and its exact list (MODERATOR_PERMISSIONS), which its
migration grants and a test pins; accounts may not import games. These pairs belong in that
list: until they are there, `games_moderators_sync` adds them to the group (the tests use it).
"""

from django.apps import apps as global_apps

GAMES_MODERATOR_PERMISSIONS: tuple[tuple[str, str], ...] = (
    ("games", "view_table"),
    ("games", "close_table"),
    ("games", "view_tableseat"),
    ("games", "view_game"),
    ("games", "view_gameseat"),
    ("games", "view_chatmessage"),
    ("games", "view_invitation"),
)


def games_moderators_sync(apps=global_apps):
    """Give the Moderators group (created if missing) the games rights above."""
    from django.contrib.auth.management import create_permissions

    from accounts.moderators import MODERATORS_GROUP

    app_config = apps.get_app_config("games")
    # Permissions are normally made after all migrations (post_migrate); make ours now.
    models_module = getattr(app_config, "models_module", None)
    app_config.models_module = models_module or True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = models_module
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name=MODERATORS_GROUP)
    group.permissions.add(
        *(
            Permission.objects.get(content_type__app_label=label, codename=codename)
            for label, codename in GAMES_MODERATOR_PERMISSIONS
        )
    )
    return group
