"""Players' reports: a player reports a chat message or a player at a table; a moderator
decides each one (no action, a warning, a mute or a ban) and the decision goes to the
moderation log.

A player sends at most `REPORTS_PER_HOUR` reports in an hour, and reports a message once.
Both are checked under a lock on the reporter's user row, so two reports sent at the same
instant are counted one after the other.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts import services as account_services
from accounts.models import ModerationAction, User
from games.models import ChatMessage, GameSeat, Report, Table, TableSeat

REPORTS_PER_HOUR = 3
REPORT_WINDOW = timedelta(hours=1)
# How many messages before and after the reported one a moderator reads.
CHAT_AROUND = 5


class ReportError(ValueError):
    """A report that cannot be sent, or a decision that cannot be made; says why."""


# --- Reads ----------------------------------------------------------------------------------


def table_people(*, table: Table) -> QuerySet[User]:
    """Everyone a player may report at a table: who sits there, who played its current game,
    who wrote in its chat."""
    return (
        User.objects.filter(
            Q(pk__in=TableSeat.objects.filter(table=table).values("user"))
            | Q(pk__in=GameSeat.objects.filter(game_id=table.game_id).values("user"))
            | Q(pk__in=ChatMessage.objects.filter(table=table).values("user"))
        )
        .distinct()
        .order_by("username")
    )


def may_report_at(*, user: User, table: Table) -> bool:
    """Whether `user` sees this table's chat: seated or a player of its game, or a guest at
    a table that admits guests."""
    if not user.is_authenticated:
        return False
    if table.guests:
        return True
    return (
        TableSeat.objects.filter(table=table, user=user).exists()
        or GameSeat.objects.filter(game_id=table.game_id, user=user).exists()
    )


def chat_around(*, report: Report) -> list[ChatMessage]:
    """The chat a moderator reads with a report: the reported message and the few before and
    after it; for a report on a player, the table's last messages before the report."""
    messages = ChatMessage.objects.filter(table=report.table_id).select_related("user")
    if report.message_id is None:
        latest = messages.filter(created_at__lte=report.created_at).order_by("-created_at", "-pk")
        return list(reversed(latest[: 2 * CHAT_AROUND]))
    message = report.message
    before = messages.filter(
        Q(created_at__lt=message.created_at) | Q(created_at=message.created_at, pk__lt=message.pk)
    ).order_by("-created_at", "-pk")[:CHAT_AROUND]
    after = messages.filter(
        Q(created_at__gt=message.created_at) | Q(created_at=message.created_at, pk__gt=message.pk)
    ).order_by("created_at", "pk")[:CHAT_AROUND]
    return [*reversed(before), message, *after]


# --- Writes ---------------------------------------------------------------------------------


@transaction.atomic
def report_create(
    *,
    reporter: User,
    table_id: int,
    reason: str,
    note: str = "",
    message_id: int | None = None,
    reported: User | None = None,
) -> Report:
    """Report a chat message of a table (its author is the player reported) or a player of
    the table. Raises `ReportError`. Locks the reporter's user row, then counts their
    reports of the last hour."""
    if not reporter.is_authenticated or not reporter.is_active:
        raise ReportError(_("Log in to report a player."))
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise ReportError(_("There is no such table."))
    if not may_report_at(user=reporter, table=table):
        raise ReportError(_("Only the players may report at this table."))
    message = None
    if message_id is not None:
        message = ChatMessage.objects.filter(pk=message_id, table=table).first()
        if message is None:
            raise ReportError(_("That message is not in this table's chat."))
        reported = message.user
    if reported is None or not table_people(table=table).filter(pk=reported.pk).exists():
        raise ReportError(_("Choose a player of this table or one of its chat messages."))
    if reported.pk == reporter.pk:
        raise ReportError(_("You cannot report yourself."))
    if reason not in Report.Reason.values:
        raise ReportError(_("Choose a reason from the list."))
    note = note.strip()
    if len(note) > Report.NOTE_LENGTH:
        raise ReportError(_("A note has at most %(max)s characters.") % {"max": Report.NOTE_LENGTH})
    User.objects.select_for_update().filter(pk=reporter.pk).first()
    if message is not None and Report.objects.filter(reporter=reporter, message=message).exists():
        raise ReportError(_("You have already reported this message."))
    since = timezone.now() - REPORT_WINDOW
    if Report.objects.filter(reporter=reporter, created_at__gte=since).count() >= REPORTS_PER_HOUR:
        raise ReportError(
            _("You may send at most %(count)s reports an hour: try again later.")
            % {"count": REPORTS_PER_HOUR}
        )
    return Report.objects.create(
        reporter=reporter,
        reported=reported,
        table=table,
        message=message,
        game_id=table.game_id,
        reason=reason,
        note=note,
    )


@transaction.atomic
def report_decide(
    *,
    report: Report,
    moderator: User,
    decision: str,
    reason: str,
    until: datetime | None = None,
) -> Report:
    """Close a report with a decision, which goes to the moderation log: no action or a
    warning (logged as such), a mute until `until` or a ban (through the accounts services,
    which log them). A report is decided once. Raises `ReportError`, or `ModerationError`
    when the moderator may not act on this player. Locks the report's row (then the player's,
    for a mute or a ban)."""
    reason = reason.strip()
    if not reason:
        raise ReportError(_("A decision needs a reason."))
    locked = Report.objects.select_for_update().select_related("reported").get(pk=report.pk)
    if not locked.is_open:
        raise ReportError(
            _("This report was already decided by %(moderator)s.")
            % {"moderator": locked.decided_by.username}
        )
    player = locked.reported
    Decision = Report.Decision
    if decision == Decision.NONE:
        action = account_services.moderation_log(
            moderator=moderator, kind=ModerationAction.Kind.DISMISS, reason=reason, target=player
        )
    elif decision == Decision.WARNING:
        account_services.check_moderator_may_act(moderator=moderator, user=player)
        action = account_services.moderation_log(
            moderator=moderator, kind=ModerationAction.Kind.WARN, reason=reason, target=player
        )
    elif decision == Decision.MUTE:
        if until is None:
            raise ReportError(_("A mute needs the time it ends."))
        action = account_services.user_mute(
            user=player, moderator=moderator, until=until, reason=reason
        )
    elif decision == Decision.BAN:
        action = account_services.user_ban(user=player, moderator=moderator, reason=reason)
    else:
        raise ReportError(_("Choose a decision from the list."))
    locked.decision = decision
    locked.decision_note = reason
    locked.decided_by = moderator
    locked.decided_at = timezone.now()
    locked.action = action
    locked.save(update_fields=["decision", "decision_note", "decided_by", "decided_at", "action"])
    return locked
