from django.db import migrations


def create_moderators_group(apps, schema_editor):
    from accounts.moderators import ACCOUNTS_MODERATOR_PERMISSIONS, moderators_group_grant

    # Accounts' own rights only; each app above grants its own in its migrations.
    moderators_group_grant(apps, ACCOUNTS_MODERATOR_PERMISSIONS)


def delete_moderators_group(apps, schema_editor):
    from accounts.moderators import MODERATORS_GROUP

    apps.get_model("auth", "Group").objects.filter(name=MODERATORS_GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_players_friends_ips_moderation"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(create_moderators_group, delete_moderators_group)]
