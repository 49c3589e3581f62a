"""WebSocket routes for live play (tables and the lobby come with their issues)."""

websocket_urlpatterns: list = []
