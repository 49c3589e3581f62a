"""The admin's search by number: a moderator who types a table's or a game's number (with or
without "#") finds that one, and the search box says what else it looks for."""

from django.utils.translation import gettext_lazy as _


class NumberSearchMixin:
    """A ModelAdmin whose search finds a row by its number, else by `search_fields`."""

    search_help_text = _("A number (12 or #12), or a player's username.")

    def get_search_results(self, request, queryset, search_term):
        term = search_term.strip().lstrip("#")
        if term.isdigit():
            return queryset.filter(pk=int(term)), False
        return super().get_search_results(request, queryset, search_term)
