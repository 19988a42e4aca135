"""A print job waiting for a worker: its page follows it live and shows its end by itself;
the list of jobs, reached from the sidebar, offers its PDF.

With TASKS_BACKEND=database a job waits in the database for `manage.py worker`. Here the
live server queues it so, and the test plays the worker: it takes the job, reports progress,
runs it, while the maker watches the page, never reloading it.
"""

import re

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader
from reportlab.lib.units import mm

from cms import jobs
from cms.models import Job
from printing.sheets import PAPERS
from tests.browser.conftest import LIVE_DATABASE, log_in, screenshot_path
from tests.printing.conftest import flat

pytestmark = [pytest.mark.browser, LIVE_DATABASE]

JOB_PAGE = re.compile(r"/admin/travaux/(?P<pk>[0-9a-f-]{36})/$")
FILE_NAME = "the-mind-a4-poker.pdf"

# Count the page's requests for the job's state; a reload starts again from nothing.
COUNT_POLLS = """() => {
  window.polls = 0;
  const fetchBefore = window.fetch;
  window.fetch = (url, options) => {
    if (String(url).endsWith("/etat.json")) window.polls += 1;
    return fetchBefore(url, options);
  };
}"""


@pytest.fixture
def jobs_wait_for_a_worker(settings):
    """Queue jobs in the database for a worker, as TASKS_BACKEND=database does: the live
    server's requests queue them without running them."""
    settings.TASKS_BACKEND = "database"
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def read_pdf(download) -> PdfReader:
    assert download.suggested_filename == FILE_NAME
    pdf = PdfReader(download.path())
    assert len(pdf.pages) > 1
    for sheet in pdf.pages:
        size = sorted((float(sheet.mediabox.width), float(sheet.mediabox.height)))
        assert size == pytest.approx(sorted(v * mm for v in PAPERS["a4"]), abs=0.5)
    # The Mind's number cards, 1 to 100.
    assert "100" in flat(" ".join(sheet.extract_text() for sheet in pdf.pages)).split()
    return pdf


def test_a_job_page_follows_a_queued_print_to_its_end_and_the_list_offers_its_pdf(
    page, live_server, editor, jobs_wait_for_a_worker
):
    log_in(page, live_server, editor.username)
    page.goto(f"{live_server.url}/admin/jeux/the-mind/imprimer/")
    page.get_by_role("button", name="Préparer le PDF").click()

    # Queued: nothing runs it yet.
    page.wait_for_url(JOB_PAGE)
    job = Job.objects.get(pk=JOB_PAGE.search(page.url)["pk"])
    content = page.locator("#content-main")
    state = page.locator("#plateau-job-state")
    bar = page.locator("#plateau-job-progress")
    count = page.locator("#plateau-job-count")
    expect(page.locator("h1")).to_contain_text("Impression — The Mind")
    expect(state).to_have_text("En attente")
    expect(bar).to_be_visible()
    expect(content).to_contain_text("Vous pouvez fermer cette page")
    expect(content).to_contain_text("En attente d’un worker libre")
    expect(content.get_by_role("link", name=re.compile("^Télécharger"))).to_have_count(0)
    expect(content.get_by_role("link", name="Revenir aux options")).to_have_count(0)
    page.screenshot(path=screenshot_path("job-queued"), full_page=True)

    # A worker takes it: the page sees the new state and shows it, with the progress so far.
    run = jobs.claim(str(job.pk))
    assert run is not None
    run.progress(1, 4)
    expect(state).to_have_text("En cours")
    expect(count).to_have_text("1 / 4")
    expect(bar).to_have_js_property("value", 1)
    expect(bar).to_have_js_property("max", 4)
    expect(content).not_to_contain_text("En attente d’un worker libre")

    # The progress moves on: the same page follows it, not reloaded.
    page.evaluate(COUNT_POLLS)
    page.wait_for_function("() => window.polls >= 1")  # a second since the page loaded
    run.progress(3, 4)
    expect(count).to_have_text("3 / 4")
    expect(bar).to_have_js_property("value", 3)
    assert page.evaluate("window.polls") >= 1
    expect(state).to_have_text("En cours")
    page.screenshot(path=screenshot_path("job-running"), full_page=True)

    # The worker prints it: the page reloads by itself to the end, the file to download.
    run.execute()
    expect(state).to_have_text("Terminé")
    assert page.evaluate("window.polls") is None  # a page of its own: it reloaded
    expect(bar).to_have_count(0)
    expect(content).to_contain_text("Le fichier est supprimé le")
    expect(content.get_by_role("link", name="Revenir aux options")).to_be_visible()
    link = content.get_by_role("link", name=f"Télécharger {FILE_NAME}")
    file_url = f"/admin/travaux/{job.pk}/fichier/"
    expect(link).to_have_attribute("href", file_url)
    page.screenshot(path=screenshot_path("job-done"), full_page=True)
    with page.expect_download() as download_info:
        link.click()
    read_pdf(download_info.value)

    # The sidebar's « Travaux en arrière-plan » leads to the list, which offers the PDF too.
    sidebar = page.locator("#nav-sidebar")
    expect(sidebar.get_by_role("link", name="Travaux en arrière-plan")).to_have_attribute(
        "href", "/admin/travaux/")
    sidebar.get_by_role("link", name="Mes travaux").click()
    page.wait_for_url(f"{live_server.url}/admin/travaux/")
    expect(page.locator("h1")).to_have_text("Travaux en arrière-plan")
    row = page.locator("tbody tr", has=page.locator(f'a[href="/admin/travaux/{job.pk}/"]'))
    expect(row).to_have_count(1)
    expect(row.get_by_role("link", name=re.compile("^Impression — The Mind"))).to_be_visible()
    expect(row).to_contain_text("Terminé")
    download_link = row.get_by_role("link", name="Télécharger")
    expect(download_link).to_have_attribute("href", file_url)
    page.screenshot(path=screenshot_path("jobs-list"), full_page=True)
    with page.expect_download() as download_info:
        download_link.click()
    read_pdf(download_info.value)
