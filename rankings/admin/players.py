"""The players' admin (accounts' one, extended): grade and chips, their standing, ledger and
XP, and the moderator's chips adjustment."""

from django import forms
from django.contrib import admin
from django.contrib.humanize.templatetags.humanize import intcomma
from django.db.models import F, OuterRef, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from accounts.admin import PlayerAdmin, ReasonForm
from accounts.models import User
from rankings import selectors
from rankings.grades import grade_for_xp
from rankings.models import (
    XpEvent,
)
from rankings.services import (
    ChipsError,
    InsufficientChips,
    chips_adjust_by_moderator,
)

# --- Players: accounts' admin with their chips and XP ------------------------------------


class AdjustChipsForm(ReasonForm):
    amount = forms.IntegerField(
        label=_("Chips"),
        help_text=_("Positive to give chips, negative to take them back."),
    )
    # One token per form shown: submitting the same form twice moves chips once.
    token = forms.CharField(widget=forms.HiddenInput)

    field_order = ["amount", "reason", "token"]

    def clean_amount(self):
        amount = self.cleaned_data["amount"]
        if amount == 0:
            raise forms.ValidationError(_("Enter a number of chips other than zero."))
        return amount


def with_xp_and_chips(players: QuerySet[User]) -> QuerySet[User]:
    """Each player with `.xp` and `.chips`, in the same query (the list has 100 rows a page)."""
    xp = (
        XpEvent.objects.filter(user=OuterRef("pk"))
        .order_by()
        .values("user")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    return players.annotate(
        xp=Coalesce(Subquery(xp), Value(0)),
        chips=Coalesce(F("chip_account__balance"), Value(0)),
    )


admin.site.unregister(User)


@admin.register(User)
class RankedPlayerAdmin(PlayerAdmin):
    list_display = (*PlayerAdmin.list_display[:2], "grade", "chips", *PlayerAdmin.list_display[2:])
    actions = [*PlayerAdmin.actions, "adjust_chips"]
    fieldsets = (
        *PlayerAdmin.fieldsets[:-1],
        (_("Standing"), {"fields": ("grade", "xp", "chips", "ledger_summary", "xp_summary")}),
        PlayerAdmin.fieldsets[-1],
    )
    readonly_fields = (
        *PlayerAdmin.readonly_fields,
        "grade",
        "xp",
        "chips",
        "ledger_summary",
        "xp_summary",
    )
    moderation_errors = (*PlayerAdmin.moderation_errors, ChipsError)

    def get_queryset(self, request):
        return with_xp_and_chips(super().get_queryset(request))

    def has_adjust_chips_permission(self, request) -> bool:
        return request.user.has_perm("rankings.adjust_chips")

    # --- Read-only standing, from the annotations -----------------------------------------

    @admin.display(description=_("XP"), ordering="xp")
    def xp(self, obj: User) -> int:
        return obj.xp

    @admin.display(description=_("Grade"), ordering="xp")
    def grade(self, obj: User) -> str:
        return str(grade_for_xp(obj.xp).name)

    @admin.display(description=_("Chips"), ordering="chips")
    def chips(self, obj: User) -> int:
        return obj.chips

    @admin.display(description=_("Ledger entries"))
    def ledger_summary(self, obj: User) -> str:
        entries = selectors.ledger_entries_for(user=obj)[:10]
        url = reverse("admin:rankings_ledgerentry_changelist") + f"?player={obj.pk}"
        rows = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    entry.transfer.created_at.strftime("%Y-%m-%d %H:%M"),
                    entry.transfer.get_reason_display(),
                    entry.amount if entry.destination.user_id == obj.pk else -entry.amount,
                    entry.transfer.memo,
                    entry.transfer.key,
                )
                for entry in entries
            ),
        )
        return format_html(
            '<table class="ledger-summary"><tbody>{}</tbody></table><p><a href="{}">{}</a></p>',
            rows,
            url,
            gettext("All ledger entries of this player"),
        )

    @admin.display(description=_("XP events"))
    def xp_summary(self, obj: User) -> str:
        url = reverse("admin:rankings_xpevent_changelist") + f"?user__id__exact={obj.pk}"
        count = obj.xp_events.count()
        return format_html(
            '<a href="{}">{}</a>', url, gettext("%(count)s XP events") % {"count": count}
        )

    @admin.action(description=_("Adjust chips of selected players"), permissions=["adjust_chips"])
    def adjust_chips(self, request, queryset):
        def apply(user, data):
            try:
                _transfer, action = chips_adjust_by_moderator(
                    user=user,
                    moderator=request.user,
                    amount=data["amount"],
                    reason=data["reason"],
                    key=f"adjust:{data['token']}:{user.pk}",
                )
            except InsufficientChips as error:
                raise ChipsError(
                    gettext("they hold %(balance)s chips, fewer than the %(amount)s to take.")
                    % {"balance": intcomma(error.balance), "amount": intcomma(-data["amount"])}
                ) from error
            if action is None:
                return None  # the same form submitted twice: already done
            return f"Chips {data['amount']:+d}. Reason: {data['reason'].strip()}"

        def success(names, data):
            values = {"players": ", ".join(names), "count": len(names)}
            values["chips"] = intcomma(abs(data["amount"]))
            if data["amount"] > 0:
                text = ngettext(
                    "Gave %(chips)s chips to %(players)s.",
                    "Gave %(chips)s chips each to %(count)s players: %(players)s.",
                    len(names),
                )
            else:
                text = ngettext(
                    "Took %(chips)s chips from %(players)s.",
                    "Took %(chips)s chips each from %(count)s players: %(players)s.",
                    len(names),
                )
            return text % values

        return self.moderate(
            request,
            queryset,
            form_class=AdjustChipsForm,
            title=gettext("Adjust chips"),
            apply=apply,
            success=success,
        )
