"""ASGI entry point: Django serves HTTP, Channels serves WebSockets, daphne serves both."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tute_site.settings")

# Build the Django app first: it sets up the app registry before consumers import models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games import server  # noqa: E402
from tute_site.routing import websocket_urlpatterns  # noqa: E402

router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)


async def application(scope, receive, send):
    """The site, with this process's server loop (games/server.py) started by the first
    request or socket: from then on the work a request queues goes to the background lanes."""
    if scope["type"] in ("http", "websocket"):
        server.ensure_running()
    return await router(scope, receive, send)
