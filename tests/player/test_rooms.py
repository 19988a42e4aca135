"""Rooms, as devices use them: pages to open and join, and the room's WebSocket (Channels'
communicator against the real ASGI application, Origin check included) on the real database.

What a device may see is read from every frame it receives: its own cards, and of the
others only how many they hold.
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
import time
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.db.models import F
from django.http import HttpResponse
from django.test import override_settings
from django.utils import timezone

from cms.asgi import application
from player import consumers, rooms
from player.models import Play, Room, Seat
from player.views import BROWSER_COOKIE, BROWSER_SALT

ORIGIN = b"http://127.0.0.1:8000"
# What a test of committed writes empties after it: the rooms' tables, not the editors'
# groups and the other rows the migrations made, which the next tests count on.
ROOM_APPS = ["player", "cms"]
CARD = re.compile(r'class="card[^"]*"[^>]*>(\d+)<')


def cookie(browser: str) -> str:
    """The signed cookie the player's pages give the device `browser`."""
    response = HttpResponse()
    response.set_signed_cookie(BROWSER_COOKIE, browser, salt=BROWSER_SALT)
    return response.cookies[BROWSER_COOKIE].value


def browser_client(client_class, browser: str):
    client = client_class()
    client.cookies[BROWSER_COOKIE] = cookie(browser)
    return client


class Device:
    """A phone in a room: its WebSocket, and every frame it has received."""

    def __init__(self, code: str, browser: str | None, origin: bytes | None = ORIGIN,
                 language: str = ""):
        headers = [(b"host", b"127.0.0.1:8000")]
        if origin is not None:
            headers.append((b"origin", origin))
        cookies = [f"{BROWSER_COOKIE}={cookie(browser)}"] if browser is not None else []
        if language:  # what the language button of the pages sets
            cookies.append(f"django_language={language}")
        if cookies:
            headers.append((b"cookie", "; ".join(cookies).encode()))
        self.socket = WebsocketCommunicator(application, f"/ws/salle/{code}/", headers)
        self.frames: list[dict] = []
        self.seq = 0

    async def connect(self):
        connected, close_code = await self.socket.connect()
        return connected, close_code

    async def receive(self, timeout=2.0) -> dict:
        frame = json.loads(await self.socket.receive_from(timeout=timeout))
        self.frames.append(frame)
        if frame["type"] == "state":  # as the page does: go on from the seat's last number
            self.seq = max(self.seq, frame["last_seq"])
        return frame

    async def until(self, test, timeout=5.0) -> dict:
        """Return the first frame from now on that passes `test`."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            frame = await self.receive(timeout=max(0.05, end - loop.time()))
            if test(frame):
                return frame

    async def state(self, test=lambda f: True, timeout=5.0) -> dict:
        return await self.until(lambda f: f["type"] == "state" and test(f), timeout)

    async def intent(self, seq=None, **action) -> dict:
        """Send an intent and return the server's answer to it."""
        if seq is None:
            self.seq += 1
            seq = self.seq
        await self.socket.send_json_to({"seq": seq, **action})
        return await self.until(lambda f: f["type"] in ("ack", "refused", "duplicate")
                                and f.get("seq") == seq)

    async def quiet(self, wait=0.3) -> bool:
        """Whether nothing arrives within `wait` seconds."""
        return await self.socket.receive_nothing(timeout=wait)

    async def close(self):
        await self.socket.disconnect()


async def at_table(code: str, *browsers: str) -> list[Device]:
    """Connect a device for each browser and read the room's first page on each."""
    devices = [Device(code, browser) for browser in browsers]
    for device in devices:
        assert (await device.connect())[0]
        await device.state()
    return devices


def hand(frame: dict) -> list[int]:
    """The cards a device's page shows in its hand."""
    html = frame["html"]
    part = html.split('class="hand"', 1)[1].split("</div>", 1)[0] if 'class="hand"' in html else ""
    return [int(n) for n in CARD.findall(part)]


def shown_cards(frame: dict) -> set[int]:
    return {int(n) for n in CARD.findall(frame["html"])}


# --- setting a room up, as the pages do -------------------------------------------------------

def open_room(*, humans=("ana", "bo"), bots=0, seed=11) -> str:
    room = rooms.create_room(game="the-mind", browser=humans[0])
    for browser in humans:
        rooms.join(code=room.code, name=browser.capitalize(), browser=browser)
    for _ in range(bots):
        rooms.add_bot(code=room.code, browser=humans[0])
    rooms.start(code=room.code, browser=humans[0], seed=seed)
    return room.code


