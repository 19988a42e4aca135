"""Benchmark: rooms under load, two server processes behind Redis, against an echo baseline.

Run `make bench` or `python bench/rooms.py [SECONDS]` (default 20; BENCH_DATABASE_URL, see
below, for PostgreSQL). Starts Debian's
redis-server and two Daphne processes on loopback over one throwaway SQLite database (the
demo library of millionnaire loaded), opens 20 rooms of The Mind with 4 players each and 5
millionnaire party rooms with 4 players each, every player a WebSocket client of its own,
half of each room on each process; once everyone is in the lobbies, the rooms start one
after another over two seconds. The players play: The Mind's put their hands down and
play their lowest card after a short wait that grows with the gap to the pile (mistakes
happen, a finished game is started again); the millionnaire contestants choose and confirm
an answer at random, the master moves on.

Prints, for the room intents: the latency from sending an intent to its answer (ack,
refused or duplicate) and to the sender's new page, as p50/p95/p99 in ms, the throughput
and the errors (a socket closed, an intent unanswered in 5 s); and the same for an echo
consumer served by the same processes through the same Redis, with as many clients
sending at the same rate. Target: rooms' p95 < 100 ms, zero errors.
"""

import asyncio
import io
import json
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import time
from contextlib import closing, suppress
from pathlib import Path

import _throwaway

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 20.0
MIND_ROOMS, PARTY_ROOMS, SEATS = 20, 5, 4
# The Mind's players keep the bots' pace: a quarter of a second per number between the pile
# and their card; millionnaire's take a few seconds to choose, as people do.
PACE = 0.25

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with closing(socket.socket()) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port: int, process: subprocess.Popen) -> None:
    for _ in range(300):
        if process.poll() is not None:
            raise SystemExit(f"a server process stopped ({process.returncode}): see {WORK}")
        with closing(socket.socket()) as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise SystemExit(f"nothing listens on {port}")


redis_binary = shutil.which("redis-server")
if not redis_binary:
    raise SystemExit("bench/rooms.py needs redis-server (Debian's redis-server package)")
redis_port = free_port()
redis = subprocess.Popen([redis_binary, "--port", str(redis_port), "--bind", "127.0.0.1",
                          "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL)
wait_for(redis_port, redis)
# Before Django reads its settings: this process tells the rooms through Redis too.
os.environ.update({"DEBUG": "false", "SECRET_KEY": "bench-only-secret-key-rooms",
                   "ALLOWED_HOSTS": "127.0.0.1", "REDIS_PREFIX": "plateau-bench",
                   "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0"})
# BENCH_DATABASE_URL=postgres://…/name: a PostgreSQL database, emptied and filled here,
# as a deployment of several processes would use (e.g. the one `.ci/postgres` starts, with
# another name). Without it, a SQLite file: the writers of the two processes wait for each
# other's lock with SQLite's own backoff (sleeps of up to 100 ms), so the rooms hold it only
# for a short write and each process writes from one thread.
DATABASE = os.environ.get("BENCH_DATABASE_URL", "")
WORK = _throwaway.setup(DATABASE)

from asgiref.sync import async_to_sync  # noqa: E402
from channels.layers import get_channel_layer  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.http import HttpResponse  # noqa: E402

from player import rooms  # noqa: E402
from player.views import BROWSER_COOKIE, BROWSER_SALT  # noqa: E402

if DATABASE:
    call_command("flush", interactive=False, verbosity=0)
call_command("migrate", verbosity=0)
demo = WORK / "demo"
demo.mkdir()
(demo / "millionnaire").symlink_to(ROOT / "fixtures" / "millionnaire")
call_command("load_demo", dir=demo, stdout=io.StringIO())

ports = [free_port(), free_port()]
env = {**os.environ, "PYTHONPATH": f"{ROOT / 'bench'}:{ROOT}"}
servers = []
for port in ports:
    with open(WORK / f"daphne-{port}.log", "w") as log:
        servers.append(subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
             "_echo_asgi:application"], env=env, cwd=ROOT, stdout=log, stderr=log))
for port, server in zip(ports, servers, strict=True):
    wait_for(port, server)

