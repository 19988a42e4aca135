"""bench/load.py's simulated players: solo millionnaire games over HTTP (the pages' forms, as
htmx posts them) and tables of The Mind (the room's pages over HTTP, then its WebSocket).

Each player is a quick human: it waits a little between two moves (THINK), has its own
cookies (its browser id, its CSRF token) and its own connections. Every request is timed
into a Recorder under its kind; what counts as an error:
- an HTTP answer other than the one the page expects (a 5xx, and also any 4xx: these
  players only do what their page offers, so a 403 or a 404 is the server's fault),
  a timeout, a connection refused or reset;
- on a room's WebSocket: the socket closed by the server, an intent unanswered within
  INTENT_TIMEOUT, a played card the other seats do not see within INTENT_TIMEOUT.
A move the game refuses (The Mind's `refused` frame: a card played just after a level
ended, the table waiting for a seat…) is the game's normal answer: counted apart, by code.
"""

from __future__ import annotations

import asyncio
import contextlib
import html as htmllib
import json
import random
import re
import ssl
import time

import httpx
import websockets
from _load_stats import Recorder

THINK = (1.0, 3.0)  # seconds a solo player takes before each move
# The Mind's pace, as bench/rooms.py: a quarter of a second per number between the pile and
# one's lowest card, a moment to put one's hand on the table.
PACE = 0.25
READY = (0.3, 1.5)
TIMEOUT = 20.0  # seconds an HTTP request may take before it counts as an error
INTENT_TIMEOUT = 5.0
SEATS = 4

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
FORM = re.compile(r'<form\b([^>]*)>(.*?)</form>', re.S)
ATTR = re.compile(r'([\w-]+)="([^"]*)"')
INPUT = re.compile(r'<input\b([^>]*)>')
BUTTON = re.compile(r'<button\b([^>]*)>')
INTENT = re.compile(r"data-intent='([^']*)'")
TOP = re.compile(r'data-top="(\d+)"')


class Run:
    """Whether the players of a level go on: until `stop`, or its time runs out."""

    def __init__(self, seconds: float = float("inf")):
        self.end = time.monotonic() + seconds

    @property
    def active(self) -> bool:
        return time.monotonic() < self.end

    def stop(self) -> None:
        self.end = min(self.end, time.monotonic())


# One TLS context for every client: httpx builds one per client otherwise (reading the CA
# bundle, some 30 ms of this process's time), which stalls the event loop as 200 players
# arrive.
TLS = ssl.create_default_context()


def client(base: str) -> httpx.AsyncClient:
    # One connection per player, kept alive, as a browser's.
    # An idle connection is dropped after 4 s, before uvicorn's keep-alive timeout (5 s)
    # closes it: else a request sent just as the server closes it fails, where a browser
    # would send it again on a new connection.
    return httpx.AsyncClient(base_url=base, timeout=TIMEOUT, follow_redirects=False,
                             limits=httpx.Limits(max_connections=2, max_keepalive_connections=2,
                                                 keepalive_expiry=4.0), verify=TLS)


async def request(http: httpx.AsyncClient, rec: Recorder, kind: str, method: str, url: str,
                  *, expect: tuple[int, ...] = (200,), **kwargs) -> httpx.Response | None:
    """Send one request timed under `kind`; return the response, or None after an error."""
    start = time.perf_counter()
    for attempt in (1, 2):
        try:
            response = await http.request(method, url, **kwargs)
            break
        except httpx.TimeoutException:
            rec.error(kind, "timeout")
            return None
        except (httpx.ReadError, httpx.RemoteProtocolError) as error:
            # The server closed a kept-alive connection as the request went out (uvicorn
            # closes one idle for 5 s; this client, busy, may reuse it late): a browser
            # sends the request again on a new connection, and so does this player, once.
            if attempt == 2:
                rec.error(kind, f"{type(error).__name__}, sent twice")
                return None
            rec.resent[kind] += 1
        except httpx.HTTPError as error:
            rec.error(kind, f"{type(error).__name__}")
            return None
    seconds = time.perf_counter() - start
    if response.status_code not in expect:
        rec.error(kind, f"HTTP {response.status_code} on {method} {strip_ids(url)}")
        return None
    rec.ok(kind, seconds)
    return response