def the_state(code: str) -> dict:
    return Room.objects.get(code=code).play.state


def set_state(code: str, **changes) -> None:
    play = Room.objects.get(code=code).play
    play.state = {**play.state, **changes}
    play.save()


def played(scenario):
    """Make a test of an async scenario of devices, run in the test's own thread: the
    consumers' database calls run there too, one after another. Each commits, as on a
    server (Channels closes a connection left inside a transaction): the tables are emptied
    after the test."""

    @functools.wraps(scenario)
    def test(*args, **kwargs):
        with override_settings(PLATEAU_ROOM_DB_THREADS=False):
            async_to_sync(scenario)(*args, **kwargs)

    return pytest.mark.django_db(transaction=True, available_apps=ROOM_APPS)(test)


# --- pages ------------------------------------------------------------------------------------

@pytest.mark.django_db
def test_a_host_opens_a_room_players_join_by_code_or_qr_and_the_host_starts(client_class=None):
    from django.test import Client

    host = browser_client(Client, "host-device")
    response = host.post("/salle/ouvrir/the-mind/")
    code = response.url.rstrip("/").rsplit("/", 1)[1]
    assert re.fullmatch(r"[BCDFGHJKLMNPQRSTVWXZ]{4}", code)
    page = host.get(f"/salle/{code}/").content.decode()
    assert code in page and f'src="/salle/{code}/qr.svg"' in page
    qr = host.get(f"/salle/{code}/qr.svg")
    assert qr["Content-Type"] == "image/svg+xml" and b"<svg" in qr.content
    # A phone types the code in lower case with a space, as people do.
    phone = browser_client(Client, "phone-device")
    found = phone.get("/salle/", {"code": f" {code[:2].lower()} {code[2:].lower()}"})
    assert found.url == f"/salle/{code}/"
    assert phone.post(f"/salle/{code}/", {"name": "  Léa  "}).status_code == 302
    host.post(f"/salle/{code}/", {"name": "Hôte"})
    assert [(s.index, s.name) for s in Seat.objects.filter(room__code=code)] == [
        (0, "Léa"), (1, "Hôte")]
    # A phone that joins again keeps its seat; a stranger cannot take a name already taken.
    phone.post(f"/salle/{code}/", {"name": "Autre"})
    assert Seat.objects.filter(room__code=code).count() == 2
    stranger = browser_client(Client, "stranger")
    refused = stranger.post(f"/salle/{code}/", {"name": "LÉA"})
    assert refused.status_code == 400 and "déjà ce nom" in refused.content.decode()
    # Only the host starts, adds bots.
    phone.post(f"/salle/{code}/lancer/")
    phone.post(f"/salle/{code}/robot-plus/")
    assert Room.objects.get(code=code).play is None
    assert not Seat.objects.filter(room__code=code, bot=True).exists()
    host.post(f"/salle/{code}/robot-plus/")
    host.post(f"/salle/{code}/lancer/")
    room = Room.objects.get(code=code)
    assert room.play.in_room and room.play.players == ["Léa", "Hôte", "Robot 1"]
    # Once the game is on, nobody joins, and the room's game is no one's one-screen game.
    late = stranger.post(f"/salle/{code}/", {"name": "Zoé"})
    assert late.status_code == 400 and Seat.objects.filter(room__code=code).count() == 3
    assert host.get(f"/partie/{room.play.token}/").status_code == 404
    assert room.play.token not in host.get("/").content.decode()


@pytest.mark.django_db
def test_a_room_seats_at_most_its_game_s_table_and_starts_with_at_least_its_least():
    room = rooms.create_room(game="the-mind", browser="h")
    rooms.join(code=room.code, name="Ana", browser="h")
    with pytest.raises(rooms.Refused) as caught:
        rooms.start(code=room.code, browser="h")
    assert caught.value.code == "players"
    for n in range(3):
        rooms.join(code=room.code, name=f"P{n}", browser=f"p{n}")
    with pytest.raises(rooms.Refused) as caught:
        rooms.join(code=room.code, name="Cinq", browser="p5")
    assert caught.value.code == "full"
    with pytest.raises(rooms.Refused):
        rooms.add_bot(code=room.code, browser="h")
    # Leaving before the start frees the seat; the seats after it move up.
    rooms.leave(code=room.code, browser="p0")
    assert [(s.index, s.name) for s in room.seats.all()] == [(0, "Ana"), (1, "P1"), (2, "P2")]