import websockets  # noqa: E402


def cookie(browser: str) -> str:
    response = HttpResponse()
    response.set_signed_cookie(BROWSER_COOKIE, browser, salt=BROWSER_SALT)
    return f"{BROWSER_COOKIE}={response.cookies[BROWSER_COOKIE].value}"


def open_rooms(game: str, count: int) -> list[tuple[str, list[str]]]:
    opened = []
    for number in range(count):
        browsers = [f"{game}-{number}-{seat}" for seat in range(SEATS)]
        room = rooms.create_room(game=game, browser=browsers[0])
        for seat, browser in enumerate(browsers):
            rooms.join(code=room.code, name=f"Joueur {seat + 1}", browser=browser)
        opened.append((room.code, browsers))
    return opened


def restart(code: str, host: str) -> None:
    rooms.start(code=code, browser=host)
    async_to_sync(get_channel_layer().group_send)(rooms.group_name(code), rooms.changed())


class Stats:
    def __init__(self):
        self.answer: list[float] = []
        self.page: list[float] = []
        self.errors: list[str] = []
        self.count = 0


INTENT = re.compile(r"data-intent='([^']*)'")
TOP = re.compile(r'data-top="(\d+)"')


async def player(url: str, code: str, browser: str, game: str, stats: Stats, end: float,
                 host: str) -> None:
    """One device: does what its page offers, as a quick player would, timing each intent."""
    seq = 0
    pending: dict[int, float] = {}
    awaiting_page: list[float] = []
    plan: asyncio.Task | None = None
    try:
        async with websockets.connect(f"{url}/ws/salle/{code}/", origin="http://127.0.0.1",
                                      additional_headers={"Cookie": cookie(browser)}) as ws:

            async def later(wait: float, action: dict) -> None:
                nonlocal seq
                await asyncio.sleep(wait)
                if time.perf_counter() >= end:
                    return
                seq += 1
                pending[seq] = time.perf_counter()
                with suppress(websockets.ConnectionClosed):
                    await ws.send(json.dumps({"seq": seq, **action}))

            while time.perf_counter() < end:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=1.0)
                except TimeoutError:
                    stale = [s for s, at in pending.items() if time.perf_counter() - at > 5]
                    if stale:
                        stats.errors.append(f"{code}: intent unanswered for 5 s")
                        for s in stale:
                            del pending[s]
                    continue
                now = time.perf_counter()
                frame = json.loads(raw)
                if frame["type"] in ("ack", "refused", "duplicate"):
                    sent = pending.pop(frame.get("seq"), None)
                    if sent is not None:
                        stats.answer.append(now - sent)
                        stats.count += 1
                        if frame["type"] == "ack":
                            awaiting_page.append(sent)
                    continue
                if frame["type"] != "state":
                    continue
                for sent in awaiting_page:
                    stats.page.append(now - sent)
                awaiting_page.clear()
                if plan is not None:
                    plan.cancel()
                    plan = None
                if frame["phase"] == "lobby":
                    continue
                if frame["phase"] == "over":
                    if browser == host:
                        await asyncio.to_thread(restart, code, host)
                    continue
                decided = decide(game, frame["html"])
                if decided is not None:
                    plan = asyncio.create_task(later(*decided))
    except (OSError, websockets.ConnectionClosed) as error:
        stats.errors.append(f"{code}: {type(error).__name__} {error}")


def decide(game: str, html: str) -> tuple[float, dict] | None:
    """What a quick player does with the controls its page shows."""
    offered = [json.loads(found) for found in INTENT.findall(html)]
    kinds = {intent["type"]: intent for intent in offered}
    if game == "the-mind":
        if "ready" in kinds:
            return random.uniform(0.3, 1.5), kinds["ready"]
        if "play" in kinds:
            top = TOP.search(html)
            gap = kinds["play"]["card"] - (int(top.group(1)) if top else 0)
            return PACE * gap * random.uniform(0.8, 1.2), kinds["play"]
        return None
    if "next" in kinds:
        return random.uniform(1, 2), kinds["next"]
    if "confirm" in kinds:
        return random.uniform(0.5, 1.5), kinds["confirm"]
    choices = [intent for intent in offered if intent["type"] == "choose"]
    if choices:
        return random.uniform(2, 6), random.choice(choices)
    return None


