"""The ledger and XP in the admin, read-only for everyone: accounts, transfers, entries, XP."""

from django.contrib import admin
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from rankings.models import (
    ChipAccount,
    ChipTransfer,
    LedgerEntry,
    XpEvent,
)
from tute_site.readonly_admin import ReadOnlyAdminMixin


class ReadOnlyAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    pass


class PlayerFilter(admin.SimpleListFilter):
    """`?player=<pk>`: the entries in or out of that player's account."""

    title = _("player")
    parameter_name = "player"

    def lookups(self, request, model_admin):
        # Offer only the player already chosen (from the player's page); listing every
        # player here would not scale.
        value = self.value()
        if value and value.isdigit():
            user = User.objects.filter(pk=value).first()
            if user is not None:
                return [(str(user.pk), user.username)]
        return []

    def queryset(self, request, queryset):
        value = self.value()
        if value and value.isdigit():
            return queryset.filter(
                Q(source__user_id=int(value)) | Q(destination__user_id=int(value))
            )
        return queryset


@admin.register(ChipAccount)
class ChipAccountAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "kind", "user", "game_id", "balance")
    list_filter = ("kind",)
    search_fields = ("user__username",)
    readonly_fields = ("kind", "user", "game_id", "balance")
    ordering = ("kind", "-balance")


class LedgerEntryInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = LedgerEntry
    fields = ("source", "destination", "amount")
    readonly_fields = fields
    extra = 0


@admin.register(ChipTransfer)
class ChipTransferAdmin(ReadOnlyAdmin):
    def lookup_allowed(self, lookup, value, request=None):
        # A game's result links here filtered on its game.
        return lookup == "game_id" or super().lookup_allowed(lookup, value, request)

    list_display = ("created_at", "reason", "key", "game_id", "actor", "memo")
    list_filter = ("reason",)
    search_fields = ("key", "memo", "actor__username")
    readonly_fields = ("created_at", "reason", "key", "game_id", "actor", "memo")
    inlines = [LedgerEntryInline]
    date_hierarchy = "created_at"


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = ("when", "reason", "source", "destination", "amount", "memo", "key")
    list_filter = (PlayerFilter, "transfer__reason")
    search_fields = (
        "transfer__key",
        "transfer__memo",
        "source__user__username",
        "destination__user__username",
    )
    list_select_related = ("transfer", "source__user", "destination__user")
    readonly_fields = ("transfer", "source", "destination", "amount")

    @admin.display(description=_("when"), ordering="transfer__created_at")
    def when(self, entry: LedgerEntry):
        return entry.transfer.created_at

    @admin.display(description=_("reason"))
    def reason(self, entry: LedgerEntry) -> str:
        return entry.transfer.get_reason_display()

    @admin.display(description=_("note"))
    def memo(self, entry: LedgerEntry) -> str:
        return entry.transfer.memo

    @admin.display(description=_("idempotency key"))
    def key(self, entry: LedgerEntry) -> str:
        return entry.transfer.key


@admin.register(XpEvent)
class XpEventAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "user", "amount", "reason", "game_id", "key")
    list_filter = ("reason",)
    search_fields = ("user__username", "key")
    list_select_related = ("user",)
    readonly_fields = ("created_at", "user", "amount", "reason", "game_id", "key")

    def lookup_allowed(self, lookup, value, request=None):
        # The player's admin page links here filtered on them.
        return lookup == "user__id__exact" or super().lookup_allowed(lookup, value, request)
