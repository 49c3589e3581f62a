from django.urls import path

from games import finding, profiles
from games.views import game_pages, tables

urlpatterns = [
    path("players/", profiles.player_search, name="player_search"),
    path("players/<str:username>/", profiles.player_profile, name="player_profile"),
    path("games/<int:pk>/", game_pages.game_detail, name="game_detail"),
    path("games/<int:pk>/record.json", game_pages.game_record, name="game_record"),
    path("games/<int:pk>/awards.json", game_pages.game_awards, name="game_awards"),
    path("tables/", tables.table_list, name="table_list"),
    path("tables/new/", tables.table_create, name="table_create"),
    path("tables/practice/", finding.practice, name="practice"),
    path("tables/play-now/", finding.play_now, name="play_now"),
    path("invitations/", finding.invitations, name="invitations"),
    path("friends/", finding.friends, name="friends"),
    path("guest/sign-up/", finding.guest_signup, name="guest_signup"),
    path("tables/<int:pk>/", tables.table_detail, name="table_detail"),
    path("tables/<int:pk>/request/", tables.table_request, name="table_request"),
    path("tables/<int:pk>/options/", tables.table_options, name="table_options"),
    path("tables/<int:pk>/report/", tables.table_report, name="table_report"),
    path("tables/<int:pk>/invited/", tables.table_invited, name="table_invited"),
    path("chat/mute/", tables.chat_mute, name="chat_mute"),
]
