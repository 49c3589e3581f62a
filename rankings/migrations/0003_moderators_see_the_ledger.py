from django.db import migrations


def grant(apps, schema_editor):
    from accounts.moderators import moderators_group_grant

    moderators_group_grant(
        apps,
        [
            ("rankings", "view_chipaccount"),
            ("rankings", "view_chiptransfer"),
            ("rankings", "view_ledgerentry"),
            ("rankings", "view_xpevent"),
            ("rankings", "adjust_chips"),
        ],
    )


class Migration(migrations.Migration):
    dependencies = [
        ("rankings", "0002_game_ids_not_foreign_keys"),
        ("accounts", "0003_moderators_group"),
    ]

    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
