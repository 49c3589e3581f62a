from django.db import migrations


def grant(apps, schema_editor):
    from accounts.moderators import moderators_group_grant

    moderators_group_grant(
        apps,
        [
            ("arenas", "view_arena"),
            ("arenas", "add_arena"),
            ("arenas", "change_arena"),
            ("arenas", "view_arenaplayer"),
            ("arenas", "view_arenagame"),
        ],
    )


class Migration(migrations.Migration):
    dependencies = [("arenas", "0001_arenas"), ("accounts", "0003_moderators_group")]

    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
