"""An editor who overwrote a question gets the earlier version back from its history."""

import pytest
from playwright.sync_api import expect

from cms.models import Question
from tests.browser.conftest import LIVE_DATABASE, log_in, screenshot_path
from tests.builders import make_question

pytestmark = [pytest.mark.browser, LIVE_DATABASE]

# Typed with French typography, as the site stores it (U+202F before « ? »).
FIRST = "Quel navigateur portugais a le premier doublé le cap de Bonne-Espérance\u202f?"
SECOND = "Texte écrasé par erreur"


def test_an_editor_restores_an_earlier_version_from_the_history(page, live_server, editor):
    question = make_question("echelle", step=3, difficulty=1, text="Brouillon de départ")
    log_in(page, live_server, editor.username)
    change = f"{live_server.url}/admin/cms/question/{question.pk}/change/"
    for text in (FIRST, SECOND):
        page.goto(change)
        page.fill("#id_text", text)
        page.click("input[name=_continue]")
        expect(page.locator(".messagelist")).to_contain_text("modifié")

    page.get_by_role("link", name="Historique").click()
    history = page.locator("#change-history")
    expect(history).to_contain_text(editor.username)
    # Versions are listed newest first: the second row is the save that wrote FIRST.
    history.locator("tbody tr").nth(1).locator("a").first.click()
    expect(page.locator("#id_text")).to_have_value(FIRST)
    page.screenshot(path=str(screenshot_path("history-revert")), full_page=True)
    page.click("input[name=_save]")

    question.refresh_from_db()
    assert question.text == FIRST
    assert question.propositions.count() == 4
    assert Question.objects.count() == 1
