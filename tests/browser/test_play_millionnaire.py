"""A player climbs the millionnaire ladder in a real browser, on a phone and on a TV."""

import re

import pytest
from playwright.sync_api import expect

from player.models import Answer, Play
from tests.browser.conftest import LIVE_DATABASE, load_demo, screenshot_path

pytestmark = [pytest.mark.browser, LIVE_DATABASE]

LETTERS = "ABCD"
PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}


def the_game():
    return Play.objects.get()


def right_letter():
    """Return the letter of the right answer, as the server alone knows it."""
    state = the_game().state
    return LETTERS[state["questions"][state["step"] - 1]["right"]]


def wrong_letter():
    state = the_game().state
    question = state["questions"][state["step"] - 1]
    return next(LETTERS[i] for i in range(4)
                if i != question["right"] and i not in state["removed"])


def choose(page, letter):
    page.locator("button.choice", has_text=re.compile(rf"^\s*{letter}\b")).click()
    expect(page.locator("#last-word")).to_contain_text("dernier mot")
    page.get_by_role("button", name="Oui, dernier mot").click()


def start(page, live_server, name):
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name=re.compile("Qui veut gagner des millions")).click()
    page.get_by_label("Joueur 1").fill(name)
    page.get_by_role("button", name="Commencer la partie").click()
    expect(page.locator("#question-title")).to_be_visible()


def test_a_player_climbs_uses_the_three_jokers_and_falls_to_the_safe_level(
        browser, live_server, tmp_path):
    load_demo(tmp_path, "millionnaire")
    context = browser.new_context(viewport=PHONE, locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(10_000)
    start(page, live_server, "Camille")
    announce = page.locator("#announce")
    # Screen readers announce changes inside a live region, not a region swapped whole.
    page.evaluate("document.getElementById('announce').dataset.original = 'yes'")

    for step in range(1, 8):
        expect(page.locator(".step-line")).to_contain_text(f"Question {step} sur 15")
        if step == 2:
            page.get_by_role("button", name="50:50").click()
            expect(page.locator("span.choice.removed")).to_have_count(2)
        if step == 3:
            page.get_by_role("button", name="Vote du public").click()
            expect(page.locator(".votes li")).to_have_count(4)
            page.screenshot(path=screenshot_path("play-millionnaire-phone-public"),
                            full_page=True)
        if step == 4:
            page.get_by_role("button", name="Coup de fil à un ami").click()
            expect(page.locator(".friend")).to_contain_text("j’en suis sûr à")
            expect(page.get_by_role("button", name="Coup de fil à un ami")).to_be_disabled()
        if step < 7:
            choose(page, right_letter())
            expect(announce).to_contain_text("Bonne réponse")
            expect(announce).to_have_attribute("data-original", "yes")
            page.get_by_role("button", name="Question suivante").click()
        else:
            choose(page, wrong_letter())
    expect(page.locator("#verdict")).to_contain_text("Mauvaise réponse")
    expect(page.locator(".final")).to_contain_text("Camille repart avec 1\u202f500\u00a0€")
    page.screenshot(path=screenshot_path("play-millionnaire-phone-fell"), full_page=True)
    assert Answer.objects.filter(right=True).count() == 6
    assert Answer.objects.filter(right=False).count() == 1
    assert the_game().finished
    context.close()


def test_a_player_resumes_after_a_reload_and_walks_away_with_the_keyboard_alone(
        browser, live_server, tmp_path):
    load_demo(tmp_path, "millionnaire")
    context = browser.new_context(viewport=TV, locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(10_000)
    start(page, live_server, "Dominique")
    for step in range(1, 4):
        # The keyboard alone: focus moves to the buttons, Enter presses them.
        page.locator("button.choice", has_text=re.compile(rf"^\s*{right_letter()}\b")).focus()
        page.keyboard.press("Enter")
        expect(page.get_by_role("button", name="Oui, dernier mot")).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.get_by_role("button", name="Question suivante")).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.locator(".step-line")).to_contain_text(f"Question {step + 1} sur 15")
    page.screenshot(path=screenshot_path("play-millionnaire-tv"))

    page.reload()
    expect(page.locator(".step-line")).to_contain_text("Question 4 sur 15")
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name=re.compile("Dominique")).click()
    page.get_by_role("button", name=re.compile("M’arrêter avec 500")).click()
    expect(page.locator(".final")).to_contain_text("Dominique repart avec 500\u00a0€")
    context.close()


def test_a_move_on_an_expired_page_says_to_reload_and_changes_nothing(
        page, live_server, tmp_path):
    load_demo(tmp_path, "millionnaire")
    start(page, live_server, "Eugène")
    version = the_game().version
    # Logging in elsewhere renews the CSRF cookie: this page's token no longer matches.
    page.context.add_cookies([{"name": "csrftoken", "value": "x" * 32,
                               "url": live_server.url}])
    page.locator("button.choice").first.click()
    expect(page.locator("#trouble")).to_be_visible()
    expect(page.locator("#trouble")).to_contain_text("Rechargez-la")
    assert the_game().version == version
