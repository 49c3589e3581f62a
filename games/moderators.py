"""The rights the Moderators group needs on tables, games and chat.

accounts/moderators.py owns the group and its exact list (MODERATOR_PERMISSIONS), which its
migration grants and a test pins; accounts may not import games. These pairs belong in that
list: until they are there, `games_moderators_sync` adds them to the group (the tests use it).
"""

GAMES_MODERATOR_PERMISSIONS: tuple[tuple[str, str], ...] = (
    ("games", "view_table"),
    ("games", "close_table"),
    ("games", "view_tableseat"),
    ("games", "view_game"),
    ("games", "view_gameseat"),
    ("games", "view_chatmessage"),
    ("games", "view_invitation"),
)


def games_moderators_sync() -> None:
    """Give the Moderators group the games rights above (the permissions exist once migrated)."""
    from django.contrib.auth.models import Group, Permission
    from django.db.models import Q

    from accounts.moderators import MODERATORS_GROUP

    wanted = Q()
    for label, codename in GAMES_MODERATOR_PERMISSIONS:
        wanted |= Q(content_type__app_label=label, codename=codename)
    group, _created = Group.objects.get_or_create(name=MODERATORS_GROUP)
    group.permissions.add(*Permission.objects.filter(wanted))
