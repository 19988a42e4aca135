"""A real Chromium (Debian's) driven by Playwright against Django's live server."""

import io
import os
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from playwright.sync_api import sync_playwright

CHROMIUM = os.environ.get("PLATEAU_CHROMIUM", "/usr/bin/chromium")
# live_server needs committed data; keep the groups the migrations created between tests.
LIVE_DATABASE = pytest.mark.django_db(transaction=True, serialized_rollback=True)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def log_in(page, live_server, username, password="motdepasse-test"):
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("input[type=submit]")
    page.wait_for_url(f"{live_server.url}/admin/")


def screenshot_path(name: str) -> Path:
    """Return where a test keeps a screenshot for people to look at (var/screenshots/)."""
    folder = Path(__file__).resolve().parents[2] / "var" / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{name}.png"


def load_demo(tmp_path, game):
    """Load one game's demo library into the live database, as `make run` does."""
    folder = tmp_path / "demo"
    folder.mkdir()
    (folder / game).symlink_to(Path(settings.BASE_DIR) / "fixtures" / game)
    call_command("load_demo", dir=folder, stdout=io.StringIO())


def as_stored(text: str) -> str:
    """Return text typed on a keyboard (a plain space before « ? ! ; : ») as the admin
    stores it: French typography, a narrow no-break space before ? ! ; and a no-break
    space before :, and « n° 2 » held together by a no-break space."""
    text = re.sub(r"n° ?(?=\d)", "n°\u00a0", text)
    for mark in "?!;":
        text = text.replace(f" {mark}", f"\u202f{mark}")
    return text.replace(" :", "\u00a0:")
