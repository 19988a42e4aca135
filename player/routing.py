"""The WebSocket addresses: a room's, checked against the site's own hosts (Origin)."""

from channels.routing import URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from channels.sessions import CookieMiddleware
from django.urls import path

from .consumers import RoomConsumer

# A page of another site cannot open a player's room socket with the player's cookie: its
# Origin is not one of ALLOWED_HOSTS, and a socket without an Origin is refused too.
websockets = AllowedHostsOriginValidator(CookieMiddleware(
    URLRouter([
        path("ws/salle/<str:code>/", RoomConsumer.as_asgi()),
    ])))
