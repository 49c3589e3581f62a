"""The moderators' admin for tables, games and chat.

Moderators see tables and games (read only), close a table (an action calling
`table_close`), read a table's chat, and mute a message's author (an action calling
`accounts.services.user_mute`, with the same form as on a player).
"""

from types import SimpleNamespace

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.template.response import TemplateResponse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts import services as account_services
from accounts.admin import MuteForm
from accounts.models import User
from games import services
from games.models import ChatMessage, Game, GameSeat, Invitation, Table, TableSeat
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
class TableAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
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
        closed = 0
        for table in queryset:
            try:
                services.table_close(table_id=table.pk, moderator=request.user)
            except services.TableError as error:
                self.message_user(request, f"{table}: {error.message}", level=messages.ERROR)
                continue
            self.log_change(request, table, "Closed the table.")
            closed += 1
        self.message_user(
            request,
            gettext("Closed %(count)s table(s).") % {"count": closed},
            level=messages.SUCCESS,
        )


class GameSeatInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = GameSeat
    fields = ("seat", "user", "robot", "ip_address", "outcome", "abandoned")
    readonly_fields = fields
    extra = 0


@admin.register(Game)
class GameAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
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
