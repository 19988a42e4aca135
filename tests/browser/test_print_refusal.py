"""An editor whose download is refused keeps reading why while the preview reloads."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from cms.models import Card, Question, Status
from tests.browser.conftest import LIVE_DATABASE, load_demo, log_in, screenshot_path

pytestmark = [pytest.mark.browser, LIVE_DATABASE]

RENDER_TIMEOUT = 60_000  # ms: a preview renders a sheet of the PDF

# The preview of the options the form holds now has loaded as an image.
PREVIEW_OF_THE_FORM = """() => {
  const form = document.getElementById("plateau-print-form");
  const image = document.getElementById("plateau-print-preview");
  const query = new URLSearchParams(new FormData(form)).toString();
  return image.src.endsWith("?" + query) && image.complete && image.naturalWidth > 0
    && !image.hidden;
}"""

ONLY_COUP_PAR_COUP = """() => {
  const form = document.getElementById("plateau-print-form");
  for (const box of form.querySelectorAll("input[name=products]")) {
    box.checked = box.value === "coups-par-coup";
  }
  form.dispatchEvent(new Event("input", {bubbles: true}));
}"""

COUNT_PREVIEW_LOADS = """() => {
  window.previewLoads = 0;
  document.getElementById("plateau-print-preview")
    .addEventListener("load", () => { window.previewLoads += 1; });
}"""


def break_the_last_coup_par_coup_fiche() -> Question:
    """Put a question of the last fiche on a ladder step: an error, off the first sheet."""
    fiches = Card.objects.filter(kind="coup-par-coup", status=Status.PUBLISHED)
    last = fiches.order_by("title", "id").last()
    question = last.questions.first()
    Question.objects.filter(pk=question.pk).update(step=3)
    return question


def test_a_refused_download_keeps_its_reasons_on_screen_when_the_preview_reloads(
    page, live_server, editor, tmp_path
):
    load_demo(tmp_path, "douze-coups")
    question = break_the_last_coup_par_coup_fiche()
    question_url = reverse("admin:cms_question_change", args=[question.pk])
    log_in(page, live_server, editor.username)
    page.goto(f"{live_server.url}/admin/jeux/douze-coups/imprimer/")
    page.evaluate(ONLY_COUP_PAR_COUP)
    page.wait_for_function(PREVIEW_OF_THE_FORM, timeout=RENDER_TIMEOUT)
    problems = page.locator("#plateau-print-problems")
    expect(problems).to_be_empty()  # the first sheet's fiches are clean

    page.get_by_role("button", name="Télécharger le PDF").click()

    expect(problems).to_contain_text("Impression impossible", timeout=RENDER_TIMEOUT)
    reason = problems.locator(f'a[href="{question_url}"]')
    expect(reason).to_be_visible()
    page.wait_for_function(PREVIEW_OF_THE_FORM, timeout=RENDER_TIMEOUT)
    expect(reason).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=screenshot_path("print-refused-download"), full_page=True)

    # Options changed and changed back: the preview reloads for the refused options.
    page.evaluate(COUNT_PREVIEW_LOADS)
    marks = page.get_by_label("Traits de coupe", exact=True)
    marks.click()
    marks.click()
    page.wait_for_function("() => window.previewLoads > 0", timeout=RENDER_TIMEOUT)
    expect(reason).to_be_visible()

    # Other options with a clean preview: the refusal was about the old ones.
    marks.click()
    page.wait_for_function(PREVIEW_OF_THE_FORM, timeout=RENDER_TIMEOUT)
    expect(problems).to_be_empty()
