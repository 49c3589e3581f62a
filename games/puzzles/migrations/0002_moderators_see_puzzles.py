from django.db import migrations


def grant(apps, schema_editor):
    from accounts.moderators import moderators_group_grant

    moderators_group_grant(apps, [("puzzles", "view_puzzle")])


class Migration(migrations.Migration):
    dependencies = [("puzzles", "0001_initial"), ("accounts", "0003_moderators_group")]

    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
