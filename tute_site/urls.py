from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

from accounts import views as account_views
from tute_site import views

# The moderators' admin names the site, not Django.
admin.site.site_header = _("Tute online: moderation")
admin.site.site_title = _("Tute online moderation")
admin.site.index_title = _("Run the site")
# The list of players needs the width: no navigation column beside it.
admin.site.enable_nav_sidebar = False

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("i18n/setlang/", account_views.set_language, name="set_language"),
    path("accounts/", include("allauth.urls")),
    path("", include("games.urls")),
    path("", include("games.arenas.urls")),
    path("", include("games.puzzles.urls")),
    path("rules/", include("games.rules.urls")),
    path("", include("accounts.urls")),
    path("", include("rankings.urls")),
    path("admin/", admin.site.urls),
]