@pytest.mark.django_db
def test_an_unknown_code_says_so_and_a_game_without_rooms_has_none(client):
    response = client.get("/salle/", {"code": "ZZZZ"}, follow=True)
    assert "Aucune salle n’a le code « ZZZZ »" in response.content.decode()
    assert client.get("/salle/ZZZZ/").status_code == 404
    assert client.post("/salle/ouvrir/douze-coups/", follow=True).status_code == 200
    assert not Room.objects.exists()


@pytest.mark.django_db
def test_idle_rooms_are_cleaned_up_with_their_games_and_nothing_else():
    old = open_room(humans=("a1", "a2"))
    fresh = open_room(humans=("b1", "b2"))
    Room.objects.filter(code=old).update(active_at=timezone.now() - timedelta(hours=13))
    before = {p.pk: (p.version, p.state) for p in Play.objects.exclude(room__code=old)}
    seats = list(Seat.objects.filter(room__code=fresh).values())
    assert rooms.clean_idle() == 1 + 2 + 0  # the room and its two seats
    assert not Room.objects.filter(code=old).exists()
    assert {p.pk: (p.version, p.state) for p in Play.objects.all()} == before
    assert list(Seat.objects.filter(room__code=fresh).values()) == seats


# --- the WebSocket ----------------------------------------------------------------------------

@played
async def test_a_socket_from_another_site_is_refused_and_one_of_a_room_gone_is_told_so():
    code = await sync_to_async(open_room)()
    for origin in (b"http://evil.example", None):
        device = Device(code, "ana", origin=origin)
        connected, _ = await device.connect()
        assert not connected
    # A room that is gone (never opened, or cleaned up while a page was open): the page is
    # told so with the close code it shows « Cette salle n’existe plus » for, not turned
    # down at the handshake, which a browser only hears as a lost connection to retry.
    device = Device("QQQQ", "ana")
    connected, _ = await device.connect()
    assert connected
    closed = await device.socket.receive_output()
    assert closed == {"type": "websocket.close", "code": consumers.GONE}


@played
async def test_each_device_sees_its_own_hand_and_the_others_counts_only():
    code = await sync_to_async(open_room)(humans=("ana", "bo", "cy"))
    state = await sync_to_async(the_state)(code)
    devices = {name: Device(code, name) for name in ("ana", "bo", "cy")}
    watcher = Device(code, "tv")  # a device without a seat: the table's view
    for device in [*devices.values(), watcher]:
        assert (await device.connect())[0]
    for seat, name in enumerate(("ana", "bo", "cy")):
        frame = await devices[name].state()
        assert frame["seat"] == seat
        assert hand(frame) == state["hands"][seat]
    table = await watcher.state()
    assert table["seat"] is None and hand(table) == []
    # Every frame any device received shows no card of another hand.
    for seat, name in enumerate(("ana", "bo", "cy")):
        others = {c for n, cards in enumerate(state["hands"]) if n != seat for c in cards}
        for frame in devices[name].frames:
            if frame["type"] == "state":
                assert not shown_cards(frame) & others, (name, frame["html"])
    for device in [*devices.values(), watcher]:
        await device.close()


