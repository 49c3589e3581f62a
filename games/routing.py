"""WebSocket routes for live play: one socket per table, one for the lobby (docs/protocol.md)."""

from django.urls import path

from games.sockets.lobby import LobbyConsumer
from games.sockets.me import UserConsumer
from games.sockets.table import TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/me/", UserConsumer.as_asgi()),
]
