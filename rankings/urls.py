from django.urls import path

from rankings import views

urlpatterns = [
    path("rankings/", views.leaderboard, name="rankings"),
    path("settings/daily-bonus/", views.daily_bonus, name="daily_bonus"),
]
