"""Games' receivers: a player muted or unmuted while at a table hears it there at once; a
banned player leaves the tables that wait for players.

A mute is written by `accounts.services`, which knows nothing of tables; here, once it is
committed, each table the player sits at gets a `mute` frame on the player's own seat group
(docs/protocol.md). The frame holds no data: the page asks the server for the player's mute
and redraws its chat box. A lost frame is harmless: the next message typed is refused and
the page asks then.

A ban too is written by `accounts.services` (`user_ban`, whatever asks for it: the admin's
action, a report's verdict) and logged as a moderation action: here, in its transaction,
the banned player's waiting tables close and they stand up from the others'
(games/table/seating.py `banned_leaves_tables`), so that no table of theirs stays in the
lobby with a Join nobody can answer."""

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.models import ModerationAction
from games import push
from games.models import Table, TableSeat
from games.table.seating import banned_leaves_tables


@receiver(post_save, sender=ModerationAction, dispatch_uid="games_mute_reaches_the_table")
def mute_reaches_the_table(sender, instance: ModerationAction, created: bool, **kwargs) -> None:
    if not created or instance.target_id is None:
        return
    if instance.kind not in (ModerationAction.Kind.MUTE, ModerationAction.Kind.UNMUTE):
        return
    seats = TableSeat.objects.filter(user_id=instance.target_id).exclude(
        table__status=Table.Status.CLOSED
    )
    messages = [
        (
            push.seat_group(table_id, seat),
            {"type": "table.chat", "frame": {"type": "mute", "table_id": table_id}},
        )
        for table_id, seat in seats.values_list("table_id", "seat")
    ]
    if messages:
        transaction.on_commit(lambda: push.send(messages), robust=True)


@receiver(post_save, sender=ModerationAction, dispatch_uid="games_banned_leave_their_tables")
def banned_leave_their_tables(sender, instance: ModerationAction, created: bool, **kwargs) -> None:
    if created and instance.target_id is not None and instance.kind == ModerationAction.Kind.BAN:
        banned_leaves_tables(user_id=instance.target_id)
