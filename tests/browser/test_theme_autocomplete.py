"""The question form's theme field suggests the themes of the game, accents aside."""

import pytest
from playwright.sync_api import expect

from cms import services, snapshots
from tests.browser.conftest import LIVE_DATABASE, log_in, screenshot_path
from tests.builders import make_question

pytestmark = [pytest.mark.browser, LIVE_DATABASE]


def theme(user, name, kind):
    question = make_question(kind)
    services.content_save(obj=question, data={**snapshots.of_object(question), "theme": name},
                          user=user)


def test_the_theme_field_suggests_the_game_s_themes_and_takes_a_new_one(page, live_server,
                                                                        editor):
    for name in ("Géographie", "Géométrie", "Gastronomie", "Histoire de l’art"):
        theme(editor, name, "echelle")
    theme(editor, "Géologie", "coup-de-maitre")  # another game's

    log_in(page, live_server, editor.username)
    page.goto(f"{live_server.url}/admin/cms/question/add/?kind=echelle")
    field = page.locator("#id_theme")
    field.fill("geo")
    suggestions = page.locator(".plateau-theme-suggestions li")
    expect(suggestions).to_have_text(["Géographie", "Géométrie"])
    page.screenshot(path=screenshot_path("theme-autocomplete"), full_page=False)

    field.press("ArrowDown")
    field.press("Enter")
    expect(field).to_have_value("Géographie")
    expect(page.locator(".plateau-theme-suggestions")).to_be_hidden()

    page.select_option("#id_kind", "coup-de-maitre")
    field.fill("GEO")
    expect(suggestions).to_have_text(["Géologie"])
    field.fill("Art")
    expect(suggestions).to_have_count(0)  # a new theme for this game: nothing to suggest


def test_the_theme_list_shows_each_theme_with_its_questions(page, live_server, editor,
                                                            reviewer):
    for name in ("Géographie", "Géographie", "Cinéma"):
        theme(editor, name, "echelle")

    log_in(page, live_server, reviewer.username)
    page.goto(f"{live_server.url}/admin/cms/theme/?game=millionnaire")
    rows = page.locator("#result_list tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.filter(has_text="Géographie")).to_contain_text("2")
    page.screenshot(path=screenshot_path("theme-list"), full_page=False)

    rows.filter(has_text="Géographie").locator("a").first.click()
    page.fill("#id_name", "Géographie du monde")
    page.click("input[name=_save]")
    expect(page.locator(".messagelist")).to_be_visible()
    expect(rows.filter(has_text="Géographie du monde")).to_contain_text("2")
