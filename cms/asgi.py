"""The ASGI entry point: the pages over HTTP, and the rooms' WebSockets (Channels)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cms.settings")
# Django is set up before anything imports a model (the player's consumers do).
pages = get_asgi_application()

from channels.routing import ProtocolTypeRouter  # noqa: E402
from django.utils.module_loading import import_string  # noqa: E402

# Named by its path, as cms.urls includes the player's pages: the project's entry points
# are where the layers meet, cms's own code never imports the player.
application = ProtocolTypeRouter({
    "http": pages,
    "websocket": import_string("player.routing.websockets"),
})
