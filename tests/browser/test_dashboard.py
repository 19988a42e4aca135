"""A reader opens a game's dashboard from the admin home, on the demo library."""

import math

import pytest
from playwright.sync_api import expect

from cms.games import GAMES
from cms.models import Card, Status
from cms.rules import full_game_needs
from tests.browser.conftest import LIVE_DATABASE, load_demo, log_in, screenshot_path
from tests.browser.test_csp import ViolationLog

pytestmark = [pytest.mark.browser, LIVE_DATABASE]


def test_a_reader_sees_how_many_games_the_demo_deck_serves(page, live_server, reader, tmp_path):
    load_demo(tmp_path, "douze-coups")
    violations = ViolationLog(page)
    log_in(page, live_server, reader.username)
    page.get_by_role("link", name="Tableau de bord").first.click()
    expect(page.locator("h1")).to_contain_text("Tableau de bord")

    published = Card.objects.filter(kind="coup-d-envoi", status=Status.PUBLISHED).count()
    need = full_game_needs(GAMES["douze-coups"]).kinds["coup-d-envoi"]
    row = page.locator("tr", has=page.locator("th", has_text="Coups d’envoi"))
    cells = row.locator("td")
    expect(cells.nth(0)).to_have_text(str(published))
    expect(cells.nth(4)).to_have_text(str(need.p90))
    expect(cells.nth(5)).to_have_text(str(math.floor(published / need.mean)))
    expect(page.locator("meter").first).to_be_visible()
    page.screenshot(path=screenshot_path("dashboard-douze-coups"), full_page=True)
    violations.collect()
    assert violations.seen == []