def strip_ids(url: str) -> str:
    """A URL with its tokens and codes replaced, to count errors by route."""
    return re.sub(r"/(partie|salle|travaux)/[^/]+/", r"/\1/…/", url)


def forms_of(page: str) -> list[dict]:
    """The htmx forms of a board: where each posts, its hidden fields, its buttons."""
    found = []
    for attributes, body in FORM.findall(page):
        attrs = dict(ATTR.findall(attributes))
        if "hx-post" not in attrs:
            continue
        fields, buttons = {}, []
        for raw in INPUT.findall(body):
            field = dict(ATTR.findall(raw))
            if field.get("type") == "hidden" and "name" in field:
                fields[field["name"]] = htmllib.unescape(field.get("value", ""))
        for raw in BUTTON.findall(body):
            button = dict(ATTR.findall(raw))
            if "name" in button and "disabled" not in raw:
                buttons.append((button["name"], htmllib.unescape(button.get("value", ""))))
        found.append({"url": htmllib.unescape(attrs["hx-post"]), "fields": fields,
                      "buttons": buttons})
    return found


def next_move(page: str, rng: random.Random) -> tuple[str, dict] | None:
    """What a quick player clicks on the board: an answer, then « dernier mot », then the
    next question; now and then a joker, now and then « non, je réfléchis ». None once the
    game is over."""
    forms = forms_of(page)
    by_button = {}
    for form in forms:
        for name, value in form["buttons"]:
            by_button.setdefault((name, value if name == "type" else ""), []).append(
                (form, name, value))
    def click(key, choose=None):
        form, name, value = choose(by_button[key]) if choose else by_button[key][0]
        return form["url"], {**form["fields"], name: value}

    if ("choice", "") in by_button:
        if ("joker", "") in by_button and rng.random() < 0.1:
            return click(("joker", ""), rng.choice)
        return click(("choice", ""), rng.choice)
    if ("type", "confirm") in by_button:
        return click(("type", "cancel") if rng.random() < 0.15 else ("type", "confirm"))
    if ("type", "next") in by_button:
        return click(("type", "next"))
    return None


async def solo_player(base: str, rec: Recorder, run: Run, name: str,
                      rng: random.Random) -> None:
    """Play millionnaire games one after another while the level runs."""
    async with client(base) as http:
        while run.active:
            page = await request(http, rec, "solo_setup", "GET", "/jouer/millionnaire/")
            if page is None:
                await asyncio.sleep(1)
                continue
            await asyncio.sleep(rng.uniform(*THINK))
            token = CSRF.search(page.text)
            started = await request(http, rec, "solo_start", "POST", "/jouer/millionnaire/",
                                    expect=(302,), data={
                                        "csrfmiddlewaretoken": token.group(1) if token else "",
                                        "name-0": name})
            if started is None:
                await asyncio.sleep(1)
                continue
            game = started.headers["location"]
            page = await request(http, rec, "solo_page", "GET", game)
            board = page.text if page is not None else ""
            while board and run.active:
                move = next_move(board, rng)
                if move is None:  # the game is over: « Rejouer »
                    break
                await asyncio.sleep(rng.uniform(*THINK))
                url, fields = move
                answer = await request(http, rec, "solo_action", "POST", url, data=fields,
                                       headers={"HX-Request": "true",
                                                "HX-Current-URL": base + game})
                if answer is None:
                    board = ""
                elif answer.headers.get("HX-Refresh"):  # stale: the page is built again
                    rec.refused("millionnaire: stale")
                    page = await request(http, rec, "solo_page", "GET", game)
                    board = page.text if page is not None else ""
                else:
                    board = answer.text


# --- The Mind ------------------------------------------------------------------------------


