"""Rankings keep a game's id, not a foreign key to games.Game: rankings sits below games.

The database keeps every row and the `game_id` columns with their indexes; only the
foreign-key constraints go. In the state, the `game` relations become plain `game_id` fields.
"""

import django.db.models.deletion
from django.db import migrations, models


def _plain_id(model: str, relation, field: models.Field) -> migrations.SeparateDatabaseAndState:
    return migrations.SeparateDatabaseAndState(
        database_operations=[
            migrations.AlterField(
                model_name=model,
                name="game",
                field=relation(
                    blank=True,
                    null=True,
                    db_constraint=False,
                    on_delete=django.db.models.deletion.DO_NOTHING,
                    related_name="+",
                    to="games.game",
                    verbose_name="game",
                ),
            )
        ],
        state_operations=[
            migrations.RemoveField(model_name=model, name="game"),
            migrations.AddField(model_name=model, name="game_id", field=field),
        ],
    )


class Migration(migrations.Migration):
    dependencies = [
        ("rankings", "0001_initial"),
        ("games", "0001_initial"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="chipaccount", name="rankings_account_owner_matches_kind"
        ),
        _plain_id(
            "chipaccount",
            models.OneToOneField,
            models.BigIntegerField(blank=True, null=True, unique=True, verbose_name="game"),
        ),
        _plain_id(
            "chiptransfer",
            models.ForeignKey,
            models.BigIntegerField(blank=True, db_index=True, null=True, verbose_name="game"),
        ),
        _plain_id(
            "xpevent",
            models.ForeignKey,
            models.BigIntegerField(blank=True, db_index=True, null=True, verbose_name="game"),
        ),
        migrations.AddConstraint(
            model_name="chipaccount",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("game_id__isnull", True), ("kind", "player"), ("user__isnull", False)),
                    models.Q(("game_id__isnull", False), ("kind", "pot"), ("user__isnull", True)),
                    models.Q(
                        ("game_id__isnull", True),
                        ("kind__in", ["bank", "grants"]),
                        ("user__isnull", True),
                    ),
                    _connector="OR",
                ),
                name="rankings_account_owner_matches_kind",
            ),
        ),
    ]