@played
async def test_intents_are_checked_applied_once_and_everyone_sees_the_pile():
    code = await sync_to_async(open_room)()
    ana, bo = await at_table(code, "ana", "bo")
    hands = (await sync_to_async(the_state)(code))["hands"]
    # Before every hand is on the table, nobody plays.
    refused = await ana.intent(type="play", card=hands[0][0])
    assert refused["type"] == "refused" and refused["code"] == "wrong_phase"
    assert "main" in refused["message"]
    assert (await ana.intent(type="ready"))["type"] == "ack"
    # The same intent sent again (a replay, a duplicate) is answered and applied once.
    again = await ana.intent(seq=ana.seq, type="ready")
    assert again["type"] == "duplicate" and again["last_seq"] == ana.seq
    older = await ana.intent(seq=1, type="shuriken")
    assert older["type"] == "duplicate"
    assert (await bo.intent(type="ready"))["type"] == "ack"
    await bo.state(lambda f: 'data-intent=\'{"type": "play"' in f["html"])
    # Ana forges Bo's seat: the server plays for the device's own seat, whatever it says.
    low_seat = 0 if hands[0][0] < hands[1][0] else 1
    player, other = (ana, bo) if low_seat == 0 else (bo, ana)
    answer = await player.intent(type="play", card=hands[low_seat][0], seat=1 - low_seat)
    assert answer["type"] == "ack"
    seen = await other.state(lambda f: f'data-top="{hands[low_seat][0]}"' in f["html"])
    assert hand(seen) == hands[1 - low_seat]
    state = await sync_to_async(the_state)(code)
    assert state["pile"] == [hands[low_seat][0]] and state["hands"][low_seat] == []
    # Hostile messages: refused, nothing changes.
    for message in ({"seq": "x", "type": "ready"}, {"seq": -1, "type": "ready"},
                    {"seq": 2**60, "type": "ready"}, {"seq": 99, "type": "play", "card": "abc"},
                    {"seq": 100, "type": "teleport"}, {"seq": 101, "type": "timeout"},
                    {"seq": 102, "type": "play", "card": "--5"},
                    {"seq": 103, "type": "play", "card": "-" + str(hands[1][0])}):
        await other.socket.send_json_to(message)
        frame = await other.until(lambda f: f["type"] in ("refused", "duplicate"))
        assert frame["type"] == "refused"
    # Not JSON, or JSON nested deeper than the parser goes: refused, the connection kept.
    for text in ("not json", "[" * 1000 + "]" * 1000):
        await other.socket.send_to(text_data=text)
        assert (await other.until(lambda f: f["type"] == "refused"))["code"] == "bad_message"
    assert await sync_to_async(the_state)(code) == state
    assert (await other.intent(seq=104, type="shuriken"))["type"] == "ack"  # still connected
    for device in (ana, bo):
        await device.close()


@played
async def test_a_card_played_too_soon_costs_a_life_on_every_device():
    code = await sync_to_async(open_room)()
    await sync_to_async(set_state)(code, hands=[[10, 60], [30, 90]], phase="playing",
                                   ready=[True, True], level=2)
    ana, bo = await at_table(code, "ana", "bo")
    lives = (await sync_to_async(the_state)(code))["lives"]
    # Bo plays 30 while Ana still holds 10: a life lost, Ana's 10 discarded.
    assert (await bo.intent(type="play", card=30))["type"] == "ack"
    for device in (ana, bo):
        frame = await device.state(lambda f: "trop tôt" in f["html"])
        assert f"{lives - 1} vie" in frame["html"]
    state = await sync_to_async(the_state)(code)
    assert state["lives"] == lives - 1 and state["hands"] == [[60], [90]]
    assert state["discarded"] == [{"seat": 0, "card": 10}]
    for device in (ana, bo):
        await device.close()


@played
async def test_a_device_that_drops_comes_back_to_its_seat_with_the_whole_state(settings):
    code = await sync_to_async(open_room)()
    ana, bo = await at_table(code, "ana", "bo")
    first = await ana.state(lambda f: "hors ligne" not in f["html"])
    assert (await ana.intent(type="ready"))["type"] == "ack"
    await ana.close()
    # The phone slept; the server forgot its timers (a restart): the seat and state stay.
    consumers._timers.clear()
    await bo.state(lambda f: "Ana" in f["html"] and "hors ligne" in f["html"])
    again = Device(code, "ana")
    await again.connect()
    back = await again.state()
    assert back["seat"] == 0 and hand(back) == hand(first)
    assert back["last_seq"] == 1  # the device goes on numbering its intents from there
    assert "main posée" in back["html"]
    assert (await again.intent(seq=1, type="ready"))["type"] == "duplicate"
    await bo.state(lambda f: "hors ligne" not in f["html"])
    for device in (again, bo):
        await device.close()


@played
async def test_bots_fill_the_empty_seats_and_play_on_their_own(settings):
    settings.PLATEAU_BOT_TEMPO = 1  # a hundredth of their pace: a level in a blink
    code = await sync_to_async(open_room)(humans=("ana",), bots=2)
    await sync_to_async(set_state)(code, hands=[[90], [5], [40]])
    ana = Device(code, "ana")
    await ana.connect()
    await ana.state()
    assert (await ana.intent(type="ready"))["type"] == "ack"
    # The bots put their hands down at once, then play 5 and 40 by themselves, in order.
    frame = await ana.state(lambda f: 'data-top="40"' in f["html"], timeout=5)
    assert 'data-intent=\'{"type": "play", "card": 90}\'' in frame["html"]
    state = await sync_to_async(the_state)(code)
    assert state["pile"] == [5, 40] and state["lives"] == 3
    assert (await ana.intent(type="play", card=90))["type"] == "ack"
    await ana.state(lambda f: "Niveau 1 réussi" in f["html"])
    await ana.close()


