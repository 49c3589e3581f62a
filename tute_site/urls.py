from django.contrib import admin
from django.urls import include, path

from accounts import views as account_views
from tute_site import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("i18n/setlang/", account_views.set_language, name="set_language"),
    path("accounts/", include("allauth.urls")),
    path("", include("games.urls")),
    path("rules/", include("games.rules.urls")),
    path("", include("accounts.urls")),
    path("", include("rankings.urls")),
    path("admin/", admin.site.urls),
]
