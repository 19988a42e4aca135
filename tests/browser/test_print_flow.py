"""An editor prints Les 12 Coups de Midi: another card size, a fresh preview, the PDF
prepared as a job (in the request itself: no TASKS_BACKEND) and downloaded from its page."""

import io
import re

import pytest
from django.http import QueryDict
from playwright.sync_api import expect
from pypdf import PdfReader
from reportlab.lib.units import mm

from cms.models import Card, Status
from printing.forms import PrintForm
from printing.render import render
from printing.sheets import PAPERS
from tests.browser.conftest import LIVE_DATABASE, load_demo, log_in, screenshot_path
from tests.printing.conftest import flat

pytestmark = [pytest.mark.browser, LIVE_DATABASE]

RENDER_TIMEOUT = 60_000  # ms: the preview renders the whole PDF before showing its first sheet

JOB_PAGE = re.compile(r"/admin/travaux/[0-9a-f-]{36}/$")

# The options « Préparer le PDF » posts: the form's, without its CSRF token.
FORM_OPTIONS = """() => {
  const query = new URLSearchParams(new FormData(document.getElementById("plateau-print-form")));
  query.delete("csrfmiddlewaretoken");
  return query.toString();
}"""

PREVIEW_LOADED = """(wanted) => {
  const image = document.getElementById("plateau-print-preview");
  return image.src.includes(wanted) && image.complete && image.naturalWidth > 0;
}"""


def printed_by_the_engine(game: str, query: str) -> PdfReader:
    """Return the PDF the print engine makes of these options, read back."""
    form = PrintForm(QueryDict(query), game_slug=game, may_include_drafts=True)
    assert form.is_valid(), form.errors
    out = io.BytesIO()
    render(game, form.chosen_products, form.chosen_options, out=out,
           include_drafts=form.wants_drafts)
    return PdfReader(io.BytesIO(out.getvalue()))


def words(reader: PdfReader) -> str:
    return flat(" ".join(sheet.extract_text() for sheet in reader.pages))


def test_an_editor_changes_the_card_size_sees_the_preview_and_downloads_the_pdf(
    page, live_server, editor, tmp_path
):
    load_demo(tmp_path, "douze-coups")
    log_in(page, live_server, editor.username)
    page.goto(f"{live_server.url}/admin/jeux/douze-coups/")
    page.locator("#content-main").get_by_role("link", name="Imprimer").click()
    expect(page.locator("h1")).to_contain_text("Imprimer — Les 12 Coups de Midi")

    preview = page.locator("#plateau-print-preview")
    page.wait_for_function(PREVIEW_LOADED, arg="card=poker", timeout=RENDER_TIMEOUT)
    first = preview.get_attribute("src")

    page.get_by_label("Tarot (70 × 120 mm)").check()
    page.wait_for_function(PREVIEW_LOADED, arg="card=tarot", timeout=RENDER_TIMEOUT)
    assert preview.get_attribute("src") != first
    expect(page.locator("#plateau-print-problems")).to_be_empty()
    page.evaluate("window.scrollTo(0, 0)")  # sticky sidebars follow the scroll otherwise
    page.screenshot(path=screenshot_path("print-preview"), full_page=True)

    chosen = page.evaluate(FORM_OPTIONS)

    # « Préparer le PDF » queues the job; without a worker it runs before the page answers.
    page.get_by_role("button", name="Préparer le PDF").click()
    page.wait_for_url(JOB_PAGE, timeout=RENDER_TIMEOUT)
    expect(page.locator("h1")).to_contain_text("Impression — Les 12 Coups de Midi")
    expect(page.locator("#plateau-job-state")).to_have_text("Terminé")
    expect(page.locator("#content-main")).to_contain_text("Le fichier est supprimé le")
    link = page.get_by_role("link", name="Télécharger douze-coups-a4-tarot.pdf")
    page.screenshot(path=screenshot_path("print-job-done"), full_page=True)

    with page.expect_download() as download_info:
        link.click()
    download = download_info.value
    assert download.suggested_filename == "douze-coups-a4-tarot.pdf"
    pdf = PdfReader(download.path())

    # A4 sheets, with the demo's cards on them: the PDF the engine makes of these options.
    for sheet in pdf.pages:
        size = sorted((float(sheet.mediabox.width), float(sheet.mediabox.height)))
        assert size == pytest.approx(sorted(v * mm for v in PAPERS["a4"]), abs=0.5)
    read = words(pdf)
    title = Card.objects.filter(kind="coup-de-maitre", status=Status.PUBLISHED).first().title
    assert flat(title) in read
    assert "card=tarot" in chosen
    expected = printed_by_the_engine("douze-coups", chosen)
    assert len(pdf.pages) == len(expected.pages)
    assert read == words(expected)


def test_an_editor_who_types_an_impossible_bleed_reads_why_at_once(page, live_server, editor):
    log_in(page, live_server, editor.username)
    page.goto(f"{live_server.url}/admin/jeux/the-mind/imprimer/")
    page.wait_for_function(PREVIEW_LOADED, arg="bleed=0", timeout=RENDER_TIMEOUT)

    page.get_by_label("Fond perdu (mm)").fill("5")

    problems = page.locator("#plateau-print-problems")
    expect(problems).to_contain_text("Le fond perdu va de 0 à 3 mm.", timeout=RENDER_TIMEOUT)
    expect(page.locator("#plateau-print-preview")).to_be_hidden()
    page.screenshot(path=screenshot_path("print-impossible-bleed"), full_page=True)

    page.get_by_label("Fond perdu (mm)").fill("3")
    page.wait_for_function(PREVIEW_LOADED, arg="bleed=3", timeout=RENDER_TIMEOUT)
    expect(problems).to_be_empty()
