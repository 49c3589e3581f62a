"""Games' awards in the admin: each result and its seats, excluded or counted again."""

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from accounts.admin import ReasonForm, when
from accounts.models import ModerationAction
from accounts.services import ModerationError
from rankings.admin.ledger import ReadOnlyAdmin
from rankings.models import (
    GameResult,
    GameResultSeat,
)
from rankings.services import (
    game_result_exclude,
    game_result_include,
)
from tute_site.readonly_admin import ReadOnlyAdminMixin

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
