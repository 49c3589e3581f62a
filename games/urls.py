from django.urls import path

from games import finding, profiles, views

urlpatterns = [
    path("players/", profiles.player_search, name="player_search"),
    path("players/<str:username>/", profiles.player_profile, name="player_profile"),
    path("games/<int:pk>/", views.game_detail, name="game_detail"),
    path("games/<int:pk>/record.json", views.game_record, name="game_record"),
    path("games/<int:pk>/awards.json", views.game_awards, name="game_awards"),
    path("tables/", views.table_list, name="table_list"),
    path("tables/new/", views.table_create, name="table_create"),
    path("tables/practice/", finding.practice, name="practice"),
    path("tables/play-now/", finding.play_now, name="play_now"),
    path("invitations/", finding.invitations, name="invitations"),
    path("friends/", finding.friends, name="friends"),
    path("guest/sign-up/", finding.guest_signup, name="guest_signup"),
    path("tables/<int:pk>/", views.table_detail, name="table_detail"),
    path("tables/<int:pk>/request/", views.table_request, name="table_request"),
    path("tables/<int:pk>/options/", views.table_options, name="table_options"),
    path("tables/<int:pk>/report/", views.table_report, name="table_report"),
    path("tables/<int:pk>/invited/", views.table_invited, name="table_invited"),
    path("chat/mute/", views.chat_mute, name="chat_mute"),
]
