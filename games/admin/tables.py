"""Tables, games and chat messages in the moderators' admin: read only, searchable by number."""

from types import SimpleNamespace

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.template.response import TemplateResponse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from accounts import services as account_services
from accounts.admin import MuteForm, ReasonForm
from accounts.models import User
from games.admin.search import NumberSearchMixin
from games.models import ChatMessage, Game, GameSeat, Invitation, Table, TableSeat
from games.table import seating
from games.table.refusals import TableError
from tute_site.readonly_admin import ReadOnlyAdminMixin


class TableSeatInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = TableSeat
    fields = ("seat", "user", "robot", "ip_address", "sat_at")
    readonly_fields = fields
    extra = 0


class ChatInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = ChatMessage
    fields = ("created_at", "user", "text")
    readonly_fields = fields
    extra = 0
    ordering = ("-created_at",)
    show_change_link = True


class InvitationInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = Invitation
    fields = ("user", "invited_by", "created_at")
    readonly_fields = fields
    extra = 0


@admin.register(Table)
class TableAdmin(NumberSearchMixin, ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = (
        "id",
        "variant",
        "players",
        "master",
        "status",
        "competitive",
        "stake",
        "private",
        "created_at",
    )
    list_filter = ("status", "variant", "competitive", "private")
    search_fields = ("master__username", "seats__user__username")
    inlines = [TableSeatInline, InvitationInline, ChatInline]
    actions = ["close_tables"]

    def has_close_permission(self, request) -> bool:
        return request.user.has_perm("games.close_table")

    @admin.action(description=_("Close selected tables"), permissions=["close"])
    def close_tables(self, request, queryset):
        """A confirmation page asking why; then each table is closed (its running game
        cancelled, stakes refunded), the players told why, and the closing logged."""
        queryset = queryset.order_by("pk")
        if "apply" in request.POST:
            form = ReasonForm(request.POST)
            if form.is_valid():
                reason = form.cleaned_data["reason"].strip()
                closed: list[str] = []
                for table in queryset:
                    if table.status == Table.Status.CLOSED:
                        continue
                    try:
                        seating.table_close(
                            table_id=table.pk, moderator=request.user, reason=reason
                        )
                    except TableError as error:
                        self.message_user(
                            request,
                            gettext("Table %(number)s not closed: %(error)s")
                            % {"number": table.pk, "error": error.message},
                            level=messages.ERROR,
                        )
                        continue
                    self.log_change(request, table, f"Closed the table. Reason: {reason}")
                    closed.append(str(table.pk))
                if closed:
                    text = ngettext(
                        "Closed table %(tables)s; its players are told why.",
                        "Closed %(count)s tables: %(tables)s; their players are told why.",
                        len(closed),
                    ) % {"tables": ", ".join(closed), "count": len(closed)}
                    self.message_user(request, text, level=messages.SUCCESS)
                else:
                    self.message_user(
                        request,
                        gettext("Nothing changed: these tables were already closed."),
                        level=messages.WARNING,
                    )
                return None
        else:
            form = ReasonForm()
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Close tables"),
            "form": form,
            "tables": queryset.select_related("game"),
            "action": request.POST.get("action"),
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/games/table/close_form.html", context)


class GameSeatInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = GameSeat
    fields = ("seat", "user", "robot", "ip_address", "outcome", "abandoned")
    readonly_fields = fields
    extra = 0


@admin.register(Game)
class GameAdmin(NumberSearchMixin, ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("id", "variant", "status", "competitive", "stake", "table", "started_at")
    list_filter = ("status", "variant", "competitive", "shared_ip")
    search_fields = ("seats__user__username",)
    inlines = [GameSeatInline]


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("created_at", "table", "user", "text")
    list_filter = ("created_at",)
    search_fields = ("text", "user__username", "table__id")
    list_select_related = ("table", "user")
    actions = ["mute_authors"]

    def has_mute_permission(self, request) -> bool:
        return request.user.has_perm("accounts.mute_user")

    @admin.action(description=_("Mute the authors of the selected messages"), permissions=["mute"])
    def mute_authors(self, request, queryset):
        authors = User.objects.filter(pk__in=queryset.values("user")).order_by("username")
        first = dict(queryset.order_by("-pk").values_list("user", "pk"))
        if "apply" in request.POST:
            form = MuteForm(request.POST)
            if form.is_valid():
                data = form.cleaned_data
                for author in authors:
                    try:
                        account_services.user_mute(
                            user=author,
                            moderator=request.user,
                            until=data["until"],
                            reason=data["reason"],
                        )
                    except account_services.ModerationError as error:
                        self.message_user(
                            request, f"{author.username}: {error}", level=messages.ERROR
                        )
                        continue
                    self.message_user(
                        request,
                        gettext("%(player)s is muted.") % {"player": author.username},
                        level=messages.SUCCESS,
                    )
                return None
        else:
            form = MuteForm()
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Mute"),
            "form": form,
            # One of each author's messages stands for the author: the form posts them back
            # as the selected messages, so the same authors are muted.
            "players": [
                SimpleNamespace(pk=first[author.pk], username=author.username) for author in authors
            ],
            "action": request.POST.get("action"),
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "opts": self.model._meta,
            "media": self.media + form.media,
        }
        return TemplateResponse(request, "admin/accounts/user/moderation_form.html", context)