@played
async def test_bots_wait_for_a_player_whose_phone_slept(settings):
    settings.PLATEAU_BOT_TEMPO = 1
    code = await sync_to_async(open_room)(humans=("ana",), bots=1)
    await sync_to_async(set_state)(code, hands=[[90], [5]], phase="playing", ready=[True, True])
    seat = await sync_to_async(Seat.objects.get)(room__code=code, browser="ana")
    seat.seen_at, seat.left_at = timezone.now() - timedelta(seconds=5), timezone.now()
    await sync_to_async(seat.save)()
    watcher = Device(code, "tv")
    await watcher.connect()
    frame = await watcher.state()
    assert "La partie attend : Ana" in frame["html"]
    assert await watcher.quiet(0.5)  # the bot does not play while Ana is away
    assert (await sync_to_async(the_state)(code))["pile"] == []
    ana = Device(code, "ana")
    await ana.connect()
    await ana.state(lambda f: 'data-top="5"' in f["html"])
    for device in (ana, watcher):
        await device.close()


@played
async def test_a_flooding_device_is_slowed_alone_and_a_huge_message_closes_it():
    code = await sync_to_async(open_room)()
    ana, bo = await at_table(code, "ana", "bo")
    began = time.monotonic()
    for n in range(60):
        await ana.socket.send_json_to({"seq": 1000 + n, "type": "shuriken"})
    assert await ana.until(lambda f: f["type"] == "slow")
    # Bo, meanwhile, is answered at once.
    assert (await bo.intent(type="ready"))["type"] == "ack"
    handled = [f for f in ana.frames if f["type"] in ("refused", "ack", "duplicate")]
    # Her burst, and what her allowance regained while a busy machine worked through the 60.
    regained = consumers.RATE * (time.monotonic() - began)
    assert len(handled) <= consumers.BURST + regained + 2
    assert len(handled) < 60  # some were dropped, not all handled
    await bo.socket.send_to(text_data=json.dumps({"seq": 5, "type": "x" * 5000}))
    closed = await bo.socket.receive_output(timeout=2)
    while closed["type"] == "websocket.send":  # the pages of Ana's and Bo's hands put down
        closed = await bo.socket.receive_output(timeout=2)
    assert closed["type"] == "websocket.close" and closed["code"] == consumers.BAD
    await ana.close()


@pytest.mark.django_db
def test_a_bot_never_takes_a_person_s_name():
    room = rooms.create_room(game="the-mind", browser="h")
    rooms.join(code=room.code, name="Robot 1", browser="h")
    rooms.add_bot(code=room.code, browser="h")
    assert [s.name for s in room.seats.all()] == ["Robot 1", "Robot 2"]


@played
async def test_nobody_plays_while_a_player_is_offline_and_a_second_tab_changes_nothing():
    code = await sync_to_async(open_room)()
    await sync_to_async(set_state)(code, hands=[[10], [30]], phase="playing",
                                   ready=[True, True])
    ana, bo = await at_table(code, "ana", "bo")
    await ana.state(lambda f: "hors ligne" not in f["html"])  # Bo's phone came in after hers
    # Bo opens the room in a second tab and closes it: his first tab holds the seat, and
    # nobody's page changes.
    second = Device(code, "bo")
    await second.connect()
    await second.close()
    assert await ana.quiet(0.3)
    # His phone sleeps: the table waits for him, people included.
    await bo.close()
    await ana.state(lambda f: "La partie attend\u00a0: Bo" in f["html"])
    refused = await ana.intent(type="play", card=10)
    assert refused["code"] == "waiting" and "Bo" in refused["message"]
    assert (await sync_to_async(the_state)(code))["pile"] == []
    # He comes back: everyone sees it, and the game goes on.
    back = Device(code, "bo")
    await back.connect()
    await ana.state(lambda f: "hors ligne" not in f["html"])
    assert (await ana.intent(type="play", card=10))["type"] == "ack"
    for device in (ana, back):
        await device.close()


# --- Qui veut gagner des millions ?, party mode -----------------------------------------------

