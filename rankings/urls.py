from django.urls import path

from rankings import views

urlpatterns = [
    path("rankings/", views.leaderboard, name="rankings"),
]
