from django.urls import path

from games import views

urlpatterns = [
    path("games/<int:pk>/", views.game_detail, name="game_detail"),
    path("games/<int:pk>/record.json", views.game_record, name="game_record"),
]
