"""A bare Channels echo app for `make bench`: the baseline that live play is compared to.

Every socket joins one group (`/ws/echo/`, or `/ws/echo/<name>/` for a group per table as the
load tool uses); a frame sent by one is group-sent to all of its group, through the same
channel layer the site uses (Redis with REDIS_URL, else in memory), as channels-redis
ships it. Run it under daphne:
`daphne bench.support.echo_asgi:application`.
"""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tute_site.settings")
django.setup()

from django.conf import settings  # noqa: E402

# The same bare Channels whatever the site's layer does: channels-redis's own pub/sub layer,
# so that the echo measured beside two versions of the site is the same echo.
if settings.CHANNEL_LAYERS["default"]["BACKEND"] == "tute_site.layers.PubSubChannelLayer":
    settings.CHANNEL_LAYERS["default"]["BACKEND"] = "channels_redis.pubsub.RedisPubSubChannelLayer"

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

GROUP = "bench-echo"


class EchoConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.group = f"{GROUP}-{self.scope['url_route']['kwargs'].get('group', 'all')}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.channel_layer.group_send(self.group, {"type": "echo.message", "text": text_data})

    async def echo_message(self, event: dict) -> None:
        await self.send(text_data=event["text"])


application = ProtocolTypeRouter(
    {
        "websocket": URLRouter(
            [
                path("ws/echo/", EchoConsumer.as_asgi()),
                path("ws/echo/<str:group>/", EchoConsumer.as_asgi()),
            ]
        )
    }
)