def millionnaire_room(humans=("ana", "bo", "cy")) -> str:
    from cms.models import Status
    from tests.builders import make_question

    for step in range(1, 16):
        for n in range(len(humans)):
            make_question("echelle", step=step, difficulty=2 if step <= 5 else 4,
                          status=Status.PUBLISHED, text=f"Marche {step}, question {n} ?",
                          propositions=[(f"Juste {step}-{n}", True, False),
                                        (f"Faux A{step}-{n}", False, False),
                                        (f"Faux B{step}-{n}", False, False),
                                        (f"Faux C{step}-{n}", False, False)])
    room = rooms.create_room(game="millionnaire", browser=humans[0])
    for browser in humans:
        rooms.join(code=room.code, name=browser.capitalize(), browser=browser)
    with pytest.raises(rooms.Refused):
        rooms.add_bot(code=room.code, browser=humans[0])
    rooms.start(code=room.code, browser=humans[0], seed=3)
    return room.code


@played
async def test_millionnaire_answers_stay_secret_until_all_are_revealed_together():
    code = await sync_to_async(millionnaire_room)()
    ana, bo, cy = await at_table(code, "ana", "bo", "cy")
    tv = Device(code, "tv")
    await tv.connect()
    await tv.state()
    state = await sync_to_async(the_state)(code)
    question = state["rounds"][0][0]
    right, wrong = question["right"], (question["right"] + 1) % 4
    q = question["id"]
    assert (await ana.intent(type="choose", question=q, choice=right))["code"] == "master"
    assert (await bo.intent(type="choose", question=q, choice=right))["type"] == "ack"
    assert (await bo.intent(type="confirm", question=q))["type"] == "ack"
    await cy.state(lambda f: "a répondu" in f["html"])  # Cy sees that Bo answered, not what
    assert (await cy.intent(type="choose", question=q, choice=wrong))["type"] == "ack"
    assert (await cy.intent(type="confirm", question=q))["type"] == "ack"
    letter = "ABCD"[right]
    for device in (ana, bo, cy, tv):
        frame = await device.state(lambda f: "La bonne réponse est" in f["html"])
        assert f"La bonne réponse est {letter}." in frame["html"]
        # Before it, no frame told anyone the right answer or another's choice.
        before = [f for f in device.frames if f["type"] == "state"
                  and "La bonne réponse est" not in f["html"]]
        assert before and not any('class="choice right' in f["html"] for f in before)
        if device in (ana, tv):  # the master and the screen saw no one's choice
            assert not any("choice chosen" in f["html"] for f in before)
    # The master moves on; Bo climbs, Cy is out with nothing.
    assert (await bo.intent(type="next", question=q))["code"] == "not_master"
    assert (await ana.intent(type="next", question=q))["type"] == "ack"
    await tv.state(lambda f: "Question 2 pour" in f["html"])
    state = await sync_to_async(the_state)(code)
    assert state["lines"][1]["won"] == 200 and state["lines"][2]["status"] == "out"
    for device in (ana, bo, cy, tv):
        await device.close()


@played
async def test_after_a_win_the_table_replays_blind_and_no_phone_sees_the_pile():
    code = await sync_to_async(open_room)()
    await sync_to_async(set_state)(code, phase="over", result="won", level=12,
                                   votes=[False, False], hands=[[], []])
    await sync_to_async(Play.objects.filter(room__code=code).update)(finished=True)
    ana, bo = await at_table(code, "ana", "bo")
    assert "Rejouer en mode aveugle" in ana.frames[-1]["html"]
    assert (await ana.intent(type="blind"))["type"] == "ack"
    await bo.state(lambda f: "partant pour le mode aveugle" in f["html"])
    assert (await bo.intent(type="blind"))["type"] == "ack"
    # The game is on again: every page draws itself again for it.
    await sync_to_async(set_state)(code, hands=[[10], [70]], phase="playing",
                                   ready=[True, True])
    await sync_to_async(Play.objects.filter(room__code=code).update)(version=F("version") + 1)
    for device in (ana, bo):
        await device.close()
    ana, bo = await at_table(code, "ana", "bo")
    assert (await bo.intent(type="play", card=70))["type"] == "ack"
    frame = await ana.state(lambda f: "1 carte posée face cachée" in f["html"])
    assert "70" not in frame["html"] and "data-top" not in frame["html"]
    assert (await ana.intent(type="play", card=10))["type"] == "ack"
    frame = await bo.state(lambda f: "La pile retournée" in f["html"])
    assert "70, 10" in frame["html"] and "une vie perdue" in frame["html"]
    for device in (ana, bo):
        await device.close()


