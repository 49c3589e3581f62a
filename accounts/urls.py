from django.urls import path

from accounts import views

urlpatterns = [
    path("settings/", views.player_settings, name="player_settings"),
    path("players/", views.player_search, name="player_search"),
    path(
        "players/<str:username>/friend/<str:action>/",
        views.friend_action,
        name="friend_action",
    ),
]
