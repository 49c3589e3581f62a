from django.urls import path

from games.puzzles import views

urlpatterns = [
    path("puzzles/", views.puzzle_next, name="puzzle_next"),
    path("puzzles/daily/", views.puzzle_daily, name="puzzle_daily"),
    path("puzzles/<int:pk>/", views.puzzle_page, name="puzzle"),
    path("puzzles/<int:pk>/move/", views.puzzle_move, name="puzzle_move"),
    path("puzzles/<int:pk>/hint/", views.puzzle_hint, name="puzzle_hint"),
    path("puzzles/<int:pk>/solution/", views.puzzle_solution, name="puzzle_solution"),
]
