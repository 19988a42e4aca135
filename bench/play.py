"""Benchmark: the server time of a player action against a bare Django view, same run.

Run `make bench` or `python bench/play.py [N]`. On a throwaway SQLite database with the
demo library, a millionnaire game is played through Django's WSGI handler and its whole
middleware (session, CSRF, the browser cookie, the version check, the engine, the save,
the htmx fragment), as a browser's form post reaches it: each action is a real move
(choose a proposition, then take it back). The baseline is a view that returns « ok »
through the same handler and middleware. Prints both rates, the ratio (target: the action
at least 0.3× the bare view's throughput) and each one's p50/p95 in milliseconds; and, to
tell the player's own cost from the database's, a view that only reads the game's row
and writes it back.
"""

import io
import os
import statistics
import sys
import time
import types
from urllib.parse import urlencode

import _throwaway

# Measured as deployed: without DEBUG, which logs every query (on SQLite, with an extra
# query to quote its parameters).
os.environ.update({"DEBUG": "false", "SECRET_KEY": "bench-only", "ALLOWED_HOSTS": "127.0.0.1"})
_throwaway.setup()

from django.conf import settings  # noqa: E402
from django.core.handlers.wsgi import WSGIHandler  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402
from django.http import HttpResponse  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import include, path  # noqa: E402

from player.engines.millionnaire import ENGINE  # noqa: E402
from player.models import Play  # noqa: E402

ROUNDS = 5
HOST = "127.0.0.1"


def bare(request):
    return HttpResponse("ok")


def row(request, token):
    """Do the least any saved move does: read the game's row, write it back, answer."""
    play = Play.objects.get(token=token)
    with transaction.atomic():
        Play.objects.filter(pk=play.pk).update(state=play.state)
    return HttpResponse("ok")


def routes() -> None:
    """Serve the project's pages plus the bare view."""
    module = types.ModuleType("bench_urls")
    module.urlpatterns = [path("bare/", bare), path("row/<str:token>/", row),
                          path("", include("cms.urls"))]
    sys.modules["bench_urls"] = module
    settings.ROOT_URLCONF = "bench_urls"


def environ(method: str, path_info: str, cookies: str, body: bytes = b"", **headers) -> dict:
    """Return the WSGI environ a browser's request would give the server."""
    env = {"REQUEST_METHOD": method, "PATH_INFO": path_info, "SCRIPT_NAME": "",
           "QUERY_STRING": "", "SERVER_NAME": HOST, "SERVER_PORT": "80",
           "HTTP_HOST": HOST, "HTTP_COOKIE": cookies, "wsgi.url_scheme": "http",
           "wsgi.input": io.BytesIO(body), "CONTENT_LENGTH": str(len(body)),
           "CONTENT_TYPE": "application/x-www-form-urlencoded", "wsgi.errors": sys.stderr}
    env.update({f"HTTP_{key}": value for key, value in headers.items()})
    return env


def timed(call, count: int) -> list[float]:
    """Return the seconds each of `count` calls took."""
    times = []
    for _ in range(count):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return times


def main(count: int) -> None:
    call_command("migrate", verbosity=0)
    call_command("load_demo", verbosity=0, stdout=io.StringIO())
    routes()
    # A real start through the pages, to get the browser's cookies and a CSRF token.
    client = Client(HTTP_HOST=HOST)
    response = client.post("/jouer/millionnaire/", {"name-0": "Banc"})
    play = Play.objects.get(token=response.url.strip("/").split("/")[-1])
    client.get(response.url)
    token = client.cookies["csrftoken"].value
    cookies = "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items())
    question = ENGINE.view(play.state)["question"]["id"]
    handler = WSGIHandler()
    moves = iter(range(10**9))
    statuses = []

    def start_response(status, headers, exc_info=None):
        statuses.append(status)

    def action():
        move = next(moves)
        fields = {"csrfmiddlewaretoken": token, "version": 1 + move, "question": question}
        fields.update({"type": "choose", "choice": "0"} if move % 2 == 0
                      else {"type": "cancel"})
        body = b"".join(handler(environ("POST", f"/partie/{play.token}/action/", cookies,
                                         urlencode(fields).encode(), HX_REQUEST="true"),
                                 start_response))
        if statuses.pop() != "200 OK" or b'role="alert"' in body:
            raise SystemExit("action refused")

    def baseline():
        b"".join(handler(environ("GET", "/bare/", cookies), start_response))
        if statuses.pop() != "200 OK":
            raise SystemExit("bare view failed")

    def row_baseline():
        b"".join(handler(environ("GET", f"/row/{play.token}/", cookies), start_response))
        if statuses.pop() != "200 OK":
            raise SystemExit("row view failed")

    for warm in (action, baseline, row_baseline):
        timed(warm, 20)
    actions, bares, rows = [], [], []
    for _ in range(ROUNDS):
        actions += timed(action, count // ROUNDS)
        bares += timed(baseline, count // ROUNDS)
        rows += timed(row_baseline, count // ROUNDS)

    def describe(name, times):
        rate = len(times) / sum(times)
        p50 = statistics.median(times) * 1000
        p95 = statistics.quantiles(times, n=20)[-1] * 1000
        print(f"{name:<14} {rate:8.0f} req/s   p50 {p50:6.2f} ms   p95 {p95:6.2f} ms")
        return rate

    engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    print(f"Player action vs bare view, {len(actions)} requests each, {engine}, "
          f"DEBUG={settings.DEBUG}")
    action_rate = describe("player action", actions)
    bare_rate = describe("bare view", bares)
    row_rate = describe("row read+write", rows)
    ratio = action_rate / bare_rate
    print(f"ratio {ratio:.2f}× the bare view's throughput (target ≥ 0.30×): "
          f"{'met' if ratio >= 0.3 else 'NOT met'}")
    print(f"ratio {action_rate / row_rate:.2f}× a view that only reads and writes the game's "
          f"row (what the rules, the checks and the page cost on top of the save)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
