"""Bulk edit in a real browser: the preview names the question a kind change would refuse
and writes nothing; other values, previewed again, are written."""

import pytest
from playwright.sync_api import expect

from cms.models import Question, Status
from tests.browser.conftest import LIVE_DATABASE, log_in, screenshot_path
from tests.builders import make_question

pytestmark = [pytest.mark.browser, LIVE_DATABASE]


def test_an_editor_previews_a_refused_bulk_edit_then_writes_another(page, live_server, editor):
    drafts = [make_question("echelle", step=2, difficulty=1, theme="Histoire") for _ in range(3)]
    published = make_question("echelle", step=2, difficulty=1, status=Status.PUBLISHED,
                              text="Question publiée ?")
    log_in(page, live_server, editor.username)
    page.goto(f"{live_server.url}/admin/cms/question/?game=millionnaire")
    page.check("#action-toggle")
    page.select_option("select[name=action]", "bulk_edit")
    page.click("button[name=index]")
    page.fill("#id_theme", "Géographie")
    page.select_option("#id_kind", "coup-d-envoi")
    page.click("input[name=_bulk_preview]")
    preview = page.locator("#plateau-bulk-preview")
    expect(preview.locator("tr").filter(has_text="Question publiée ?")).to_contain_text(
        "Le type d’un contenu publié ne change pas")
    expect(preview).to_contain_text("il faut 2 propositions, il y en a 4")
    expect(page.locator("input[name=_bulk_confirm]")).to_have_count(0)
    page.screenshot(path=str(screenshot_path("bulk-edit-preview")), full_page=True)
    assert {q.theme for q in Question.objects.all()} == {"Histoire", ""}

    page.select_option("#id_kind", "")
    page.select_option("#id_difficulty", "2")
    page.click("input[name=_bulk_preview]")
    page.click("input[name=_bulk_confirm]")
    expect(page.locator(".messagelist")).to_contain_text("4 questions modifiées")
    assert [(q.theme, q.difficulty) for q in Question.objects.filter(
        pk__in=[d.pk for d in drafts])] == [("Géographie", 2)] * 3
    published.refresh_from_db()
    assert published.difficulty == 1 and published.pending_correction().data["difficulty"] == 2