async def echo_client(url: str, stats: Stats, end: float, rate: float) -> None:
    try:
        async with websockets.connect(f"{url}/ws/echo/", origin="http://127.0.0.1") as ws:
            while time.perf_counter() < end:
                await asyncio.sleep(random.expovariate(rate))
                sent = time.perf_counter()
                await ws.send(json.dumps({"seq": 1, "type": "ping", "pad": "x" * 40}))
                await asyncio.wait_for(ws.recv(), timeout=5)
                stats.answer.append(time.perf_counter() - sent)
                stats.count += 1
    except (OSError, TimeoutError, websockets.ConnectionClosed) as error:
        stats.errors.append(f"echo: {type(error).__name__} {error}")


def ms(values: list[float], q: float) -> str:
    if not values:
        return "—"
    ordered = sorted(values)
    return f"{1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]:.1f}"


async def main() -> None:
    urls = [f"http://127.0.0.1:{port}".replace("http", "ws") for port in ports]
    mind = await asyncio.to_thread(open_rooms, "the-mind", MIND_ROOMS)
    party = await asyncio.to_thread(open_rooms, "millionnaire", PARTY_ROOMS)
    room_stats = Stats()
    # Every player is in their room's lobby first; then the rooms start one after another
    # over two seconds, as tables do, not all in the same instant.
    end = time.perf_counter() + SECONDS + 4
    tasks = []
    for game, opened in (("the-mind", mind), ("millionnaire", party)):
        for code, browsers in opened:
            for seat, browser in enumerate(browsers):
                tasks.append(player(urls[seat % 2], code, browser, game, room_stats, end,
                                    browsers[0]))

    async def start_rooms() -> float:
        await asyncio.sleep(2)
        begun = time.perf_counter()
        for code, browsers in [*mind, *party]:
            await asyncio.sleep(2 / (len(mind) + len(party)))
            await asyncio.to_thread(restart, code, browsers[0])
        return begun

    *_played, start = await asyncio.gather(*tasks, start_rooms())
    elapsed = time.perf_counter() - start
    rate = room_stats.count / elapsed / len(tasks)  # intents a second per device
    echo_stats = Stats()
    start = time.perf_counter()
    await asyncio.gather(*(echo_client(urls[n % 2], echo_stats, start + SECONDS, rate)
                           for n in range(len(tasks))))
    echo_elapsed = time.perf_counter() - start
    print(f"rooms: {len(mind)} The Mind + {len(party)} millionnaire, {len(tasks)} WebSocket "
          f"players on 2 Daphne processes behind Redis, on "
          f"{'PostgreSQL' if DATABASE else 'SQLite'}, {SECONDS:.0f} s each run")
    print(f"{'':28} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'msg/s':>8} {'errors':>7}")
    for label, values, stats, seconds in (
            ("room intent → answer", room_stats.answer, room_stats, elapsed),
            ("room intent → own new page", room_stats.page, room_stats, elapsed),
            ("echo (baseline)", echo_stats.answer, echo_stats, echo_elapsed)):
        print(f"{label:28} {ms(values, .5):>8} {ms(values, .95):>8} {ms(values, .99):>8} "
              f"{stats.count / seconds:>8.0f} {len(stats.errors):>7}")
    if room_stats.answer and echo_stats.answer:
        p95 = statistics.quantiles(room_stats.answer, n=20)[-1]
        echo95 = statistics.quantiles(echo_stats.answer, n=20)[-1]
        print(f"rooms' p95 = {p95 / echo95:.1f}× the echo's; "
              f"target: rooms' p95 < 100 ms, zero errors")
    for error in (room_stats.errors + echo_stats.errors)[:5]:
        print("  error:", error)


try:
    asyncio.run(main())
finally:
    for server in servers:
        server.terminate()
    for server in servers:
        server.wait(timeout=10)
    redis.terminate()
    redis.wait(timeout=10)
