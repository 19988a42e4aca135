"""An editor whose print is refused reads why on the job's page, follows a reason to the
question to fix, and goes back to the print page with the options as they were."""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from cms.models import Card, Question, Status
from tests.browser.conftest import LIVE_DATABASE, load_demo, log_in, screenshot_path

pytestmark = [pytest.mark.browser, LIVE_DATABASE]

RENDER_TIMEOUT = 60_000  # ms: a preview renders a sheet of the PDF, the job the whole PDF

JOB_PAGE = re.compile(r"/admin/travaux/[0-9a-f-]{36}/$")

# The preview of the options the form holds now has loaded as an image.
PREVIEW_OF_THE_FORM = """() => {
  const form = document.getElementById("plateau-print-form");
  const image = document.getElementById("plateau-print-preview");
  const query = new URLSearchParams(new FormData(form));
  query.delete("csrfmiddlewaretoken");
  return image.src.endsWith("?" + query.toString()) && image.complete
    && image.naturalWidth > 0 && !image.hidden;
}"""

ONLY_COUP_PAR_COUP = """() => {
  const form = document.getElementById("plateau-print-form");
  for (const box of form.querySelectorAll("input[name=products]")) {
    box.checked = box.value === "coups-par-coup";
  }
  form.dispatchEvent(new Event("input", {bubbles: true}));
}"""

CHECKED_PRODUCTS = """() => Array.from(
  document.querySelectorAll("#plateau-print-form input[name=products]:checked"),
  (box) => box.value)"""


def break_the_last_coup_par_coup_fiche() -> Question:
    """Put a question of the last fiche on a ladder step: an error, off the first sheet."""
    fiches = Card.objects.filter(kind="coup-par-coup", status=Status.PUBLISHED)
    last = fiches.order_by("title", "id").last()
    question = last.questions.first()
    Question.objects.filter(pk=question.pk).update(step=3)
    return question


def test_a_refused_print_says_why_on_its_page_and_leads_back_to_the_same_options(
    page, live_server, editor, tmp_path
):
    load_demo(tmp_path, "douze-coups")
    question = break_the_last_coup_par_coup_fiche()
    question_url = reverse("admin:cms_question_change", args=[question.pk])
    print_url = f"{live_server.url}/admin/jeux/douze-coups/imprimer/"
    log_in(page, live_server, editor.username)
    page.goto(print_url)
    page.evaluate(ONLY_COUP_PAR_COUP)
    page.get_by_label("US Letter (216 × 279 mm)").check()
    page.get_by_label("Traits de coupe", exact=True).uncheck()
    page.get_by_label("Fond perdu (mm)").fill("2")
    page.wait_for_function(PREVIEW_OF_THE_FORM, timeout=RENDER_TIMEOUT)
    expect(page.locator("#plateau-print-problems")).to_be_empty()  # the first sheet is clean

    page.get_by_role("button", name="Préparer le PDF").click()

    # Without a worker the job ran before the page answered: refused, with its reasons.
    page.wait_for_url(JOB_PAGE, timeout=RENDER_TIMEOUT)
    expect(page.locator("#plateau-job-state")).to_have_text("Échoué")
    content = page.locator("#content-main")
    expect(content.locator(".errornote")).to_have_text(
        re.compile(r"^Rien n’est imprimé\s*: \d+ problèmes? à corriger\.$"))
    expect(content.get_by_role("link", name=re.compile("^Télécharger"))).to_have_count(0)
    reason = content.locator(f'.plateau-problems a[href="{question_url}"]')
    expect(reason).to_have_text(str(question))
    page.screenshot(path=screenshot_path("print-job-refused"), full_page=True)
    job_url = page.url

    # A reason leads to the question to fix.
    reason.click()
    page.wait_for_url(f"{live_server.url}{question_url}")
    expect(page.locator("#question_form")).to_be_visible()
    page.go_back()
    page.wait_for_url(job_url)

    # Back to the options: the same ones, and a preview of them.
    content.get_by_role("link", name="Revenir aux options").click()
    page.wait_for_url(re.compile(re.escape(print_url) + r"\?"))
    assert "csrfmiddlewaretoken" not in page.url
    assert page.evaluate(CHECKED_PRODUCTS) == ["coups-par-coup"]
    expect(page.get_by_label("US Letter (216 × 279 mm)")).to_be_checked()
    expect(page.get_by_label("A4 (210 × 297 mm)")).not_to_be_checked()
    expect(page.get_by_label("Poker (63 × 88 mm)")).to_be_checked()
    expect(page.get_by_label("Traits de coupe", exact=True)).not_to_be_checked()
    expect(page.get_by_label("Fond perdu (mm)")).to_have_value("2")
    page.wait_for_function(PREVIEW_OF_THE_FORM, timeout=RENDER_TIMEOUT)
    expect(page.locator("#plateau-print-problems")).to_be_empty()
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=screenshot_path("print-back-to-options"), full_page=True)
