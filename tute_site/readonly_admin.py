"""Admin pages that show records nobody may add, edit or delete, superusers included:
the chips ledger, XP events, known IP addresses and the moderation history."""


class ReadOnlyAdminMixin:
    """For a ModelAdmin or an inline: view permission only."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