class Table:
    """A table of The Mind: its room's code and the cards its seats played, waiting to be
    seen by the other seats."""

    def __init__(self, code: str, rec: Recorder):
        self.code = code
        self.rec = rec
        self.plays: list[dict] = []  # {"at", "version", "seat", "seen": set()}

    def played(self, seat: int, version: int) -> dict:
        play = {"at": time.perf_counter(), "version": version, "seat": seat, "seen": set()}
        self.plays.append(play)
        return play

    def forget(self, play: dict) -> None:
        with contextlib.suppress(ValueError):
            self.plays.remove(play)

    def state_seen(self, seat: int, version: int) -> None:
        """A seat got the room at `version`: the cards played before it are seen there."""
        now = time.perf_counter()
        for play in list(self.plays):
            if play["seat"] != seat and version > play["version"] and seat not in play["seen"]:
                play["seen"].add(seat)
                self.rec.ok("mind_seen", now - play["at"])
            if len(play["seen"]) >= SEATS - 1:
                self.forget(play)
            elif now - play["at"] > INTENT_TIMEOUT:
                self.rec.error("mind_seen", "a played card some seat had not seen after 5 s")
                self.forget(play)


async def mind_table(base: str, rec: Recorder, run: Run, number: int,
                     rng: random.Random) -> None:
    """Open a room, seat four players, start, play The Mind while the level runs (again
    after a game is over)."""
    https = [client(base) for _ in range(SEATS)]
    try:
        host = https[0]
        home = await request(host, rec, "home", "GET", "/")
        if home is None:
            return
        token = CSRF.search(home.text)
        opened = await request(host, rec, "mind_open", "POST", "/salle/ouvrir/the-mind/",
                               expect=(302,),
                               data={"csrfmiddlewaretoken": token.group(1) if token else ""})
        if opened is None:
            return
        room_url = opened.headers["location"]
        code = room_url.rstrip("/").rsplit("/", 1)[-1]
        for seat, http in enumerate(https):
            page = await request(http, rec, "mind_page", "GET", room_url)
            if page is None:
                return
            token = CSRF.search(page.text)
            joined = await request(http, rec, "mind_join", "POST", room_url, expect=(302,),
                                   data={"csrfmiddlewaretoken": token.group(1) if token else "",
                                         "name": f"Charge {number}-{seat + 1}"})
            if joined is None:
                return
            page = await request(http, rec, "mind_page", "GET", room_url)
            if page is None:
                return
        table = Table(code, rec)
        connected = [asyncio.Event() for _ in range(SEATS)]
        start_again = asyncio.Event()
        seats = [asyncio.create_task(mind_seat(base, rec, run, table, https[seat], seat,
                                               connected[seat], start_again, rng))
                 for seat in range(SEATS)]
        try:
            await asyncio.wait_for(asyncio.gather(*(c.wait() for c in connected)), 30)
        except TimeoutError:
            rec.error("mind_connect", "a seat's WebSocket did not open within 30 s")
        start_again.set()
        while run.active:
            try:
                await asyncio.wait_for(start_again.wait(), 1.0)
            except TimeoutError:
                continue
            start_again.clear()
            if not run.active:
                break
            page = await request(host, rec, "mind_page", "GET", room_url)
            token = CSRF.search(page.text) if page is not None else None
            if token is None:  # the host's page did not come: it tries again
                asyncio.get_running_loop().call_later(2, start_again.set)
                continue
            await request(host, rec, "mind_start", "POST", f"{room_url}lancer/",
                          expect=(302,), data={"csrfmiddlewaretoken": token.group(1)})
        await asyncio.gather(*seats, return_exceptions=True)
    finally:
        for http in https:
            await http.aclose()


def cookie_header(http: httpx.AsyncClient) -> str:
    return "; ".join(f"{name}={value}" for name, value in http.cookies.items())


