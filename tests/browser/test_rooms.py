"""Rooms in real browsers: several phones (browser contexts) in one room of The Mind, against
real server processes (Daphne through `manage.py runserver`, as `make run` serves), two of
them sharing the room through Redis.

The test plays as careful people would: before playing, a person waits until their card
is the lowest at the table. The test reads who holds what from the server's database, as a
referee, never from a page; what each page received is checked frame by frame for cards of
other hands.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
from contextlib import closing, suppress
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from .conftest import screenshot_path

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
CARD = re.compile(r">(\d+)<")


def free_port() -> int:
    with closing(socket.socket()) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if process.poll() is not None:
            raise RuntimeError(f"the server on port {port} stopped: {process.returncode}")
        with closing(socket.socket()) as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"no server on port {port} after {seconds} s")


class Servers:
    """Server processes of the project over one SQLite file, and that file read as a referee."""

    def __init__(self, folder: Path, count: int, redis_url: str = "", demo: tuple = ()):
        self.folder = folder
        self.env = {**os.environ, "PLATEAU_VAR_DIR": str(folder), "PLATEAU_BOT_TEMPO": "10",
                    "DJANGO_SETTINGS_MODULE": "cms.settings", "PYTHONUNBUFFERED": "1"}
        self.env.pop("DATABASE_URL", None)
        self.env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        if redis_url:
            self.env["REDIS_URL"] = redis_url
            self.env["REDIS_PREFIX"] = f"plateau-test-{os.getpid()}"
        manage = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py")]
        subprocess.run([*manage, "migrate", "-v0"], env=self.env, check=True,
                       cwd=settings.BASE_DIR)
        if demo:  # these games' demo libraries, loaded as `make run` does
            (folder / "demo").mkdir()
            for game in demo:
                (folder / "demo" / game).symlink_to(Path(settings.BASE_DIR) / "fixtures" / game)
            subprocess.run([*manage, "load_demo", "--dir", str(folder / "demo")], env=self.env,
                           check=True, cwd=settings.BASE_DIR, stdout=subprocess.DEVNULL)
        self.ports = [free_port() for _ in range(count)]
        self.processes = []
        for port in self.ports:
            with open(folder / f"server-{port}.log", "w") as log:
                self.processes.append(subprocess.Popen(
                    [*manage, "runserver", "--noreload", f"127.0.0.1:{port}"],
                    env=self.env, cwd=settings.BASE_DIR, stdout=log, stderr=subprocess.STDOUT))
        for port, process in zip(self.ports, self.processes, strict=True):
            wait_for_port(port, process)

    def url(self, n: int = 0) -> str:
        return f"http://127.0.0.1:{self.ports[n]}"

    def state(self, code: str) -> dict:
        with closing(sqlite3.connect(self.folder / "db.sqlite3", timeout=20)) as db:
            row = db.execute("SELECT p.state FROM player_play p JOIN player_room r "
                             "ON r.play_id = p.id WHERE r.code = ?", (code,)).fetchone()
        return json.loads(row[0])

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            process.wait(timeout=10)


@pytest.fixture(scope="module")
def one_server(tmp_path_factory):
    servers = Servers(tmp_path_factory.mktemp("room-server"), 1, demo=("millionnaire",))
    yield servers
    servers.stop()


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    """CI's Redis (PLATEAU_TEST_REDIS_URL, see .ci/run), or one started here for the module."""
    given = os.environ.get("PLATEAU_TEST_REDIS_URL")
    if given:
        yield given
        return
    binary = shutil.which("redis-server")
    assert binary, "redis-server is missing: install Debian's redis-server (make system-deps)"
    port = free_port()
    process = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1",
                                "--save", "", "--appendonly", "no"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for_port(port, process)
    yield f"redis://127.0.0.1:{port}/0"
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture(scope="module")
def two_servers(tmp_path_factory, redis_url):
    servers = Servers(tmp_path_factory.mktemp("room-servers"), 2, redis_url)
    yield servers
    servers.stop()


