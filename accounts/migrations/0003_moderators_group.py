from django.db import migrations


def create_moderators_group(apps, schema_editor):
    from accounts.moderators import moderators_group_sync

    moderators_group_sync(apps)


def delete_moderators_group(apps, schema_editor):
    from accounts.moderators import MODERATORS_GROUP

    apps.get_model("auth", "Group").objects.filter(name=MODERATORS_GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_players_friends_ips_moderation"),
        ("rankings", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(create_moderators_group, delete_moderators_group)]
