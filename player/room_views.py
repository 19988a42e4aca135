"""A room's pages: open one, join it by its code or its QR code, the host's controls; and the
room's live part, drawn for one device, which the WebSocket sends again at every change."""

from __future__ import annotations

import io

import qrcode
import qrcode.image.svg
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cms.games import GAMES

from . import rooms, services
from .engines.base import TABLE, Refused
from .views import typeset, with_browser


def notify(code: str) -> None:
    """Tell every device of the room, on every server process, that the room changed."""
    async_to_sync(get_channel_layer().group_send)(rooms.group_name(code), rooms.changed())


def render_room(snap: rooms.Snapshot, browser: str | None) -> str:
    """Return the room's live part as the device of `browser` may see it."""
    me = snap.seat_of(browser)
    seats = [{"index": s.index, "name": s.name, "bot": s.bot, "online": rooms.online(s),
              "me": s is me} for s in snap.seats]
    engine = rooms.engine_for(snap.room.game)
    context = {"room": snap.room, "phase": snap.phase, "seats": seats, "me": me,
               "spec": GAMES[snap.room.game], "engine": engine,
               "waiting_for": [s["name"] for s in seats if not s["online"]]}
    if snap.play is None:
        context["players_label"] = services.players_label(engine)
        context["ready"] = engine.min_players <= len(seats) <= engine.max_players
        return render_to_string("player/room_lobby.html", context)
    context["view"] = typeset(engine.view(snap.play.state, me.index if me else TABLE))
    return render_to_string(f"player/{snap.room.game}/room.html", context)


def _room_or_404(code: str) -> rooms.Snapshot:
    try:
        return rooms.snapshot(code)
    except rooms.RoomGone:
        raise Http404(_("Aucune salle n’a ce code.")) from None


@require_POST
@with_browser
def create(request, slug: str):
    """Open a room for a game; its creator hosts it."""
    try:
        room = rooms.create_room(game=slug, browser=request.browser)
    except Refused as refused:
        messages.error(request, refused.message)
        return redirect("player:home")
    return redirect("player:room", code=room.code)


@require_GET
@with_browser
def find(request):
    """Go to the room of the code typed on the home page."""
    code = rooms.normal_code(request.GET.get("code", ""))
    try:
        rooms.find(code)
    except rooms.RoomGone:
        messages.error(request, _("Aucune salle n’a le code « %(code)s ».") % {"code": code})
        return redirect("player:home")
    return redirect("player:room", code=code)


@never_cache
@require_http_methods(["GET", "POST"])
@with_browser
def room(request, code: str):
    """The room: the code and QR code to join, the seats, and the game once it starts."""
    snap = _room_or_404(code)
    if code != snap.room.code:
        return redirect("player:room", code=snap.room.code)
    error, name = "", ""
    if request.method == "POST":
        name = request.POST.get("name", "")[:200]
        try:
            rooms.join(code=code, name=name, browser=request.browser)
        except Refused as refused:
            error = refused.message
        else:
            notify(snap.room.code)
            return redirect("player:room", code=snap.room.code)
    me = snap.seat_of(request.browser)
    return render(request, "player/room.html", {
        "room": snap.room, "spec": GAMES[snap.room.game], "phase": snap.phase, "me": me,
        "host": snap.room.host == request.browser, "error": error, "name": name,
        "live": render_room(snap, request.browser),
        "join_url": request.build_absolute_uri(reverse("player:room", args=[snap.room.code])),
        "socket_path": f"/ws/salle/{snap.room.code}/",
        "bots": len(snap.bots), "seats": len(snap.seats),
        "others": [s for s in snap.seats if not s.bot and s.browser != request.browser],
        "engine": rooms.engine_for(snap.room.game),
    }, status=400 if error else 200)


ACTIONS = {
    "robot-plus": lambda code, browser, post: rooms.add_bot(code=code, browser=browser),
    "robot-moins": lambda code, browser, post: rooms.remove_bot(code=code, browser=browser),
    "lancer": lambda code, browser, post: rooms.start(code=code, browser=browser),
    "quitter": lambda code, browser, post: rooms.leave(code=code, browser=browser),
    "abandonner": lambda code, browser, post: rooms.abandon(code=code, browser=browser),
    "retirer": lambda code, browser, post: rooms.remove_seat(
        code=code, browser=browser, index=_index(post.get("place", ""))),
}


def _index(value: str) -> int:
    if not (value.isascii() and value.isdigit() and len(value) < 4):
        raise Refused("no_seat", _("Personne à retirer à cette place."))
    return int(value)


@require_POST
@with_browser
def action(request, code: str, name: str):
    """The host's controls (bots, start, play again) and leaving one's seat."""
    if name not in ACTIONS:
        raise Http404()
    snap = _room_or_404(code)
    try:
        ACTIONS[name](snap.room.code, request.browser, request.POST)
    except Refused as refused:
        messages.error(request, refused.message)
    else:
        notify(snap.room.code)
    if name == "quitter":
        return redirect("player:home")
    return redirect("player:room", code=snap.room.code)


@require_GET
def qr(request, code: str):
    """The QR code of the room's join address, as SVG."""
    snap = _room_or_404(code)
    url = request.build_absolute_uri(reverse("player:room", args=[snap.room.code]))
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    buffer = io.BytesIO()
    image.save(buffer)
    return HttpResponse(buffer.getvalue(), content_type="image/svg+xml")