@pytest.mark.django_db
def test_the_home_page_brings_a_host_and_a_player_back_to_their_rooms():
    from django.test import Client

    code = open_room(humans=("ana", "bo"))
    other = open_room(humans=("cy", "dan"))
    for browser in ("ana", "bo"):
        home = browser_client(Client, browser).get("/").content.decode()
        assert f'href="/salle/{code}/"' in home and f"/salle/{other}/" not in home
    assert 'href="/salle/' not in browser_client(Client, "stranger").get("/").content.decode()


@played
async def test_millionnaire_goes_on_while_a_contestant_is_offline_and_reveals_once_they_answer():
    code = await sync_to_async(millionnaire_room)()
    ana, bo = await at_table(code, "ana", "bo")  # Cy's phone is not there
    state = await sync_to_async(the_state)(code)
    q, right = state["rounds"][0][0]["id"], state["rounds"][0][0]["right"]
    assert "Hors ligne\u00a0: Cy." in bo.frames[-1]["html"]
    assert (await bo.intent(type="choose", question=q, choice=right))["type"] == "ack"
    assert (await bo.intent(type="confirm", question=q))["type"] == "ack"
    assert (await sync_to_async(the_state)(code))["phase"] == "answering"  # Cy's answer due
    cy = Device(code, "cy")
    await cy.connect()
    await cy.state()
    assert (await cy.intent(type="choose", question=q, choice=right))["type"] == "ack"
    assert (await cy.intent(type="confirm", question=q))["type"] == "ack"
    await ana.state(lambda f: "La bonne réponse est" in f["html"])
    for device in (ana, bo, cy):
        await device.close()


@played
async def test_bots_agree_to_the_blind_mode_after_a_win(settings):
    settings.PLATEAU_BOT_TEMPO = 1
    code = await sync_to_async(open_room)(humans=("ana",), bots=2)
    await sync_to_async(set_state)(code, phase="over", result="won", level=10,
                                   votes=[False, False, False], hands=[[], [], []])
    await sync_to_async(Play.objects.filter(room__code=code).update)(finished=True)
    ana = Device(code, "ana")
    await ana.connect()
    await ana.state(lambda f: f["html"].count("partant pour le mode aveugle") == 2)
    assert (await ana.intent(type="blind"))["type"] == "ack"
    state = await sync_to_async(the_state)(code)
    assert state["blind"] and state["level"] == 1
    await ana.close()


@pytest.mark.django_db
def test_a_host_stops_a_stuck_game_and_takes_a_player_who_left_off_their_seat():
    from django.test import Client

    code = open_room(humans=("ana", "bo", "cy"))
    host, bo = browser_client(Client, "ana"), browser_client(Client, "bo")
    # Only the host stops a game; the room goes back to the lobby with its seats.
    bo.post(f"/salle/{code}/abandonner/")
    assert Room.objects.get(code=code).play is not None
    host.post(f"/salle/{code}/abandonner/")
    room = Room.objects.get(code=code)
    assert room.play is None and not Play.objects.filter(in_room=True).exists()
    assert "Retirer Cy" in host.get(f"/salle/{code}/").content.decode()
    # Only the host removes a person, never themself; the seats after move up.
    bo.post(f"/salle/{code}/retirer/", {"place": "2"})
    host.post(f"/salle/{code}/retirer/", {"place": "0"})
    host.post(f"/salle/{code}/retirer/", {"place": "x"})
    assert [s.name for s in room.seats.all()] == ["Ana", "Bo", "Cy"]
    host.post(f"/salle/{code}/retirer/", {"place": "1"})
    assert [(s.index, s.name) for s in room.seats.all()] == [(0, "Ana"), (1, "Cy")]
    host.post(f"/salle/{code}/lancer/")
    assert Room.objects.get(code=code).play.players == ["Ana", "Cy"]


@played
async def test_a_refusal_is_said_in_the_device_s_language():
    code = await sync_to_async(open_room)()
    device = Device(code, "ana", language="en")
    assert (await device.connect())[0]
    await device.state()
    refused = await device.intent(type="ready")  # Bo's phone is not there yet
    assert refused["message"] == "The game is waiting for: Bo (offline)."
    await device.close()
