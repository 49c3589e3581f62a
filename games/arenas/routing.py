"""The arena's WebSocket route."""

from django.urls import path

from games.arenas.consumers import ArenaConsumer

websocket_urlpatterns = [path("ws/arenas/<int:arena_id>/", ArenaConsumer.as_asgi())]
