from django.urls import path

from games.arenas import views

urlpatterns = [
    path("arenas/", views.arena_list, name="arena_list"),
    path("arenas/<int:pk>/", views.arena_detail, name="arena_detail"),
    path("arenas/<int:pk>/join/", views.arena_request, {"action": "join"}, name="arena_join"),
    path("arenas/<int:pk>/pause/", views.arena_request, {"action": "pause"}, name="arena_pause"),
]
