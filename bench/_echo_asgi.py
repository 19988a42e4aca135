"""The project's ASGI application with one more WebSocket address, /ws/echo/, that sends
back each message it receives: bench/rooms.py's baseline, served by the same processes,
through the same channel layer. Not a benchmark itself (`make bench` skips it)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cms.settings")
pages = get_asgi_application()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

from cms.asgi import application as plateau  # noqa: E402


class Echo(AsyncWebsocketConsumer):
    """Each message goes out to a group and comes back from it: the channel layer's round
    trip (Redis between the processes) without the rooms' work."""

    async def connect(self):
        await self.channel_layer.group_add("echo." + self.channel_name[-20:].replace("!", ""),
                                           self.channel_name)
        await self.accept()

    async def receive(self, text_data=None, bytes_data=None):
        await self.channel_layer.group_send(
            "echo." + self.channel_name[-20:].replace("!", ""),
            {"type": "echo.back", "text": text_data})

    async def echo_back(self, event):
        await self.send(text_data=event["text"])


echo = URLRouter([path("ws/echo/", Echo.as_asgi())])


async def websockets(scope, receive, send):
    if scope["path"] == "/ws/echo/":
        return await echo(scope, receive, send)
    return await plateau(scope, receive, send)


application = ProtocolTypeRouter({"http": pages, "websocket": websockets})
