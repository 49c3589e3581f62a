from django.db import migrations


def grant(apps, schema_editor):
    from accounts.moderators import moderators_group_grant

    # The rights as they were then: later migrations grant the ones added since.
    moderators_group_grant(
        apps,
        [
            ("games", "view_table"),
            ("games", "close_table"),
            ("games", "view_tableseat"),
            ("games", "view_game"),
            ("games", "view_gameseat"),
            ("games", "view_chatmessage"),
            ("games", "view_invitation"),
        ],
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_robots_timers_presence_cancel"),
        ("accounts", "0003_moderators_group"),
    ]

    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
