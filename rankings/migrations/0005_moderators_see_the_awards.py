from django.db import migrations


def grant(apps, schema_editor):
    from accounts.moderators import moderators_group_grant

    moderators_group_grant(
        apps,
        [
            ("rankings", "view_gameresult"),
            ("rankings", "view_gameresultseat"),
            ("rankings", "exclude_gameresult"),
        ],
    )


class Migration(migrations.Migration):
    dependencies = [("rankings", "0004_game_results_and_boards")]

    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
