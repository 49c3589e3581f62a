"""Players' reports in the moderators' admin: open ones first, each decided once."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import F
from django.shortcuts import get_object_or_404, redirect
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts import services as account_services
from accounts.admin import when
from games import reports
from games.models import Report
from tute_site.readonly_admin import ReadOnlyAdminMixin

# --- Players' reports ------------------------------------------------------------------------


class DecisionForm(forms.Form):
    decision = forms.ChoiceField(
        label=_("Decision"), choices=Report.Decision.choices, widget=forms.RadioSelect
    )
    reason = forms.CharField(
        label=_("Reason"),
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Kept in the moderation log; a mute or a ban shows it to the player."),
    )
    until = forms.DateTimeField(
        label=_("Muted until (UTC)"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text=_("For a mute only."),
    )

    def clean(self):
        data = super().clean()
        if data.get("decision") == Report.Decision.MUTE:
            until = data.get("until")
            if until is None:
                self.add_error("until", _("A mute needs the time it ends."))
            elif until <= timezone.now():
                self.add_error("until", _("Choose a time in the future."))
        return data


class OpenFilter(admin.SimpleListFilter):
    title = _("status")
    parameter_name = "open"

    def lookups(self, request, model_admin):
        return [("yes", _("Waiting for a decision")), ("no", _("Decided"))]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(decided_at__isnull=True)
        if self.value() == "no":
            return queryset.filter(decided_at__isnull=False)
        return queryset


# The reported message among the others.
REPORTED_LINE = mark_safe(' class="reported" style="font-weight:bold;background:#fff3cd"')


@admin.register(Report)
class ReportAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The queue: reports waiting for a decision first, oldest first; each report's page
    shows it, the chat around it and its game, and the form that decides it."""

    list_display = (
        "created_at",
        "status",
        "reported",
        "reason",
        "excerpt",
        "reporter",
        "table_link",
        "game_link",
    )
    list_display_links = ("created_at", "status")
    list_select_related = ("reporter", "reported", "message", "decided_by")
    list_filter = (OpenFilter, "reason", "decision")
    search_fields = ("reported__username", "reporter__username", "message__text", "note")
    change_form_template = "admin/games/report/change_form.html"
    fields = (
        "created_at",
        "status",
        "reported",
        "reporter",
        "reason",
        "note",
        "table_link",
        "game_link",
        "chat",
        "decision",
        "decision_note",
        "decided_by",
        "decided_at",
    )
    readonly_fields = fields

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .order_by(F("decided_at").desc(nulls_first=True), "created_at", "pk")
        )

    def has_decide_permission(self, request) -> bool:
        return request.user.has_perm("games.decide_report")

    def get_urls(self):
        decide = self.admin_site.admin_view(self.decide_view)
        return [
            path("<int:pk>/decide/", decide, name="games_report_decide"),
            *super().get_urls(),
        ]

    # --- What a moderator reads -------------------------------------------------------------

    @admin.display(description=_("status"), ordering="decided_at")
    def status(self, obj: Report) -> str:
        if obj.is_open:
            return gettext("Waiting for a decision")
        return gettext("%(decision)s, by %(moderator)s") % {
            "decision": obj.get_decision_display(),
            "moderator": obj.decided_by.username,
        }

    @admin.display(description=_("message"))
    def excerpt(self, obj: Report) -> str:
        return obj.message.text[:60] if obj.message_id else "–"

    @admin.display(description=_("table"))
    def table_link(self, obj: Report) -> str:
        return format_html(
            '<a href="{}">#{}</a> (<a href="{}">{}</a>)',
            reverse("admin:games_table_change", args=[obj.table_id]),
            obj.table_id,
            reverse("table_detail", args=[obj.table_id]),
            gettext("its page"),
        )

    @admin.display(description=_("game"))
    def game_link(self, obj: Report) -> str:
        if obj.game_id is None:
            return "–"
        return format_html(
            '<a href="{}">{}</a> (<a href="{}">{}</a>)',
            reverse("admin:games_game_change", args=[obj.game_id]),
            gettext("Game %(number)s") % {"number": obj.game_id},
            reverse("game_detail", args=[obj.game_id]),
            gettext("its page and replay, once it is over"),
        )

    @admin.display(description=_("the chat around it"))
    def chat(self, obj: Report) -> str:
        around = reports.chat_around(report=obj)
        if not around:
            return gettext("No chat at this table.")
        return format_html(
            '<ol class="report-chat">{}</ol>',
            format_html_join(
                "",
                '<li{}><span class="when">{}</span> <strong>{}</strong>: {}</li>',
                (
                    (
                        format_html(
                            ' class="reported" style="{}"', "font-weight:bold;background:#fff3cd"
                        )
                        if m.pk == obj.message_id
                        else "",
                        f"{m.created_at:%H:%M:%S}",
                        m.user.username,
                        m.text,
                    )
                    for m in around
                ),
            ),
        )

    def change_view(self, request, object_id, form_url="", extra_context=None):
        extra_context = extra_context or {}
        report = self.get_object(request, object_id)
        if report is not None and report.is_open and self.has_decide_permission(request):
            extra_context["decision_form"] = DecisionForm()
            extra_context["decide_url"] = reverse("admin:games_report_decide", args=[report.pk])
        return super().change_view(request, object_id, form_url, extra_context)

    def decide_view(self, request, pk: int):
        """POST only: the decision form of a report's page."""
        if request.method != "POST" or not self.has_decide_permission(request):
            raise PermissionDenied
        report = get_object_or_404(Report, pk=pk)
        page = reverse("admin:games_report_change", args=[report.pk])
        form = DecisionForm(request.POST)
        if not form.is_valid():
            errors = "; ".join(
                f"{form.fields[name].label if name in form.fields else ''}: {' '.join(e)}"
                for name, e in form.errors.items()
            )
            self.message_user(request, errors, level=messages.ERROR)
            return redirect(page)
        data = form.cleaned_data
        try:
            decided = reports.report_decide(
                report=report,
                moderator=request.user,
                decision=data["decision"],
                reason=data["reason"],
                until=data.get("until"),
            )
        except (reports.ReportError, account_services.ModerationError) as error:
            self.message_user(request, str(error), level=messages.ERROR)
            return redirect(page)
        self.log_change(
            request, decided, f"Decided: {decided.decision}. Reason: {decided.decision_note}"
        )
        text = gettext("Report on %(player)s closed: %(decision)s.") % {
            "player": decided.reported.username,
            "decision": decided.get_decision_display(),
        }
        if decided.decision == Report.Decision.MUTE:
            text += " " + gettext("Muted until %(until)s.") % {"until": when(data["until"])}
        self.message_user(request, text, level=messages.SUCCESS)
        return redirect(reverse("admin:games_report_changelist") + "?open=yes")
