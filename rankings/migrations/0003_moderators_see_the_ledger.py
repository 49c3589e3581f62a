from django.db import migrations


def grant(apps, schema_editor):
    from accounts.moderators import moderators_group_grant
    from rankings.apps import RANKINGS_MODERATOR_PERMISSIONS

    moderators_group_grant(apps, RANKINGS_MODERATOR_PERMISSIONS)


class Migration(migrations.Migration):
    dependencies = [
        ("rankings", "0002_game_ids_not_foreign_keys"),
        ("accounts", "0003_moderators_group"),
    ]

    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
