from django.db import migrations


def grant(apps, schema_editor):
    from accounts.moderators import moderators_group_grant
    from games.apps import GAMES_MODERATOR_PERMISSIONS

    moderators_group_grant(apps, GAMES_MODERATOR_PERMISSIONS)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_robots_timers_presence_cancel"),
        ("accounts", "0003_moderators_group"),
    ]

    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
