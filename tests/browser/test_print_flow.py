"""An editor prints Les 12 Coups de Midi: another card size, a fresh preview, the PDF."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import LIVE_DATABASE, load_demo, log_in, screenshot_path

pytestmark = [pytest.mark.browser, LIVE_DATABASE]

RENDER_TIMEOUT = 60_000  # ms: the preview renders the whole PDF before showing its first sheet

PREVIEW_LOADED = """(wanted) => {
  const image = document.getElementById("plateau-print-preview");
  return image.src.includes(wanted) && image.complete && image.naturalWidth > 0;
}"""


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

    with page.expect_download(timeout=RENDER_TIMEOUT) as download_info:
        page.get_by_role("button", name="Télécharger le PDF").click()
    download = download_info.value
    assert download.suggested_filename == "douze-coups-a4-tarot.pdf"
    assert Path(download.path()).read_bytes().startswith(b"%PDF-")


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