class Phone:
    """A person's phone: its own browser context (its own cookie), every frame it received."""

    def __init__(self, browser, name: str, viewport=PHONE):
        self.name = name
        self.context = browser.new_context(viewport=viewport, locale="fr-FR")
        self.frames: list[dict] = []
        self.page = self.open_page()

    def open_page(self):
        page = self.context.new_page()
        page.set_default_timeout(15_000)
        page.on("websocket", lambda ws: ws.on(
            "framereceived", lambda payload: self.frames.append(json.loads(payload))))
        return page

    def join(self, url: str) -> None:
        self.page.goto(url)
        self.page.fill("#join-name", self.name)
        self.page.click("button:has-text('Prendre une place')")
        self.page.wait_for_selector(f".seat-row.me:has-text('{self.name}')")

    def hand(self) -> list[int]:
        html = self.page.inner_html(".hand") if self.page.query_selector(".hand") else ""
        return [int(n) for n in CARD.findall(html)]

    def close(self) -> None:
        self.context.close()


def open_room(servers: Servers, browser, host_name: str, *, port: int = 0) -> tuple[Phone, str]:
    host = Phone(browser, host_name)
    host.page.goto(servers.url(port) + "/")
    host.page.click("button:has-text('Ouvrir une salle de The Mind')")
    code = host.page.inner_text(".code-big strong")
    host.page.fill("#join-name", host_name)
    host.page.click("button:has-text('Prendre une place')")
    host.page.wait_for_selector(f".seat-row.me:has-text('{host_name}')")
    return host, code


def start(host: Phone, phones: list[Phone]) -> None:
    host.page.click("button:has-text('Lancer la partie')")
    for phone in phones:
        # Each page draws itself again for the game, then shows what its socket says.
        phone.page.wait_for_selector("#room[data-phase='playing'][data-version]")
        assert "Niveau 1 sur" in phone.page.inner_text("#live")
        phone.page.click("button:has-text('Poser la main sur la table')")