async def mind_seat(base: str, rec: Recorder, run: Run, table: Table,
                    http: httpx.AsyncClient, seat: int, connected: asyncio.Event,
                    start_again: asyncio.Event, rng: random.Random) -> None:
    """One device at the table: does what its page offers, as a quick player would; when
    its socket drops, it connects again after a moment, as the room's page does."""
    ws_url = base.replace("http", "ws", 1) + f"/ws/salle/{table.code}/"
    device = {"seq": 0, "version": 0}  # the last intent's number, the last page's version
    over_at = 0
    ping_every = 20.0
    while run.active:
        pending: dict[int, tuple[float, dict | None]] = {}
        plan: asyncio.Task | None = None
        opened = time.perf_counter()
        try:
            async with websockets.connect(ws_url, origin=base,
                                          additional_headers={"Cookie": cookie_header(http)},
                                          open_timeout=TIMEOUT) as ws:

                async def send(intent: dict, play: bool, ws=ws, pending=pending) -> None:
                    device["seq"] += 1
                    watched = table.played(seat, device["version"]) if play else None
                    pending[device["seq"]] = (time.perf_counter(), watched)
                    with contextlib.suppress(websockets.ConnectionClosed):
                        await ws.send(json.dumps({"seq": device["seq"], **intent}))

                async def later(wait: float, intent: dict, send=send) -> None:
                    await asyncio.sleep(wait)
                    if run.active:
                        await send(intent, intent.get("type") == "play")

                first = True
                last_ping = time.monotonic()
                while run.active:
                    if time.monotonic() - last_ping > ping_every:
                        last_ping = time.monotonic()
                        await ws.send(json.dumps({"type": "ping"}))
                    try:
                        raw = await asyncio.wait_for(ws.recv(), timeout=1.0)
                    except TimeoutError:
                        now = time.perf_counter()
                        for number, (sent, watched) in list(pending.items()):
                            if now - sent > INTENT_TIMEOUT:
                                rec.error("mind_ack", "intent unanswered in 5 s")
                                del pending[number]
                                if watched is not None:
                                    table.forget(watched)
                        continue
                    now = time.perf_counter()
                    frame = json.loads(raw)
                    kind = frame.get("type")
                    if kind in ("ack", "refused", "duplicate"):
                        sent, watched = pending.pop(frame.get("seq"), (None, None))
                        if sent is not None:
                            rec.ok("mind_ack", now - sent)
                        if kind == "refused":
                            rec.refused(f"The Mind: {frame.get('code')}")
                            if watched is not None:
                                table.forget(watched)
                        elif kind == "duplicate":
                            rec.error("mind_ack", "duplicate")
                        continue
                    if kind == "slow":
                        rec.error("mind_ack", "slowed down by the server (flood)")
                        continue
                    if kind != "state":
                        continue
                    if first:
                        first = False
                        rec.ok("mind_connect", now - opened)
                        connected.set()
                    version = device["version"] = frame.get("version", 0)
                    device["seq"] = max(device["seq"], int(frame.get("last_seq") or 0))
                    ping_every = float(frame.get("ping") or ping_every)
                    table.state_seen(seat, version)
                    if plan is not None:
                        plan.cancel()
                        plan = None
                    if frame.get("phase") == "over":
                        if seat == 0 and version != over_at:  # the host starts another game
                            over_at = version
                            asyncio.get_running_loop().call_later(rng.uniform(1, 2),
                                                                  start_again.set)
                        continue
                    if frame.get("phase") != "playing":
                        continue
                    decided = decide(frame.get("html", ""), rng)
                    if decided is not None:
                        plan = asyncio.create_task(later(*decided))
        except websockets.ConnectionClosed as closed:
            if run.active:
                rec.error("mind_connect", ws_closed(closed))
        except (OSError, websockets.InvalidHandshake, TimeoutError) as error:
            rec.error("mind_connect", f"WebSocket: {type(error).__name__}")
        finally:
            if plan is not None:
                plan.cancel()
            for _sent, watched in pending.values():  # lost with the socket
                if watched is not None:
                    table.forget(watched)
        if run.active:
            await asyncio.sleep(rng.uniform(1, 2))  # the page connects again
    connected.set()
    if seat == 0:
        start_again.set()  # the table's loop sees the end


def ws_closed(closed: websockets.ConnectionClosed) -> str:
    """Why a room's socket closed: the server's close frame, or ours (a keepalive ping the
    server did not answer), or none (the connection dropped)."""
    if closed.rcvd is not None:
        return f"WebSocket closed by the server: {closed.rcvd.code} {closed.rcvd.reason}".strip()
    if closed.sent is not None:
        return f"WebSocket closed by the client: {closed.sent.code} {closed.sent.reason}".strip()
    return "WebSocket dropped without a close frame"


