"""The ledger and XP in the admin: read-only for everyone, superusers included.

Chips move only through the services (a moderator uses the "Adjust chips" action on
players); nothing here adds, edits or deletes an entry or a balance.

The player admin is accounts' one, extended here (accounts knows nothing of chips or XP):
grade and chips columns, the player's standing, ledger and XP on their page, and the
chips adjustment action.
"""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.humanize.templatetags.humanize import intcomma
from django.db.models import F, OuterRef, Q, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from accounts.admin import PlayerAdmin, ReasonForm, when
from accounts.models import ModerationAction, User
from accounts.services import ModerationError
from rankings import selectors
from rankings.grades import grade_for_xp
from rankings.models import (
    ChipAccount,
    ChipTransfer,
    GameResult,
    GameResultSeat,
    LedgerEntry,
    XpEvent,
)
from rankings.services import (
    ChipsError,
    InsufficientChips,
    chips_adjust_by_moderator,
    game_result_exclude,
    game_result_include,
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


# --- Games' awards ---------------------------------------------------------------------------


class GameResultSeatInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = GameResultSeat
    fields = ("seat", "user", "side", "won", "abandoned", "ip_address", "staked", "chips", "xp")
    readonly_fields = fields
    extra = 0


class ExcludedFilter(admin.SimpleListFilter):
    title = _("excluded")
    parameter_name = "excluded"

    def lookups(self, request, model_admin):
        return [("yes", _("Excluded")), ("no", _("Counting"))]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.exclude(exclusion="")
        if self.value() == "no":
            return queryset.filter(exclusion="")
        return queryset


@admin.register(GameResult)
class GameResultAdmin(ReadOnlyAdmin):
    """Each finished game's awards, which games are excluded and why. Read-only: the only
    changes a moderator makes are excluding a game and counting it again, each through one
    rankings service that logs it; nothing is ever deleted.

    Rows are named by the game's number (never the result's row id), and a search for a
    number finds that game only."""

    # Compact columns, so that the list fits a 1280-pixel screen beside its filters; the
    # pairs and the award's time are on each game's page.
    list_display = (
        "game",
        "variant",
        "players",
        "competitive",
        "stake",
        "finished",
        "exclusion",
        "exclusion_note",
        "links",
    )
    list_display_links = ("game",)
    list_filter = (ExcludedFilter, "exclusion", "variant", "competitive")
    search_fields = ("seats__user__username",)
    search_help_text = _("A game's number, or a player's username.")
    date_hierarchy = "finished_at"
    readonly_fields = (
        "game",
        "links",
        "variant",
        "players",
        "pairs",
        "deals_to_win",
        "competitive",
        "stake",
        "finished_at",
        "submitted_at",
        "awarded_at",
        "exclusion",
        "exclusion_note",
        "excluded_by",
        "excluded_at",
        "history",
        "ledger",
    )
    fields = readonly_fields
    inlines = [GameResultSeatInline]
    actions = ["exclude_games", "include_games"]

    def has_exclude_permission(self, request) -> bool:
        return request.user.has_perm("rankings.exclude_gameresult")

    def get_search_results(self, request, queryset, search_term):
        # "5" is game 5, not every player with a 5 in their name ("#5" too).
        term = search_term.strip().lstrip("#")
        if term.isdigit():
            return queryset.filter(game_id=int(term)), False
        return super().get_search_results(request, queryset, search_term)

    @admin.display(description=_("Game"), ordering="game_id")
    def game(self, obj: GameResult) -> str:
        return gettext("Game %(number)s") % {"number": obj.game_id}

    @admin.display(description=_("finished"), ordering="finished_at")
    def finished(self, obj: GameResult) -> str:
        return when(obj.finished_at)

    @admin.display(description=_("See"))
    def links(self, obj: GameResult) -> str:
        page = reverse("game_detail", args=[obj.game_id])
        return format_html(
            '<a href="{}">{}</a> · <a href="{}#replay">{}</a>',
            page,
            gettext("its page"),
            page,
            gettext("replay"),
        )

    @admin.display(description=_("Ledger entries"))
    def ledger(self, obj: GameResult) -> str:
        url = reverse("admin:rankings_chiptransfer_changelist") + f"?game_id={obj.game_id}"
        return format_html('<a href="{}">{}</a>', url, gettext("This game's chip transfers"))

    @admin.display(description=_("Moderation log"))
    def history(self, obj: GameResult) -> str:
        actions = ModerationAction.objects.filter(game_id=obj.game_id).select_related("moderator")
        if not actions:
            return "–"
        return format_html(
            "<ul>{}</ul>",
            format_html_join(
                "",
                "<li>{} · {} · {} · {}</li>",
                (
                    (when(a.created_at), a.get_kind_display(), a.moderator.username, a.reason)
                    for a in actions
                ),
            ),
        )

    def _moderate_games(self, request, queryset, *, service, title, logged, done_text, none_text):
        """The intermediate form with a reason; then `service` on each game, one message for
        each game refused (a practice game), one for those done, or one saying none was."""
        if "apply" in request.POST:
            form = ReasonForm(request.POST)
            if form.is_valid():
                reason = form.cleaned_data["reason"].strip()
                done: list[str] = []
                refused = 0
                for result in queryset.order_by("game_id"):
                    try:
                        changed = service(result=result, moderator=request.user, reason=reason)
                    except ModerationError as error:
                        refused += 1
                        self.message_user(request, str(error), level=messages.ERROR)
                        continue
                    if changed:
                        self.log_change(request, result, f"{logged}. Reason: {reason}")
                        done.append(str(result.game_id))
                if done:
                    text = done_text(len(done)) % {"games": ", ".join(done), "count": len(done)}
                    self.message_user(request, text, level=messages.SUCCESS)
                elif not refused:
                    self.message_user(request, none_text, level=messages.WARNING)
                return None
        else:
            form = ReasonForm()
        context = {
            **self.admin_site.each_context(request),
            "title": title,
            "form": form,
            "results": queryset.order_by("game_id"),
            "excluding": service is game_result_exclude,
            "action": request.POST.get("action"),
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/rankings/gameresult/exclude_form.html", context)

    @admin.action(
        description=_("Exclude selected games from the leaderboards"), permissions=["exclude"]
    )
    def exclude_games(self, request, queryset):
        return self._moderate_games(
            request,
            queryset,
            service=game_result_exclude,
            title=gettext("Exclude from the leaderboards"),
            logged="Excluded",
            done_text=lambda n: ngettext(
                "Excluded game %(games)s from the leaderboards.",
                "Excluded %(count)s games from the leaderboards: %(games)s.",
                n,
            ),
            none_text=gettext("Nothing changed: these games were already excluded."),
        )

    @admin.action(description=_("Count selected games again"), permissions=["exclude"])
    def include_games(self, request, queryset):
        return self._moderate_games(
            request,
            queryset,
            service=game_result_include,
            title=gettext("Count it again"),
            logged="Counted again",
            done_text=lambda n: ngettext(
                "Game %(games)s counts again on its leaderboards.",
                "%(count)s games count again on their leaderboards: %(games)s.",
                n,
            ),
            none_text=gettext("Nothing changed: these games were already counting."),
        )
