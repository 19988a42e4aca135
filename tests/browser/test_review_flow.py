"""Two editors on one published question, in two real browsers: the second is refused and
keeps her text; her correction waits beside the live version until a Relecteur publishes it."""

import pytest
from playwright.sync_api import expect

from cms.models import CorrectionState, Question, Status
from tests.browser.conftest import LIVE_DATABASE, log_in, screenshot_path
from tests.builders import make_question

pytestmark = [pytest.mark.browser, LIVE_DATABASE]

# Typed with French typography, as the site stores it (U+202F before « ? »).
LIVE = "Quel fleuve traverse Lyon\u202f?"
REVIEWER_TEXT = "Quels fleuves traversent Lyon\u202f?"
EDITOR_TEXT = "Quel fleuve se jette dans le Rhône à Lyon\u202f?"


def test_a_stale_save_is_refused_then_the_correction_waits_for_review(
        browser, live_server, editor, reviewer):
    question = make_question("echelle", step=2, difficulty=1, text=LIVE,
                             status=Status.PUBLISHED)
    change = f"{live_server.url}/admin/cms/question/{question.pk}/change/"
    contexts = [browser.new_context(viewport={"width": 1400, "height": 1000}, locale="fr-FR")
                for _ in range(2)]
    her, him = (context.new_page() for context in contexts)
    for page, user in ((her, editor), (him, reviewer)):
        page.set_default_timeout(10_000)
        log_in(page, live_server, user.username)
        page.goto(change)

    # He saves first: a Relecteur's sound edit goes live at once.
    him.fill("#id_text", REVIEWER_TEXT)
    him.click("input[name=_continue]")
    expect(him.locator(".messagelist")).to_contain_text("modifié")
    # She saves from the older page: refused, her text kept, what changed shown.
    her.fill("#id_text", EDITOR_TEXT)
    her.click("input[name=_continue]")
    expect(her.locator(".errornote, .errorlist").first).to_be_visible()
    expect(her.locator("form#question_form")).to_contain_text("a été modifié par relecteur")
    expect(her.locator("form#question_form")).to_contain_text(REVIEWER_TEXT)
    expect(her.locator("#id_text")).to_have_value(EDITOR_TEXT)
    her.screenshot(path=str(screenshot_path("stale-edit-refused")), full_page=True)
    assert Question.objects.get(pk=question.pk).text == REVIEWER_TEXT

    # Having seen it, she saves again: published content, so it waits as a correction.
    her.click("input[name=_continue]")
    expect(her.locator("#plateau-correction")).to_contain_text("Proposée par redactrice")
    assert Question.objects.get(pk=question.pk).text == REVIEWER_TEXT

    # He sees the correction beside the live version and publishes it.
    him.goto(change)
    banner = him.locator("#plateau-correction")
    expect(banner).to_contain_text(REVIEWER_TEXT)
    expect(banner).to_contain_text(EDITOR_TEXT)
    expect(him.locator("#id_text")).to_have_value(EDITOR_TEXT)
    him.screenshot(path=str(screenshot_path("correction-pending")), full_page=True)
    him.click("input[name=_publish_correction]")
    expect(him.locator(".messagelist")).to_contain_text("Correction publiée")

    question.refresh_from_db()
    assert (question.text, question.status) == (EDITOR_TEXT, Status.PUBLISHED)
    assert question.corrections.get().state == CorrectionState.PUBLISHED

    # The history compares the two versions in French.
    him.goto(f"{live_server.url}/admin/cms/question/{question.pk}/history/")
    him.locator("#change-history tbody tr").nth(1).locator("input[name=b]").check()
    him.click("#plateau-compare input[type=submit]")
    expect(him.locator(".plateau-diff")).to_contain_text(REVIEWER_TEXT)
    expect(him.locator(".plateau-diff")).to_contain_text(EDITOR_TEXT)
    him.screenshot(path=str(screenshot_path("history-compare")), full_page=True)
    for context in contexts:
        context.close()
