from django.urls import path

from games.rules import views

urlpatterns = [
    path("", views.rules_page, {"slug": "index"}, name="rules"),
    path("<slug:slug>/", views.rules_page, name="rules_page"),
]
