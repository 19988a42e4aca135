"""A room's WebSocket: each device sends intents and receives only what its seat may see.

The server is the only authority. A device's message is an intent, {"seq": n, "type": …},
checked by player.rooms (sequence, seat, phase) and the engine (the state); whatever the
answer, the device hears it (`ack`, `refused` or `duplicate`, with its seq). Whenever the
room changes, on whichever server process, every device of the room is told through the
channel layer and sent its own page of the room again, drawn on the server.

A device that floods is slowed down alone: each connection has its own allowance of
messages, and past it its messages are dropped (then the connection closed) before any
work is done for them. The bots' timers run in every process that has a device of the
room; they act only on the version of the game they were set for, so the first one wins
and the others find the game moved on.
"""

from __future__ import annotations

import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.http import HttpRequest
from django.utils import translation

from . import rooms
from .room_views import render_room
from .rooms import changed, group_name
from .views import browser_of

MAX_MESSAGE = 2048  # characters: an intent is a few dozen
# Each connection may send BURST messages at once, then RATE a second; it is closed once
# it has had DROPS_TO_CLOSE messages dropped.
RATE, BURST, DROPS_TO_CLOSE = 8.0, 16.0, 200
PING_EVERY = rooms.PING_EVERY  # seconds between a page's pings: its seat stays online

# Close codes (4000-4999 are the application's own).
GONE, BAD, FLOOD = 4404, 4400, 4429


# The room as last read in this process, by code, with the stamp of the change it follows.
_snapshots: dict[str, tuple[str, asyncio.Future]] = {}


async def snapshot_for(code: str, stamp: str) -> rooms.Snapshot:
    """Return the room after the change `stamp`, read once for all of this process's
    devices of the room (a device that connects reads it alone: no stamp)."""
    current = _snapshots.get(code)
    if stamp and current is not None and current[0] == stamp:
        return await asyncio.shield(current[1])
    future = asyncio.ensure_future(db(rooms.snapshot, write=False)(code))
    if stamp:
        _snapshots[code] = (stamp, future)
    return await asyncio.shield(future)


# Reads and writes of the rooms run off the event loop, in threads of their own: a read (a
# page to send) never waits behind writes queued for the database's lock. SQLite has one
# writer at a time, whatever the process: more threads of this one would only wait for each
# other with its backoff (sleeps of up to 100 ms), so they write one after another.
_reads = ThreadPoolExecutor(max_workers=4, thread_name_prefix="room-reads")
_writes = ThreadPoolExecutor(
    max_workers=1 if connections[DEFAULT_DB_ALIAS].vendor == "sqlite" else 4,
    thread_name_prefix="room-writes")


def db(function, *, write: bool = True):
    """Run a database call of the rooms off the event loop, among the writes or the reads.
    PLATEAU_ROOM_DB_THREADS=False runs them all in the thread that runs the event loop's
    synchronous code, with its connection as it is (the tests': inside their transaction)."""
    if not settings.PLATEAU_ROOM_DB_THREADS:
        return sync_to_async(function)
    return database_sync_to_async(function, thread_sensitive=False,
                                  executor=_writes if write else _reads)


def device_of(scope) -> str | None:
    """Return the device's browser id, from the signed cookie its pages were given."""
    request = HttpRequest()
    request.COOKIES = scope.get("cookies", {})
    return browser_of(request)


def language_of(scope) -> str:
    chosen = scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME, "")
    return chosen if chosen in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


class Allowance:
    """A token bucket: `take` says whether one more message may be handled now."""

    def __init__(self, rate: float = RATE, burst: float = BURST):
        self.rate, self.burst = rate, burst
        self.tokens, self.at = burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


# The bots' timer of each room in this process, with the version of the game it was set for.
_timers: dict[str, tuple[int, asyncio.Task]] = {}


def _set_bots(code: str, version: int, wait: float | None) -> None:
    current = _timers.get(code)
    if current is not None and current[0] == version and not current[1].done():
        return
    if current is not None:
        current[1].cancel()
        del _timers[code]
    if wait is None:
        return
    task = asyncio.get_running_loop().create_task(_bots_after(code, version, wait))
    _timers[code] = (version, task)