def play_carefully(servers: Servers, code: str, phones: dict[int, Phone], *, until_level: int):
    """Play as careful people until the table reaches `until_level`: each person plays when
    their lowest card is the lowest of all hands, and waits for the bots otherwise."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        state = servers.state(code)
        if state["level"] >= until_level or state["phase"] == "over":
            return state
        if state["phase"] == "concentrating":
            for seat, phone in phones.items():
                if not state["ready"][seat]:
                    ready = phone.page.locator("button:has-text('Poser la main sur la table')")
                    # The room may change under the finger: the state read again says.
                    with suppress(PlaywrightTimeout):
                        ready.click(timeout=3000)
            time.sleep(0.2)
            continue
        holders = [(cards[0], seat) for seat, cards in enumerate(state["hands"]) if cards]
        card, seat = min(holders)
        if seat in phones:
            phone = phones[seat]
            assert phone.hand()[0] == card  # the page shows the hand the server deals
            phone.page.click(f"button.card.playable:has-text('{card}')")
            phone.page.wait_for_selector(f"[data-top='{card}'], .level-won, .mistake")
        else:
            time.sleep(0.2)  # a bot's turn: a careful person waits for it
    raise AssertionError("the level did not end in two minutes")


def assert_no_other_hand_seen(phone: Phone, seat: int, states: list[dict]) -> None:
    """No frame this phone received during a deal shows a card of another hand of it."""
    for state in states:
        others = {c for s, cards in enumerate(state["hands"]) if s != seat for c in cards}
        level = f"Niveau {state['level']} sur"
        for frame in phone.frames:
            if frame.get("type") == "state" and level in frame["html"]:
                shown = {int(n) for n in re.findall(
                    r'class="card[^"]*"[^>]*>(\d+)<', frame["html"])}
                pile = {int(n) for n in re.findall(r'data-top="(\d+)"', frame["html"])}
                assert not (shown - pile) & others - set(state["pile"]) - {
                    d["card"] for d in state["discarded"]}, frame["html"]


def test_two_people_and_a_bot_clear_a_level_of_the_mind(one_server, browser):
    lea, code = open_room(one_server, browser, "Léa")
    hugo = Phone(browser, "Hugo")
    # Hugo types the code on the home page, in lower case.
    hugo.page.goto(one_server.url() + "/")
    hugo.page.fill("#room-code", code.lower())
    hugo.page.click("button:has-text('Rejoindre')")
    hugo.page.fill("#join-name", "Hugo")
    hugo.page.click("button:has-text('Prendre une place')")
    lea.page.wait_for_selector(".seat-row:has-text('Hugo')")  # Léa sees him arrive
    lea.page.click("button:has-text('Ajouter un robot')")
    hugo.page.wait_for_selector(".seat-row:has-text('Robot 1')")
    start(lea, [lea, hugo])
    first = one_server.state(code)
    assert lea.hand() == first["hands"][0] and hugo.hand() == first["hands"][1]
    state = play_carefully(one_server, code, {0: lea, 1: hugo}, until_level=2)
    assert state["level"] == 2 and state["lives"] == 3 and state["pile"] == []
    for phone in (lea, hugo):
        phone.page.wait_for_selector("text=Niveau 1 réussi")
        assert "Niveau 2 sur 10" in phone.page.inner_text("#live")
    lea.page.screenshot(path=screenshot_path("the-mind-level-won-phone"), full_page=True)
    second = one_server.state(code)
    assert_no_other_hand_seen(lea, 0, [first, second])
    assert_no_other_hand_seen(hugo, 1, [first, second])
    for phone in (lea, hugo):
        phone.close()


def test_a_phone_that_drops_comes_back_and_a_card_played_too_soon_costs_a_life(
        one_server, browser):
    ana, code = open_room(one_server, browser, "Ana")
    bo = Phone(browser, "Bo")
    bo.join(f"{one_server.url()}/salle/{code}/")
    start(ana, [ana, bo])
    ana.page.wait_for_selector("button.card.playable")
    hand = bo.hand()
    # Bo's phone sleeps: Ana sees it; Bo opens the room again and finds his seat and hand.
    bo.page.close()
    ana.page.wait_for_selector(".seat-row.offline:has-text('Bo')")
    bo.page = bo.open_page()
    bo.page.goto(f"{one_server.url()}/salle/{code}/")
    bo.page.wait_for_selector("button.card.playable")
    assert bo.hand() == hand
    ana.page.wait_for_selector(".seat-row:has-text('Bo'):not(.offline)")
    # The higher card goes first: a life lost on both phones, the lower card discarded.
    state = one_server.state(code)
    (low, low_seat), (high, high_seat) = sorted(
        (cards[0], seat) for seat, cards in enumerate(state["hands"]))
    players = {0: ana, 1: bo}
    players[high_seat].page.click(f"button.card.playable:has-text('{high}')")
    names = {0: "Ana", 1: "Bo"}
    for phone in (ana, bo):
        told = phone.page.inner_text(".mistake")
        assert f"{names[high_seat]} a posé le {high} trop tôt" in told
        assert f"{low} ({names[low_seat]})" in told
        assert "1 vie" in phone.page.inner_text(".status-line")
    ana.page.screenshot(path=screenshot_path("the-mind-mistake-phone"), full_page=True)
    after = one_server.state(code)
    # The lower card discarded, every hand is empty: level 1 is over all the same.
    assert after["lives"] == state["lives"] - 1 and after["level"] == 2
    assert after["news"][0]["discarded"] == [{"seat": low_seat, "card": low}]
    for phone in (ana, bo):
        phone.close()


def test_two_phones_on_two_server_processes_play_in_one_room_through_redis(
        two_servers, browser):
    # Ana reaches the first process, Bo the second: every play crosses Redis.
    ana, code = open_room(two_servers, browser, "Ana", port=0)
    bo = Phone(browser, "Bo")
    bo.join(f"{two_servers.url(1)}/salle/{code}/")
    ana.page.wait_for_selector(".seat-row:has-text('Bo')")
    start(ana, [ana, bo])
    state = play_carefully(two_servers, code, {0: ana, 1: bo}, until_level=3)
    assert state["level"] == 3 and state["lives"] == 2
    # Level 2's reward: a shuriken more, seen on both phones.
    for phone in (ana, bo):
        phone.page.wait_for_selector("text=Niveau 2 réussi : un shuriken de plus")
        assert "2 shurikens" in phone.page.inner_text(".status-line")
    for phone in (ana, bo):
        phone.close()


def test_a_party_of_millionnaire_with_a_shared_screen_and_three_phones(one_server, browser):
    # The TV opens the room and stays a screen; three phones take the seats.
    tv = Phone(browser, "TV", viewport={"width": 1400, "height": 900})
    tv.page.goto(one_server.url() + "/")
    tv.page.click("button:has-text('Ouvrir une salle de Qui veut gagner des millions')")
    code = tv.page.inner_text(".code-big strong")
    assert tv.page.query_selector("button:has-text('Ajouter un robot')") is None
    phones = [Phone(browser, name) for name in ("Léa", "Hugo", "Inès")]
    # On a phone too, the button that opens a room is the one a finger reaches (a trial
    # click fails if another card lies over it).
    phones[0].page.goto(one_server.url() + "/")
    phones[0].page.click("button:has-text('Ouvrir une salle de Qui veut gagner des millions')",
                         trial=True, timeout=3000)
    for phone in phones:
        phone.join(f"{one_server.url()}/salle/{code}/")
    tv.page.reload()
    tv.page.click("button:has-text('Lancer la partie')")
    tv.page.wait_for_selector("#room[data-phase='playing'][data-version]")
    lea, hugo, ines = phones
    for phone in phones:
        phone.page.wait_for_selector("#room[data-phase='playing'][data-version]")
    assert "maître du jeu\u00a0: Léa" in tv.page.inner_text(".status-line")
    state = one_server.state(code)
    right = "ABCD"[state["rounds"][0][0]["right"]]
    wrong = "ABCD"[(state["rounds"][0][0]["right"] + 1) % 4]

    def choose(phone, letter):
        phone.page.click(f"button.choice:has(b:text-is('{letter}'))")
        phone.page.click("button:has-text('Oui, dernier mot')")

    # Question 1: Hugo right, Inès wrong; both revealed together on every screen.
    choose(hugo, right)
    ines.page.wait_for_selector(".party-scores tr:has-text('Hugo') >> text=a répondu")
    assert "La bonne réponse" not in tv.page.inner_text("#live")
    choose(ines, wrong)
    for device in (tv, *phones):
        device.page.wait_for_selector(f"text=La bonne réponse est {right}.")
    tv.page.screenshot(path=screenshot_path("millionnaire-party-tv-reveal"), full_page=True)
    assert "la manche s’arrête là pour vous" in ines.page.inner_text(".mine")
    # Léa, the master, moves on; Hugo asks Inès (out, still a friend) and uses the 50:50.
    lea.page.click("button:has-text('Continuer')")
    hugo.page.wait_for_selector("text=Question 2 pour")
    hugo.page.click("button:has-text('Appeler Inès')")
    ines.page.wait_for_selector("text=Hugo vous appelle")
    state = one_server.state(code)
    right = "ABCD"[state["rounds"][0][1]["right"]]
    ines.page.click(f".asked button:text-is('{right}')")
    hugo.page.wait_for_selector(f"text=Votre ami répond\u00a0: {right}.")
    hugo.page.click("button.joker:has-text('50')")
    expect(hugo.page.locator(".choice.removed")).to_have_count(2)
    hugo.page.screenshot(path=screenshot_path("millionnaire-party-phone-jokers"), full_page=True)
    choose(hugo, right)
    tv.page.wait_for_selector(f"text=La bonne réponse est {right}.")
    # Hugo stops with 300 €: the round ends, Hugo becomes the master.
    lea.page.click("button:has-text('Continuer')")
    hugo.page.click("button:has-text('M’arrêter avec 300')")
    tv.page.wait_for_selector("text=s’arrête à 300")
    lea.page.click("button:has-text('Continuer')")
    tv.page.wait_for_selector("text=Manche 2 sur 3")
    assert "maître du jeu\u00a0: Hugo" in tv.page.inner_text(".status-line")
    assert "300" in tv.page.inner_text(".party-scores tr:has-text('Hugo')")
    for device in (tv, *phones):
        device.close()