def decide(page: str, rng: random.Random) -> tuple[float, dict] | None:
    """What a quick player of The Mind does with the controls its page shows."""
    offered = [json.loads(htmllib.unescape(found)) for found in INTENT.findall(page)]
    kinds = {intent["type"]: intent for intent in offered}
    if "ready" in kinds:
        return rng.uniform(*READY), kinds["ready"]
    if "play" in kinds:
        top = TOP.search(page)
        gap = kinds["play"]["card"] - (int(top.group(1)) if top else 0)
        return max(0.05, PACE * gap * rng.uniform(0.8, 1.2)), kinds["play"]
    return None


# --- baselines -----------------------------------------------------------------------------


async def bare_sampler(base: str, rec: Recorder, run: Run, every: float) -> None:
    """The bare view, asked every `every` seconds while the players play."""
    async with client(base) as http:
        while run.active:
            await request(http, rec, "bare_load", "GET", "/sante/")
            await asyncio.sleep(every)


async def burst(rec: Recorder, seconds: float, https: list[httpx.AsyncClient], step) -> float:
    """One loop per client, each calling `step(http, index)` back to back for `seconds`;
    return the seconds it took."""
    run = Run(seconds)

    async def loop(index: int) -> None:
        while run.active:
            await step(https[index], index)

    started = time.perf_counter()
    await asyncio.gather(*(loop(n) for n in range(len(https))))
    return time.perf_counter() - started


async def bare_burst(https: list[httpx.AsyncClient], rec: Recorder, seconds: float) -> float:
    async def step(http, index):
        await request(http, rec, "burst_bare", "GET", "/sante/")

    return await burst(rec, seconds, https, step)


async def new_game(http: httpx.AsyncClient, rec: Recorder, name: str) -> str:
    """Start a millionnaire game through its pages; return its board."""
    page = await request(http, rec, "solo_setup", "GET", "/jouer/millionnaire/")
    token = CSRF.search(page.text) if page is not None else None
    started = await request(http, rec, "solo_start", "POST", "/jouer/millionnaire/",
                            expect=(302,), data={
                                "csrfmiddlewaretoken": token.group(1) if token else "",
                                "name-0": name})
    if started is None:
        return ""
    page = await request(http, rec, "solo_page", "GET", started.headers["location"])
    return page.text if page is not None else ""


async def prepare_games(https: list[httpx.AsyncClient], rec: Recorder) -> list[str]:
    """Start one millionnaire game per client; return their boards."""
    return list(await asyncio.gather(*(new_game(http, rec, f"Charge rafale {n}")
                                       for n, http in enumerate(https))))


async def action_burst(https: list[httpx.AsyncClient], rec: Recorder, seconds: float,
                       boards: list[str]) -> float:
    """Each client plays its own millionnaire game (started by `prepare_games`) as fast as
    the server answers: choose an answer, take it back (« non, je réfléchis »), again, as
    bench/play.py does."""
    games = [{"board": board, "choosing": True} for board in boards]

    async def step(http, index):
        game = games[index]
        if not game["board"]:
            game.update(board=await new_game(http, rec, f"Charge rafale {index}"), choosing=True)
            return
        forms = forms_of(game["board"])
        wanted = ("choice", None) if game["choosing"] else ("type", "cancel")
        form = next((f for f in forms if any(name == wanted[0] and value == (wanted[1] or value)
                                             for name, value in f["buttons"])), None)
        if form is None:  # not where this loop left it: another game
            game["board"] = ""
            return
        fields = {**form["fields"], wanted[0]: wanted[1] or "0"}
        answer = await request(http, rec, "burst_action", "POST", form["url"], data=fields,
                               headers={"HX-Request": "true"})
        if answer is None or answer.headers.get("HX-Refresh"):
            game["board"] = ""
            return
        game.update(board=answer.text, choosing=not game["choosing"])

    return await burst(rec, seconds, https, step)