async def _bots_after(code: str, version: int, wait: float) -> None:
    await asyncio.sleep(max(0.0, wait) * settings.PLATEAU_BOT_TEMPO / 100)
    if _timers.get(code, (None,))[0] == version:
        del _timers[code]
    if await db(rooms.bot_step)(code=code, version=version):
        await get_channel_layer().group_send(group_name(code), changed())


class RoomConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.code = rooms.normal_code(self.scope["url_route"]["kwargs"]["code"])
        self.browser = device_of(self.scope)
        self.language = language_of(self.scope)
        self.allowance = Allowance()
        self.dropped = 0
        self.sent = ""
        self.joined = False
        try:
            await db(rooms.find, write=False)(self.code)
        except rooms.RoomGone:
            # Accepted, then closed: turned down at the handshake, a page would only hear
            # "connection lost" (1006) and try again for ever, never that the room is gone.
            await self.accept()
            await self.close(code=GONE)
            return
        await self.channel_layer.group_add(group_name(self.code), self.channel_name)
        self.joined = True
        await self.accept()
        back = False
        if self.browser:
            back = await db(rooms.seen)(
                code=self.code, browser=self.browser, event="connect")
        if back:  # the others see this seat come back
            await self.channel_layer.group_send(group_name(self.code), changed())
        else:
            await self.push()

    async def disconnect(self, close_code):
        if not self.joined:
            return
        await self.channel_layer.group_discard(group_name(self.code), self.channel_name)
        if self.browser and await db(rooms.seen)(
                code=self.code, browser=self.browser, event="disconnect"):
            await self.channel_layer.group_send(group_name(self.code), changed())

    async def receive(self, text_data=None, bytes_data=None):
        if text_data is None or len(text_data) > MAX_MESSAGE:
            await self.close(code=BAD)
            return
        if not self.allowance.take():
            self.dropped += 1
            if self.dropped >= DROPS_TO_CLOSE:
                await self.close(code=FLOOD)
            elif self.dropped == 1 or self.dropped % 20 == 0:
                await self.reply({"type": "slow"})
            return
        try:
            message = json.loads(text_data)
        except (ValueError, RecursionError):  # not JSON, or nested deeper than Python goes
            message = None
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self.reply({"type": "refused", "seq": None, "code": "bad_message"})
            return
        if message["type"] == "ping":
            if self.browser and await db(rooms.seen)(
                    code=self.code, browser=self.browser, event="ping"):
                await self.channel_layer.group_send(group_name(self.code), changed())
            await self.reply({"type": "pong"})
            return
        seq = message.pop("seq", None)
        action = {key: value for key, value in message.items() if key != "seat"}
        try:
            result = await db(self._intent)(seq, action)
        except rooms.RoomGone:
            await self.close(code=GONE)
            return
        if result.duplicate:
            await self.reply({"type": "duplicate", "seq": seq, "last_seq": result.last_seq})
        elif result.changed:
            await self.reply({"type": "ack", "seq": seq})
            await self.channel_layer.group_send(group_name(self.code), changed())
        else:
            await self.reply({"type": "refused", "seq": seq if isinstance(seq, int) else None,
                              "code": result.code, "message": str(result.message)})

    def _intent(self, seq, action: dict) -> rooms.Result:
        # The refusal is said in the device's language: the engines translate as they refuse.
        with translation.override(self.language):
            return rooms.intent(code=self.code, browser=self.browser or "", seq=seq,
                                action=action)

    async def room_changed(self, event):
        await self.push(event.get("stamp", ""))

    async def push(self, stamp: str = ""):
        """Send this device its page of the room, if it changed since the last one sent."""
        try:
            snap = await snapshot_for(self.code, stamp)
        except rooms.RoomGone:
            _snapshots.pop(self.code, None)
            await self.close(code=GONE)
            return
        planned = rooms.next_bot_action(snap)
        _set_bots(self.code, snap.version, planned[0] if planned else None)
        with translation.override(self.language):
            html = render_room(snap, self.browser)
        if html == self.sent:
            return
        self.sent = html
        seat = snap.seat_of(self.browser)
        await self.reply({"type": "state", "html": html, "version": snap.version,
                          "phase": snap.phase, "seat": seat.index if seat else None,
                          "last_seq": seat.last_seq if seat else 0, "ping": PING_EVERY})

    async def reply(self, data: dict):
        await self.send(text_data=json.dumps(data, ensure_ascii=False))
