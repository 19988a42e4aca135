"""The player's pages: thin views over player.services and the engines' views."""

from __future__ import annotations

import io
import secrets
import time
from functools import lru_cache, wraps

from django.contrib import messages
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRefresh

from cms.games import GAMES
from cms.models import Question
from cms.typography import french_spacing

from . import rooms, services
from .engines import ENGINES, ROOM_ENGINES
from .engines.base import TABLE, Refused
from .images import revealed_image
from .models import Play

BROWSER_COOKIE = "plateau_browser"
BROWSER_SALT = "plateau.player.browser"
YEAR = 365 * 24 * 3600
# Form fields that are the page's, not the action's; "now" is the server's alone.
NOT_ACTION = {"csrfmiddlewaretoken", "version", "now"}
MAX_FIELDS = 40


def browser_of(request: HttpRequest) -> str | None:
    """Return the browser id of the request's signed cookie, or None."""
    browser = request.get_signed_cookie(BROWSER_COOKIE, default=None, salt=BROWSER_SALT)
    return browser if browser and len(browser) <= 64 else None


def with_browser(view):
    """Give the request a long-lived, signed browser id: whose games these are."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        browser = browser_of(request)
        fresh = browser is None
        if fresh:
            browser = secrets.token_urlsafe(24)
        request.browser = browser
        response = view(request, *args, **kwargs)
        if fresh:
            response.set_signed_cookie(BROWSER_COOKIE, browser, salt=BROWSER_SALT,
                                       max_age=YEAR, httponly=True, samesite="Lax",
                                       secure=request.is_secure())
        return response

    return wrapper


def _own_play(request, token: str) -> Play:
    # Another browser's game does not exist, as far as this one can tell.
    return get_object_or_404(Play, token=token, browser=request.browser, in_room=False)


@require_GET
@with_browser
def home(request):
    """Offer the games, and the games this browser can resume."""
    playable = {slug for slug in GAMES if services.on_one_screen(slug)}
    games = [{"spec": spec, "playable": slug in playable, "room": slug in ROOM_ENGINES,
              "players": services.players_label(ENGINES[slug]) if slug in playable else "",
              "room_players": services.players_label(ROOM_ENGINES[slug])
              if slug in ROOM_ENGINES else ""}
             for slug, spec in GAMES.items()]
    ongoing = Play.objects.filter(browser=request.browser, finished=False, in_room=False)[:10]
    return render(request, "player/home.html", {
        "games": games, "ongoing": ongoing, "my_rooms": rooms.of_browser(request.browser)})


@require_http_methods(["GET", "POST"])
@with_browser
def setup(request, slug: str):
    """Ask the number of players and their names, then start the game."""
    if not services.on_one_screen(slug):
        raise Http404(_("Ce jeu ne se joue pas encore dans le navigateur."))
    engine, spec = ENGINES[slug], GAMES[slug]
    names = [request.POST.get(f"name-{i}", "")[:200] for i in range(engine.max_players)]
    options = [{"option": option, "chosen": request.POST.get(f"option-{option.slug}") == "on"}
               for option in getattr(engine, "options", ())]
    error = ""
    if request.method == "POST":
        try:
            play = services.start_play(game=slug, players=names, browser=request.browser,
                                       options={o["option"].slug: o["chosen"] for o in options})
        except Refused as refusal:
            error = refusal.message
        else:
            return redirect("player:play", token=play.token)
    seats = [{"index": i, "name": names[i], "required": i < engine.min_players}
             for i in range(engine.max_players)]
    return render(request, "player/setup.html", {
        "spec": spec, "engine": engine, "seats": seats, "error": error, "options": options,
        "players_label": services.players_label(engine),
        "counts": range(engine.min_players, engine.max_players + 1),
        "count": max(engine.min_players, sum(1 for n in names if n.strip())),
    }, status=400 if error else 200)


def clocks_now(view: dict, now: float) -> dict:
    """Count a running clock down to `now`: the view gives it as of the last action."""
    clocks = view.get("clock") or []
    for clock in [clocks] if isinstance(clocks, dict) else clocks:
        at = clock.get("at")
        if clock.get("running") and isinstance(at, int | float):
            clock["remaining"] = max(0.0, clock["remaining"] - max(0.0, now - at))
            clock["at"] = now
    return view


@lru_cache(maxsize=32)
def game_script(game: str) -> str:
    """Return the static path of a game's own script (its board's drawing), or ""."""
    path = f"player/{game}.js"
    return path if finders.find(path) else ""


@lru_cache(maxsize=4096)
def _french(text: str) -> str:
    return french_spacing(text)


def typeset(value):
    """Return an engine's view with its text set in French on a French page: content is
    stored typeset already, and a page in English keeps English punctuation."""
    if (get_language() or "fr").startswith("fr"):
        return _typeset(value)
    return value


def _typeset(value):
    if isinstance(value, str):
        return _french(value)
    if isinstance(value, dict):
        return {key: _typeset(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_typeset(item) for item in value]
    return value


def _context(request, play: Play) -> dict:
    view = typeset(clocks_now(ENGINES[play.game].view(play.state, TABLE), time.time()))
    context = {"play": play, "view": view, "spec": play.spec,
               "action_url": reverse("player:act", args=[play.token]),
               "state_url": reverse("player:state", args=[play.token]),
               "board": f"player/{play.game}/board.html", "script": game_script(play.game)}
    if view.get("image"):
        # The version in the path: a new reveal is a new picture, never one from a cache.
        context["image_url"] = reverse("player:image", args=[play.token, play.version])
    return context


@never_cache
@require_GET
@with_browser
def play(request, token: str):
    """Show the game as it stands."""
    game = services.catch_up(_own_play(request, token))
    return render(request, "player/play.html", _context(request, game))


@never_cache
@require_GET
@with_browser
def state(request, token: str):
    """Return the board alone: the page asks for it when a clock runs out."""
    game = services.catch_up(_own_play(request, token))
    return render(request, "player/fragment.html", _context(request, game))


@never_cache
@require_POST
@with_browser
def act(request, token: str):
    """Apply one action; a refused or stale one changes nothing and says why."""
    game = _own_play(request, token)
    if len(request.POST) > MAX_FIELDS:
        return HttpResponseBadRequest(_("Ce coup n’est pas valable."))
    action = {key: request.POST.get(key, "")[:500] for key in request.POST
              if key not in NOT_ACTION}
    refusal = ""
    try:
        game = services.act(play=game, version=request.POST.get("version", ""),
                            action=action).play
    except services.Stale:
        # Said after the page is built again, whichever way it is asked to refresh.
        messages.info(request, _("La partie avait avancé : voici où elle en est."))
        if request.htmx:
            return HttpResponseClientRefresh()
        return redirect("player:play", token=token)
    except Refused as refused:
        refusal = refused.message
        game.refresh_from_db()
    if not request.htmx:
        if refusal:
            messages.error(request, refusal)
        return redirect("player:play", token=token)
    context = _context(request, game)
    context["refusal"] = refusal
    return render(request, "player/fragment.html", context, status=200)


@require_POST
@with_browser
def play_again(request, token: str):
    """Start this finished game's table again, as the game's rules seat a next game."""
    try:
        game = services.play_again(_own_play(request, token))
    except Refused as refusal:
        messages.error(request, refusal.message)
        return redirect("player:play", token=token)
    return redirect("player:play", token=game.token)


@never_cache
@require_GET
@with_browser
def image(request, token: str, version: int):
    """Return the hidden picture with only its opened panels: nothing else leaves the server."""
    game = _own_play(request, token)
    shown = ENGINES[game.game].view(game.state, TABLE).get("image")
    if not shown:
        raise Http404()
    question = get_object_or_404(Question, pk=shown["question"])
    if not question.image:
        raise Http404()
    try:
        with question.image.open("rb") as source:
            picture = revealed_image(source, shown["panels"])
    except (OSError, ValueError):
        raise Http404() from None
    buffer = io.BytesIO()
    picture.save(buffer, "PNG")
    response = HttpResponse(buffer.getvalue(), content_type="image/png")
    response["Cache-Control"] = "no-store"
    return response

