from django.urls import path

from accounts import views

urlpatterns = [
    path("settings/", views.player_settings, name="player_settings"),
    path("settings/daily-bonus/", views.daily_bonus, name="daily_bonus"),
    path("players/", views.player_search, name="player_search"),
    path("players/<str:username>/", views.player_profile, name="player_profile"),
    path(
        "players/<str:username>/friend/<str:action>/",
        views.friend_action,
        name="friend_action",
    ),
]
