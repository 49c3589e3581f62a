"""Arenas in the moderators' admin: create one (or a repeating one), watch its players and
games. Scores and pots are written by the arena's services only: read-only here."""

from django.contrib import admin
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from games.arenas.models import Arena, ArenaGame, ArenaPlayer
from games.options import DEFAULT_OPTIONS, RULE_NAMES
from games.table.options import clean_table_options
from games.table.refusals import TableError

# The arena's tables' rules (the declaration's, games/options.py) and move time.
TABLE_FIELDS = (*RULE_NAMES, "move_time")


class ArenaPlayerInline(admin.TabularInline):
    model = ArenaPlayer
    fields = ("user", "score", "games", "wins", "streak", "paused", "rank")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Arena)
class ArenaAdmin(admin.ModelAdmin):
    list_display = ("name", "variant", "players", "starts_at", "length", "status", "entry")
    list_filter = ("status", "variant", "recurrence")
    search_fields = ("name",)
    readonly_fields = ("status", "created_by", "finished_at", "next_arena")
    inlines = [ArenaPlayerInline]
    fieldsets = (
        (None, {"fields": ("name", "starts_at", "length", "recurrence", "status")}),
        (
            _("Tables"),
            {"fields": TABLE_FIELDS},
        ),
        (_("Entry and players"), {"fields": ("entry", "rating_min", "rating_max")}),
        (_("Timing"), {"fields": ("closing", "pairing_wait")}),
        (None, {"fields": ("created_by", "finished_at", "next_arena")}),
    )

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        clean = form.clean

        def checked(self_form):
            data = clean(self_form)
            options = {name: data[name] for name in TABLE_FIELDS if name in data}
            try:
                rest = clean_table_options(data=options, current=DEFAULT_OPTIONS)
            except TableError as error:
                raise ValidationError(
                    {error.field: str(error.message)} if error.field else str(error.message)
                ) from None
            # "In pairs" ticked on the form's 4 players, then 2 typed: not in pairs.
            data.update({name: rest[name] for name in options})
            if data.get("closing") and data.get("length") and data["closing"] >= data["length"]:
                raise ValidationError({"closing": _("Leave some time for games before this.")})
            return data

        form.clean = checked
        return form

    def save_model(self, request, obj, form, change) -> None:
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


@admin.register(ArenaGame)
class ArenaGameAdmin(admin.ModelAdmin):
    list_display = ("arena", "game", "table", "created_at", "scored_at")
    readonly_fields = ("arena", "game", "table", "created_at", "scored_at")
    list_filter = ("arena",)

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
