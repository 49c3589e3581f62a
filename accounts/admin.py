"""The moderators' admin: find players, ban, mute, and see their record.

Every moderation goes through an action with an intermediate form asking for a reason. The
action calls one service (which writes a `ModerationAction`) and logs a `LogEntry` naming
the moderator. Bans are never edited as fields. `rankings.admin` extends this player admin
with the chips and XP columns and the chips adjustment.
"""

import uuid
from datetime import UTC

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from accounts import services
from accounts.models import KnownIP, ModerationAction, User
from tute_site.readonly_admin import ReadOnlyAdminMixin


def when(moment) -> str:
    """A time as moderators read it everywhere in the admin: UTC, to the minute."""
    return f"{moment.astimezone(UTC):%Y-%m-%d %H:%M} UTC"


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

    def get_queryset(self, request):
        # Each row is titled with both names (ModerationAction.__str__).
        return super().get_queryset(request).select_related("target", "moderator")


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
    # Compact columns, so that the list fits a 1280-pixel screen beside its filters.
    list_display = (
        "username",
        "email",
        "banned",
        "muted",
        "is_staff",
        "joined",
    )
    list_filter = ("is_staff", "is_superuser", "is_active", BannedFilter, MutedFilter, "groups")
    search_fields = ("username", "email")
    actions = ["ban_players", "unban_players", "mute_players", "unmute_players"]
    inlines = [KnownIPInline, ModerationActionInline]
    fieldsets = (
        *UserAdmin.fieldsets,
        (_("Preferences"), {"fields": ("language",)}),
        (
            _("Moderation"),
            {"fields": ("banned_at", "ban_reason", "muted_until", "mute_reason")},
        ),
    )
    moderation_errors: tuple[type[Exception], ...] = (services.ModerationError, ValueError)
    # Bans and mutes go through the actions, which ask for a reason and log it.
    readonly_fields = (
        "is_active",
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

    # --- Compact columns ---------------------------------------------------------------------

    @admin.display(description=_("Banned at"), ordering="banned_at", empty_value="–")
    def banned(self, obj: User) -> str | None:
        return when(obj.banned_at) if obj.banned_at else None

    @admin.display(description=_("Muted until"), ordering="muted_until", empty_value="–")
    def muted(self, obj: User) -> str | None:
        return when(obj.muted_until) if obj.is_muted else None

    @admin.display(description=_("Joined"), ordering="date_joined")
    def joined(self, obj: User) -> str:
        return f"{obj.date_joined.astimezone(UTC):%Y-%m-%d}"

    # --- Permissions ------------------------------------------------------------------------

    def has_delete_permission(self, request, obj=None) -> bool:
        # Nobody deletes a player: games, ledger and moderation history point at them. A
        # ban is how one is removed, so no Delete button leads to "Cannot delete".
        return False

    def has_ban_permission(self, request) -> bool:
        return request.user.has_perm("accounts.ban_user")

    def has_mute_permission(self, request) -> bool:
        return request.user.has_perm("accounts.mute_user")

    # --- Moderation actions ---------------------------------------------------------------

    def moderate(
        self, request, queryset: QuerySet, *, form_class, title: str, apply, success
    ) -> None:
        """Show the intermediate form; once it is valid, apply `apply(user, data)` to each.

        `apply` returns the change message to log, or None when it did nothing new; an error
        in `moderation_errors` is shown for that player and the others go on. Then
        `success(names, data)` says what happened, to whom (and by how much).
        """
        if "apply" in request.POST:
            form = form_class(request.POST)
            if form.is_valid():
                done: list[str] = []
                refused = 0
                for user in queryset:
                    try:
                        message = apply(user, form.cleaned_data)
                    except self.moderation_errors as error:
                        refused += 1
                        # The name is not first: the admin capitalises a message's first
                        # letter, and a username is shown as its player wrote it.
                        self.message_user(
                            request,
                            gettext("Not applied to %(player)s: %(error)s")
                            % {"player": user.username, "error": error},
                            level=messages.ERROR,
                        )
                        continue
                    if message:
                        self.log_change(request, user, message)
                        done.append(user.username)
                if done:
                    self.message_user(
                        request, success(done, form.cleaned_data), level=messages.SUCCESS
                    )
                elif not refused:
                    self.message_user(
                        request,
                        gettext("Nothing changed: this form had already been applied."),
                        level=messages.WARNING,
                    )
                return None
        else:
            # A form with a `token` gets a new one each time it is shown: submitting the same
            # form twice then acts once.
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

        def success(names, data):
            return ngettext(
                "Banned %(players)s.", "Banned %(count)s players: %(players)s.", len(names)
            ) % {"players": ", ".join(names), "count": len(names)}

        return self.moderate(
            request,
            queryset,
            form_class=ReasonForm,
            title=gettext("Ban"),
            apply=apply,
            success=success,
        )

    @admin.action(description=_("Unban selected players"), permissions=["ban"])
    def unban_players(self, request, queryset):
        def apply(user, data):
            services.user_unban(user=user, moderator=request.user, reason=data["reason"])
            return f"Unbanned. {data['reason'].strip()}".strip()

        def success(names, data):
            return ngettext(
                "Unbanned %(players)s.", "Unbanned %(count)s players: %(players)s.", len(names)
            ) % {"players": ", ".join(names), "count": len(names)}

        return self.moderate(
            request,
            queryset,
            form_class=OptionalReasonForm,
            title=gettext("Unban"),
            apply=apply,
            success=success,
        )

    @admin.action(description=_("Mute selected players"), permissions=["mute"])
    def mute_players(self, request, queryset):
        def apply(user, data):
            services.user_mute(
                user=user, moderator=request.user, until=data["until"], reason=data["reason"]
            )
            return f"Muted until {data['until'].isoformat()}. Reason: {data['reason'].strip()}"

        def success(names, data):
            return ngettext(
                "Muted %(players)s until %(until)s.",
                "Muted %(count)s players until %(until)s: %(players)s.",
                len(names),
            ) % {"players": ", ".join(names), "count": len(names), "until": when(data["until"])}

        return self.moderate(
            request,
            queryset,
            form_class=MuteForm,
            title=gettext("Mute"),
            apply=apply,
            success=success,
        )

    @admin.action(description=_("Unmute selected players"), permissions=["mute"])
    def unmute_players(self, request, queryset):
        def apply(user, data):
            services.user_unmute(user=user, moderator=request.user, reason=data["reason"])
            return f"Unmuted. {data['reason'].strip()}".strip()

        def success(names, data):
            return ngettext(
                "Unmuted %(players)s.", "Unmuted %(count)s players: %(players)s.", len(names)
            ) % {"players": ", ".join(names), "count": len(names)}

        return self.moderate(
            request,
            queryset,
            form_class=OptionalReasonForm,
            title=gettext("Unmute"),
            apply=apply,
            success=success,
        )


@admin.register(ModerationAction)
class ModerationActionAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("created_at", "kind", "subject", "moderator", "reason", "until", "amount")
    list_select_related = ("target", "moderator")
    list_filter = ("kind",)
    search_fields = ("target__username", "moderator__username", "reason", "=game_id", "=table_id")
    date_hierarchy = "created_at"

    @admin.display(description=_("on"))
    def subject(self, obj: ModerationAction) -> str:
        """The player, game or table the action was on."""
        return obj.subject
