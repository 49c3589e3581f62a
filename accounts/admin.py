"""The moderators' admin: find players, ban, mute, adjust chips, and see their record.

Every moderation goes through an action with an intermediate form asking for a reason. The
action calls one service (which writes a `ModerationAction`) and logs a `LogEntry` naming
the moderator. Balances and bans are never edited as fields.
"""

import uuid

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts import services
from accounts.models import KnownIP, ModerationAction, User
from rankings import selectors as rankings_selectors
from rankings.grades import grade_for_xp
from rankings.services import ChipsError, InsufficientChips
from tute_site.readonly_admin import ReadOnlyAdminMixin


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}))


class OptionalReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Note"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )


class MuteForm(ReasonForm):
    until = forms.DateTimeField(
        label=_("Muted until (UTC)"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )

    def clean_until(self):
        until = self.cleaned_data["until"]
        if until <= timezone.now():
            raise forms.ValidationError(_("Choose a time in the future."))
        return until


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


class KnownIPInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = KnownIP
    fields = ("ip_address", "first_seen", "last_seen", "logins")
    readonly_fields = fields
    extra = 0
    verbose_name_plural = _("Last IP addresses")


class ModerationActionInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = ModerationAction
    fk_name = "target"
    fields = ("created_at", "kind", "moderator", "reason", "until", "amount")
    readonly_fields = fields
    extra = 0
    verbose_name_plural = _("Moderation history")


class BannedFilter(admin.SimpleListFilter):
    title = _("banned")
    parameter_name = "banned"

    def lookups(self, request, model_admin):
        return [("yes", _("Banned")), ("no", _("Not banned"))]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(banned_at__isnull=False)
        if self.value() == "no":
            return queryset.filter(banned_at__isnull=True)
        return queryset


class MutedFilter(admin.SimpleListFilter):
    title = _("muted")
    parameter_name = "muted"

    def lookups(self, request, model_admin):
        return [("yes", _("Muted now"))]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(muted_until__gt=timezone.now())
        return queryset


@admin.register(User)
class PlayerAdmin(UserAdmin):
    list_display = (
        "username",
        "email",
        "grade",
        "chips",
        "is_active",
        "banned_at",
        "muted_until",
        "is_staff",
        "date_joined",
    )
    list_filter = ("is_staff", "is_superuser", "is_active", BannedFilter, MutedFilter, "groups")
    search_fields = ("username", "email")
    actions = ["ban_players", "unban_players", "mute_players", "unmute_players", "adjust_chips"]
    inlines = [KnownIPInline, ModerationActionInline]
    fieldsets = (
        *UserAdmin.fieldsets,
        (_("Preferences"), {"fields": ("language",)}),
        (
            _("Standing"),
            {"fields": ("grade", "xp", "chips", "ledger_summary", "xp_summary")},
        ),
        (
            _("Moderation"),
            {"fields": ("banned_at", "ban_reason", "muted_until", "mute_reason")},
        ),
    )
    # Bans and mutes go through the actions, which ask for a reason and log it.
    readonly_fields = (
        "is_active",
        "grade",
        "xp",
        "chips",
        "ledger_summary",
        "xp_summary",
        "banned_at",
        "ban_reason",
        "muted_until",
        "mute_reason",
        "last_login",
        "date_joined",
    )

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if obj is None:
            return ()
        if not request.user.is_superuser:
            # Only a superuser hands out staff rights.
            fields += ["is_staff", "is_superuser", "groups", "user_permissions"]
        return fields

    # --- Permissions for the actions ------------------------------------------------------

    def has_ban_permission(self, request) -> bool:
        return request.user.has_perm("accounts.ban_user")

    def has_mute_permission(self, request) -> bool:
        return request.user.has_perm("accounts.mute_user")

    def has_adjust_chips_permission(self, request) -> bool:
        return request.user.has_perm("rankings.adjust_chips")

    # --- Read-only standing ---------------------------------------------------------------

    @admin.display(description=_("XP"))
    def xp(self, obj: User) -> int:
        return rankings_selectors.xp_total(user=obj)

    @admin.display(description=_("Grade"))
    def grade(self, obj: User) -> str:
        return str(grade_for_xp(rankings_selectors.xp_total(user=obj)).name)

    @admin.display(description=_("Chips"))
    def chips(self, obj: User) -> int:
        return rankings_selectors.chips_balance(user=obj)

    @admin.display(description=_("Ledger entries"))
    def ledger_summary(self, obj: User) -> str:
        entries = rankings_selectors.ledger_entries_for(user=obj)[:10]
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

    # --- Moderation actions ---------------------------------------------------------------

    def _moderate(self, request, queryset: QuerySet, *, form_class, title: str, apply) -> None:
        """Show the intermediate form; once it is valid, apply `apply(user, data)` to each."""
        if "apply" in request.POST:
            form = form_class(request.POST)
            if form.is_valid():
                done = 0
                for user in queryset:
                    try:
                        message = apply(user, form.cleaned_data)
                    except (services.ModerationError, ChipsError, ValueError) as error:
                        self.message_user(
                            request, f"{user.username}: {error}", level=messages.ERROR
                        )
                        continue
                    if message:
                        self.log_change(request, user, message)
                        done += 1
                self.message_user(
                    request,
                    gettext("%(action)s: %(count)s player(s).") % {"action": title, "count": done},
                    level=messages.SUCCESS,
                )
                return None
        else:
            initial = {"token": uuid.uuid4().hex} if "token" in form_class.base_fields else {}
            form = form_class(initial=initial)
        context = {
            **self.admin_site.each_context(request),
            "title": title,
            "form": form,
            "players": queryset,
            "action": request.POST.get("action"),
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "opts": self.model._meta,
            "media": self.media + form.media,
        }
        return TemplateResponse(request, "admin/accounts/user/moderation_form.html", context)

    @admin.action(description=_("Ban selected players"), permissions=["ban"])
    def ban_players(self, request, queryset):
        def apply(user, data):
            services.user_ban(user=user, moderator=request.user, reason=data["reason"])
            return f"Banned. Reason: {data['reason'].strip()}"

        return self._moderate(
            request, queryset, form_class=ReasonForm, title=gettext("Ban"), apply=apply
        )

    @admin.action(description=_("Unban selected players"), permissions=["ban"])
    def unban_players(self, request, queryset):
        def apply(user, data):
            services.user_unban(user=user, moderator=request.user, reason=data["reason"])
            return f"Unbanned. {data['reason'].strip()}".strip()

        return self._moderate(
            request, queryset, form_class=OptionalReasonForm, title=gettext("Unban"), apply=apply
        )

    @admin.action(description=_("Mute selected players"), permissions=["mute"])
    def mute_players(self, request, queryset):
        def apply(user, data):
            services.user_mute(
                user=user, moderator=request.user, until=data["until"], reason=data["reason"]
            )
            return f"Muted until {data['until'].isoformat()}. Reason: {data['reason'].strip()}"

        return self._moderate(
            request, queryset, form_class=MuteForm, title=gettext("Mute"), apply=apply
        )

    @admin.action(description=_("Unmute selected players"), permissions=["mute"])
    def unmute_players(self, request, queryset):
        def apply(user, data):
            services.user_unmute(user=user, moderator=request.user, reason=data["reason"])
            return f"Unmuted. {data['reason'].strip()}".strip()

        return self._moderate(
            request, queryset, form_class=OptionalReasonForm, title=gettext("Unmute"), apply=apply
        )

    @admin.action(description=_("Adjust chips of selected players"), permissions=["adjust_chips"])
    def adjust_chips(self, request, queryset):
        def apply(user, data):
            try:
                _transfer, action = services.user_adjust_chips(
                    user=user,
                    moderator=request.user,
                    amount=data["amount"],
                    reason=data["reason"],
                    key=f"adjust:{data['token']}:{user.pk}",
                )
            except InsufficientChips as error:
                raise ChipsError(
                    gettext("holds %(balance)s chips, cannot take %(amount)s")
                    % {"balance": error.balance, "amount": -data["amount"]}
                ) from error
            if action is None:
                return None  # the same form submitted twice: already done
            return f"Chips {data['amount']:+d}. Reason: {data['reason'].strip()}"

        return self._moderate(
            request,
            queryset,
            form_class=AdjustChipsForm,
            title=gettext("Adjust chips"),
            apply=apply,
        )


@admin.register(ModerationAction)
class ModerationActionAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("created_at", "kind", "target", "moderator", "reason", "until", "amount")
    list_filter = ("kind",)
    search_fields = ("target__username", "moderator__username", "reason")
    date_hierarchy = "created_at"
