"""Background jobs as editors and operators meet them: print jobs, big imports, their pages.

By default a job runs in the request that queues it (TASKS_BACKEND=immediate, development);
`queued_only` keeps its task in the database as production does, and `work_off_the_queue`
then plays the worker: django-tasks-db's own worker runs each waiting task in this process.
A dead worker is played by a run that claimed its job and then fell silent.
"""

from __future__ import annotations

import csv
import html
import io
import re
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth.models import Permission, User
from django.core.cache import cache
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult
from pypdf import PdfReader
from reversion.models import Revision, Version

from cms import change_log, jobs
from cms.games.millionnaire import LADDER
from cms.models import Job, JobState, Question, Status
from tests import builders
from tests.builders import make_question

# The print form's fields, as « Préparer le PDF » posts them: millionnaire's question cards.
QUESTIONS = {"products": "questions", "paper": "a4", "card": "poker", "backs": "long",
             "bleed": "0", "offset_x": "0", "offset_y": "0", "crop_marks": "on"}
LADDER_HEADERS = ["ref", "genre", "texte", "difficulte", "palier", "proposition_1",
                  "proposition_2", "proposition_3", "proposition_4", "bonnes", "statut"]
_CITIES = ("Amiens", "Brest", "Colmar", "Dijon", "Évreux", "Foix", "Gap", "Hyères", "Istres",
           "Jarnac", "Laval", "Mende", "Nancy", "Orléans", "Pau", "Quimper")


# --- content, files and pages ---------------------------------------------------------------


def published_ladder(count: int = 2) -> list[Question]:
    """Publish the first `count` steps of millionnaire's ladder, one question each."""
    return [make_question("echelle", step=step, difficulty=LADDER[step - 1].difficulty_band[0],
                          status=Status.PUBLISHED) for step in range(1, count + 1)]


def ladder_row(n: int, *, difficulty=1, text=None) -> list:
    """A valid draft « Qui veut gagner des millions ? » row, ref lot-<n>."""
    city = _CITIES[n % len(_CITIES)]
    return [f"lot-{n:04d}", "echelle",
            text or f"Dans quel département se trouve {city} (fiche {n}, code {n * 7919}) ?",
            difficulty, 1, f"{city} A", f"{city} B", f"{city} C", f"{city} D", "1", "brouillon"]


def csv_bytes(headers, rows) -> bytes:
    out = io.StringIO(newline="")
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow(headers)
    writer.writerows(rows)
    return out.getvalue().encode("utf-8")


def ladder_csv(rows) -> bytes:
    return csv_bytes(LADDER_HEADERS, rows)


def page_text(response) -> str:
    """The text a reader of the page sees, entities decoded, spaces collapsed."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", response.content.decode(), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def links(response) -> list[tuple[str, str]]:
    """The page's links: (address, text)."""
    return [(html.unescape(href), " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split()))
            for href, text in re.findall(r'<a\b[^>]*\bhref="([^"]*)"[^>]*>(.*?)</a>',
                                         response.content.decode(), flags=re.S)]


def job_url(job, name="cms_job") -> str:
    return reverse(f"admin:{name}", args=[job.pk])


def queue_print(client, slug="millionnaire", **changes):
    """Press « Préparer le PDF » on the print page with these options."""
    return client.post(reverse("printing:queue", args=[slug]), {**QUESTIONS, **changes})


def send_file(client, data: bytes, *, name="lot.csv", resource="questions", dry_run=False):
    """Send a file to « Importer un gros fichier »."""
    form = {"resource": resource, "format": "", "kind": "",
            "import_file": SimpleUploadedFile(name, data)}
    if dry_run:
        form["dry_run"] = "on"
    return client.post(reverse("admin:cms_job_import"), form)


def the_job(response) -> Job:
    """Return the job a form's redirect leads to."""
    assert response.status_code == 302, response.status_code
    path = urlsplit(response["Location"]).path
    return Job.objects.get(pk=path.rstrip("/").rsplit("/", 1)[-1])


def downloaded(response) -> bytes:
    # Read to its end, the test client's wrapper closes the file (and the response).
    return b"".join(response.streaming_content)


def words(text: str) -> str:
    """Collapse every kind of space (French typography's too), to compare text as words."""
    return " ".join(text.split())


def pdf_text(content: bytes) -> str:
    return words(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages))


def files_of(job) -> list[str]:
    """Every file the storage holds for a job, under travaux/<id>/."""
    found = []

    def walk(folder):
        if not default_storage.exists(folder):
            return
        dirs, files = default_storage.listdir(folder)
        found.extend(f"{folder}/{name}" for name in files)
        for name in dirs:
            walk(f"{folder}/{name}")

    walk(f"{jobs.FOLDER}/{job.pk}")
    return sorted(found)


# --- a worker, and its death ----------------------------------------------------------------


@pytest.fixture
def queued_only(settings):
    """Tasks wait in the database for a worker, as with TASKS_BACKEND=database."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    assert not jobs.runs_in_process()


def work_off_the_queue(worker_id="worker-1") -> int:
    """Run every waiting task as `manage.py worker` does (django-tasks-db's worker, its
    claim and its run of one task); return how many ran."""
    worker = Worker(queue_names=["default"], interval=0, batch=True, backend_name="default",
                    startup_delay=False, max_tasks=None, worker_id=worker_id,
                    excluded_queue_names=[])
    count = 0
    while (task := DBTaskResult.objects.ready().first()) is not None:
        task.claim(worker_id)
        worker.run_task(task)
        count += 1
    return count


def start_then_die(job) -> jobs.JobRun:
    """A worker takes the job's task and begins it (the job is claimed), then is killed."""
    task = DBTaskResult.objects.ready().get(pk=Job.objects.get(pk=job.pk).task_id)
    task.claim("doomed-worker")
    run = jobs.claim(str(job.pk))
    assert run is not None
    return run


def fall_silent(job, settings) -> None:
    """The job's run stopped beating long ago (its worker is dead)."""
    long_ago = settings.PLATEAU_JOB_STALE_SECONDS + 60
    cache.set(jobs.beat_key(job.pk), time.time() - long_ago)
    Job.objects.filter(pk=job.pk).update(started=timezone.now() - timedelta(seconds=long_ago))


def tasks_naming(job) -> list[DBTaskResult]:
    return [task for task in DBTaskResult.objects.all()
            if task.args_kwargs["args"] == [str(job.pk)]]


# --- printing: « Préparer le PDF » ----------------------------------------------------------


def test_a_print_job_makes_the_pdf_printpdf_makes_with_the_same_options(editor_client,
                                                                        tmp_path):
    questions = published_ladder(2)

    response = queue_print(editor_client)

    job = the_job(response)
    assert response["Location"] == job_url(job)
    assert (job.state, job.attempts, job.kind) == (JobState.DONE, 1, "print")
    page = editor_client.get(job_url(job))
    assert page.status_code == 200
    assert (f"/admin/travaux/{job.pk}/fichier/",
            "Télécharger millionnaire-a4-poker.pdf") in links(page)
    download = editor_client.get(job_url(job, "cms_job_file"))
    assert download.status_code == 200
    assert download["Content-Type"] == "application/pdf"
    assert download["Content-Disposition"] == 'attachment; filename="millionnaire-a4-poker.pdf"'
    pdf = downloaded(download)
    call_command("printpdf", "millionnaire", "questions", "--out", str(tmp_path / "cli.pdf"),
                 stdout=io.StringIO(), stderr=io.StringIO())
    pages = len(PdfReader(io.BytesIO(pdf)).pages)
    assert pages > 0
    assert pages == len(PdfReader(tmp_path / "cli.pdf").pages)
    assert all(words(question.text) in pdf_text(pdf) for question in questions)


def test_the_job_page_and_its_state_say_it_is_done(editor_client):
    published_ladder(1)

    job = the_job(queue_print(editor_client))
    state = editor_client.get(job_url(job, "cms_job_status"))

    assert state.status_code == 200
    assert "no-store" in state["Cache-Control"]
    assert state.json() == {
        "state": "done", "state_label": "Terminé", "done": job.total, "total": job.total,
        "percent": 100, "attempts": 1, "message": "", "ended": True,
        "file_url": job_url(job, "cms_job_file")}
    assert words(job.label) in page_text(editor_client.get(reverse("admin:cms_jobs")))


def test_impossible_options_answer_the_form_with_its_error_and_queue_nothing(editor_client):
    published_ladder(1)

    response = queue_print(editor_client, bleed="5")

    assert response.status_code == 422
    assert "Le fond perdu va de 0 à 3 mm." in page_text(response)
    assert not Job.objects.exists()


def test_a_refused_print_fails_listing_each_problem_with_a_link_to_fix_it(editor_client):
    published_ladder(3)
    Question.objects.filter(step__in=[1, 3]).update(text="Beaucoup trop long " * 80)
    overflowing = list(Question.objects.filter(step__in=[1, 3]))

    job = the_job(queue_print(editor_client))
    page = editor_client.get(job_url(job))

    assert job.state == JobState.FAILED
    assert not job.file and not files_of(job)
    assert "Rien n’est imprimé : 2 problèmes à corriger." in page_text(page)
    for question in overflowing:
        change = reverse("admin:cms_question_change", args=[question.pk])
        assert [text for href, text in links(page) if href == change] == [words(str(question))]
    assert {problem["code"] for problem in job.report["problems"]} == {"text_overflow"}


def test_a_failed_print_leads_back_to_the_same_options(editor_client):
    published_ladder(1)
    Question.objects.update(text="Beaucoup trop long " * 80)

    job = the_job(queue_print(editor_client, paper="letter", card="tarot", bleed="2"))
    page = editor_client.get(job_url(job))

    [back] = [href for href, text in links(page) if text == "Revenir aux options"]
    address = urlsplit(back)
    assert address.path == reverse("printing:print", args=["millionnaire"])
    assert parse_qs(address.query) == {name: [value] for name, value in {
        **QUESTIONS, "paper": "letter", "card": "tarot", "bleed": "2"}.items()}
    assert editor_client.get(back).context["form"].is_valid()


def test_staff_without_a_role_may_not_queue_a_print(client, db):
    published_ladder(1)
    client.force_login(User.objects.create_user("stagiaire", is_staff=True))

    assert queue_print(client).status_code == 403
    assert not Job.objects.exists()


def test_preparing_a_pdf_is_a_post(editor_client):
    response = editor_client.get(reverse("printing:queue", args=["millionnaire"]), QUESTIONS)

    assert response.status_code == 405
    assert not Job.objects.exists()


def test_preparing_a_pdf_needs_the_forms_csrf_token(editor):
    published_ladder(1)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(editor)

    forged = queue_print(browser)
    assert forged.status_code == 403
    assert not Job.objects.exists()

    form = browser.get(reverse("printing:print", args=["millionnaire"])).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    genuine = queue_print(browser, csrfmiddlewaretoken=token)
    assert the_job(genuine).state == JobState.DONE
    # The token is not one of the options kept to print again.
    assert "csrfmiddlewaretoken" not in Job.objects.get().params["query"]


# --- importing: « Importer un gros fichier » -----------------------------------------------


def test_an_import_job_writes_the_rows_keeps_a_revision_and_reports_its_counts(editor_client,
                                                                             editor):
    response = send_file(editor_client, ladder_csv([ladder_row(n) for n in range(1, 4)]))

    job = the_job(response)
    assert (job.state, job.kind, words(job.label)) == (JobState.DONE, "import",
                                                       "Import de « lot.csv »")
    assert sorted(Question.objects.values_list("ref", flat=True)) == [
        "lot-0001", "lot-0002", "lot-0003"]
    assert "Import terminé : 3 ajouté(s), 0 modifié(s), 0 inchangé(s)." in page_text(
        editor_client.get(job_url(job)))
    [revision] = Revision.objects.all()
    assert revision.user == editor
    kept = {version.object_id for version in Version.objects.get_for_model(Question)
            .filter(revision=revision)}
    assert kept == {str(pk) for pk in Question.objects.values_list("pk", flat=True)}


def test_an_import_job_reads_the_demo_json_file(reviewer_client):
    demo = Path(__file__).resolve().parents[2] / "fixtures" / "millionnaire" / "questions.json"
    rows = demo.read_bytes()

    job = the_job(send_file(reviewer_client, rows, name="questions.json"))

    assert job.state == JobState.DONE, job.message
    count = rows.count(b'"ref"')
    assert job.report == {"new": count, "update": 0, "skip": 0, "dry_run": False}
    assert Question.objects.filter(kind="echelle", status=Status.PUBLISHED).count() == count


def test_a_file_with_one_bad_row_imports_nothing_and_names_the_row(editor_client):
    rows = [ladder_row(1), ladder_row(2, difficulty="facile"), ladder_row(3)]

    job = the_job(send_file(editor_client, ladder_csv(rows)))

    assert job.state == JobState.FAILED
    assert not Question.objects.exists()
    text = page_text(editor_client.get(job_url(job)))
    assert "lot.csv : rien n’a été importé, 1 problème est à corriger." in text
    assert "Ligne 3, colonne « difficulte » : « facile » n’est pas un nombre" in text


def test_checking_only_writes_nothing(editor_client):
    job = the_job(send_file(editor_client, ladder_csv([ladder_row(1), ladder_row(2)]),
                            dry_run=True))

    assert (job.state, words(job.label)) == (JobState.DONE, "Vérification de « lot.csv »")
    assert not Question.objects.exists()
    assert not Revision.objects.exists()
    assert "Vérification terminée, rien n’est écrit : 2 ajouté(s)" in page_text(
        editor_client.get(job_url(job)))


def test_a_reader_may_not_import(reader_client):
    assert reader_client.get(reverse("admin:cms_job_import")).status_code == 403
    assert send_file(reader_client, ladder_csv([ladder_row(1)])).status_code == 403
    assert not Job.objects.exists() and not Question.objects.exists()


@pytest.mark.parametrize(("granted", "refused"), [("import_question", "cartes"),
                                                 ("import_card", "questions"),
                                                 ("import_card", "images")])
def test_one_import_right_does_not_open_the_other(client, db, granted, refused):
    user = User.objects.create_user("importeur", is_staff=True)
    user.user_permissions.add(Permission.objects.get(content_type__app_label="cms",
                                                     codename=granted))
    client.force_login(user)
    assert client.get(reverse("admin:cms_job_import")).status_code == 200

    response = send_file(client, ladder_csv([ladder_row(1)]), resource=refused)

    assert response.status_code == 422
    assert "Vous ne pouvez pas importer ce contenu." in page_text(response)
    assert not Job.objects.exists() and not Question.objects.exists()


def test_the_uploaded_file_is_kept_until_the_job_ends_then_deleted(
        editor_client, queued_only, django_capture_on_commit_callbacks):
    job = the_job(send_file(editor_client, ladder_csv([ladder_row(1)])))
    upload = job.upload
    assert upload.startswith(f"travaux/{job.pk}/") and default_storage.exists(upload)

    with django_capture_on_commit_callbacks(execute=True):
        work_off_the_queue()

    job.refresh_from_db()
    assert job.state == JobState.DONE
    assert not job.upload
    assert not default_storage.exists(upload)


def test_in_development_the_upload_is_deleted_as_the_request_ends(
        editor_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        job = the_job(send_file(editor_client, ladder_csv([ladder_row(1)])))

    assert job.state == JobState.DONE
    assert files_of(job) == []


# --- whose jobs -----------------------------------------------------------------------------


@pytest.fixture
def editors_print(editor):
    """A print job of the editor's, done: its PDF waits on its page."""
    published_ladder(1)
    browser = Client()
    browser.force_login(editor)
    return the_job(queue_print(browser))


def signed_in(user) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


@pytest.mark.parametrize("name", ["cms_job", "cms_job_status", "cms_job_file"])
def test_another_users_job_is_not_found(reviewer, editors_print, name):
    assert editors_print.owner != reviewer and not reviewer.is_superuser

    assert signed_in(reviewer).get(job_url(editors_print, name)).status_code == 404


def test_the_list_shows_a_user_their_own_jobs_only(reviewer, editors_print):
    browser = signed_in(reviewer)
    mine = the_job(send_file(browser, ladder_csv([ladder_row(1)])))

    text = page_text(browser.get(reverse("admin:cms_jobs")))

    assert words(mine.label) in text
    assert words(editors_print.label) not in text
    assert "redactrice" not in text


def test_a_superuser_sees_everyones_jobs_and_who_asked(editors_print, django_user_model):
    browser = signed_in(django_user_model.objects.create_superuser("chef", password="x"))

    listing = browser.get(reverse("admin:cms_jobs"))

    assert f"{words(editors_print.label)} {editors_print.owner}" in page_text(listing)
    assert browser.get(job_url(editors_print)).status_code == 200
    assert browser.get(job_url(editors_print, "cms_job_file")).status_code == 200


@pytest.mark.parametrize("name", ["cms_job", "cms_job_status", "cms_job_file"])
def test_anonymous_visitors_are_sent_to_log_in(client, editors_print, name):
    response = client.get(job_url(editors_print, name))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


def test_anonymous_visitors_are_sent_to_log_in_from_the_list(client, db):
    response = client.get(reverse("admin:cms_jobs"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


# --- never lost -----------------------------------------------------------------------------


def test_a_job_and_its_task_are_written_together(editor_client, queued_only):
    published_ladder(1)

    job = the_job(queue_print(editor_client))

    assert (job.state, job.attempts) == (JobState.QUEUED, 0)
    [task] = DBTaskResult.objects.all()
    assert (str(task.pk), task.status, task.args_kwargs["args"]) == (
        job.task_id, "READY", [str(job.pk)])
    assert "En attente d’un worker libre." in page_text(editor_client.get(job_url(job)))

    assert work_off_the_queue() == 1
    job.refresh_from_db()
    assert (job.state, job.attempts) == (JobState.DONE, 1)
    assert PdfReader(default_storage.open(job.file)).pages


def test_a_run_taken_back_from_a_dead_worker_cannot_finish_the_job(editor_client, queued_only,
                                                                    settings):
    published_ladder(1)
    job = the_job(queue_print(editor_client))
    dead = start_then_die(job)
    fall_silent(job, settings)

    jobs.sweep()

    job.refresh_from_db()
    assert (job.state, job.attempts) == (JobState.QUEUED, 1)
    with pytest.raises(jobs.Superseded):
        dead.complete()
    # Taken back, the job is waiting for the next worker in a task of its own.
    assert sorted(task.status for task in tasks_naming(job)) == ["READY", "RUNNING"]


def test_an_import_run_that_lost_its_job_writes_nothing_and_the_next_writes_once(
        editor_client, queued_only, settings):
    rows = [ladder_row(n) for n in range(1, 13)]
    job = the_job(send_file(editor_client, ladder_csv(rows)))
    slow = start_then_die(job)
    fall_silent(job, settings)
    jobs.sweep()

    slow.execute()  # it was only slow: it imports the whole file, then cannot end the job

    job.refresh_from_db()
    assert (job.state, job.attempts) == (JobState.QUEUED, 1)
    assert not Question.objects.exists()
    assert not Revision.objects.exists()

    work_off_the_queue()

    job.refresh_from_db()
    assert (job.state, job.attempts) == (JobState.DONE, 2)
    assert job.report["new"] == len(rows)
    assert Question.objects.count() == len(rows)
    assert Question.objects.values("ref").distinct().count() == len(rows)
    assert Revision.objects.count() == 1


def test_a_print_run_that_lost_its_job_leaves_no_file(editor_client, queued_only, settings):
    published_ladder(1)
    job = the_job(queue_print(editor_client))
    slow = start_then_die(job)
    fall_silent(job, settings)
    jobs.sweep()

    slow.execute()

    job.refresh_from_db()
    assert (job.state, job.file) == (JobState.QUEUED, "")
    assert files_of(job) == []
    work_off_the_queue()
    job.refresh_from_db()
    assert job.state == JobState.DONE
    assert files_of(job) == [job.file]
    assert job.file.startswith(f"travaux/{job.pk}/2/")


def test_a_job_interrupted_too_often_fails_saying_so(editor_client, queued_only, settings):
    settings.PLATEAU_JOB_MAX_ATTEMPTS = 2
    published_ladder(1)
    job = the_job(queue_print(editor_client))
    for _attempt in range(2):
        start_then_die(job)
        fall_silent(job, settings)
        jobs.sweep()

    work_off_the_queue()

    job.refresh_from_db()
    assert (job.state, job.attempts) == (JobState.FAILED, 2)
    assert not job.file
    assert ("Ce travail a été interrompu 2 fois (serveur arrêté ou redémarré) : il est "
            "abandonné. Relancez-le.") in page_text(editor_client.get(job_url(job)))


def test_the_job_page_takes_back_a_job_whose_worker_died(editor_client, queued_only,
                                                         settings):
    published_ladder(1)
    job = the_job(queue_print(editor_client))
    start_then_die(job)
    fall_silent(job, settings)

    state = editor_client.get(job_url(job, "cms_job_status")).json()

    assert (state["state"], state["attempts"]) == ("queued", 1)
    work_off_the_queue()
    job.refresh_from_db()
    assert (job.state, job.attempts) == (JobState.DONE, 2)


def test_a_job_taken_up_again_is_not_taken_for_dead_before_its_first_beat(
        editor_client, queued_only, settings):
    published_ladder(1)
    job = the_job(queue_print(editor_client))
    start_then_die(job)
    fall_silent(job, settings)  # the killed run's last beat stays in the cache
    editor_client.get(job_url(job, "cms_job_status"))  # queued again
    # A second worker claims it; before it beats, the maker's page asks again.
    task = DBTaskResult.objects.ready().get(pk=Job.objects.get(pk=job.pk).task_id)
    task.claim("second-worker")
    assert jobs.claim(str(job.pk)) is not None

    state = editor_client.get(job_url(job, "cms_job_status")).json()
    jobs.sweep()

    job.refresh_from_db()
    assert (state["state"], state["attempts"]) == ("running", 2)
    assert (job.state, job.attempts) == (JobState.RUNNING, 2)
    assert state["done"] == 0  # not the killed run's progress


def test_a_running_job_that_beats_is_left_alone(editor_client, queued_only, settings):
    published_ladder(1)
    job = the_job(queue_print(editor_client))
    start_then_die(job)
    Job.objects.filter(pk=job.pk).update(started=timezone.now() - timedelta(hours=1))
    cache.set(jobs.beat_key(job.pk), time.time())  # its worker is alive, the job long

    jobs.sweep()

    job.refresh_from_db()
    assert (job.state, job.attempts) == (JobState.RUNNING, 1)
    assert len(tasks_naming(job)) == 1


def test_a_queued_job_whose_task_was_lost_is_queued_again(editor_client, queued_only,
                                                          settings):
    published_ladder(1)
    job = the_job(queue_print(editor_client))
    DBTaskResult.objects.all().delete()
    Job.objects.filter(pk=job.pk).update(
        created=timezone.now() - timedelta(seconds=settings.PLATEAU_JOB_STALE_SECONDS + 60))

    jobs.sweep()

    [task] = tasks_naming(job)
    job.refresh_from_db()
    assert (task.status, job.task_id) == ("READY", str(task.pk))
    work_off_the_queue()
    job.refresh_from_db()
    assert (job.state, job.attempts) == (JobState.DONE, 1)


def test_a_queued_job_whose_task_waits_is_not_queued_twice(editor_client, queued_only,
                                                           settings):
    published_ladder(1)
    job = the_job(queue_print(editor_client))
    Job.objects.filter(pk=job.pk).update(
        created=timezone.now() - timedelta(seconds=settings.PLATEAU_JOB_STALE_SECONDS + 60))

    jobs.sweep()
    jobs.sweep()

    assert len(tasks_naming(job)) == 1
    assert work_off_the_queue() == 1


# --- files and records kept for a while -----------------------------------------------------


def test_the_sweep_deletes_an_expired_file_and_the_page_says_so(editor_client, editors_print):
    job = editors_print
    stored = job.file
    assert default_storage.exists(stored)
    assert job.expires > timezone.now() + timedelta(hours=23)
    Job.objects.filter(pk=job.pk).update(expires=timezone.now() - timedelta(minutes=1))

    jobs.sweep()

    assert not default_storage.exists(stored)
    job.refresh_from_db()
    assert (job.state, job.file) == (JobState.DONE, "")
    text = page_text(editor_client.get(job_url(job)))
    assert "Ce fichier a expiré et a été supprimé : relancez l’impression." in text
    assert "Télécharger" not in text
    assert editor_client.get(job_url(job, "cms_job_file")).status_code == 404
    assert "Fichier supprimé (expiré)" in page_text(editor_client.get(reverse("admin:cms_jobs")))


def test_the_sweep_keeps_a_file_until_it_expires(editors_print):
    jobs.sweep()

    assert default_storage.exists(Job.objects.get(pk=editors_print.pk).file)


def test_the_sweep_prunes_finished_tasks_older_than_the_keep_time(editor_client, queued_only,
                                                                 settings):
    published_ladder(1)
    old, recent = the_job(queue_print(editor_client)), the_job(queue_print(editor_client))
    work_off_the_queue()
    [old_task], [recent_task] = tasks_naming(old), tasks_naming(recent)
    assert {old_task.status, recent_task.status} == {"SUCCESSFUL"}
    DBTaskResult.objects.filter(pk=old_task.pk).update(
        finished_at=timezone.now() - timedelta(hours=settings.PLATEAU_JOB_KEEP_HOURS, minutes=1))

    jobs.sweep()

    assert list(DBTaskResult.objects.values_list("pk", flat=True)) == [recent_task.pk]
    # The job and its report stay: only the queue's record goes.
    assert editor_client.get(job_url(old)).status_code == 200


# --- the change log of an import -----------------------------------------------------------


def qualifs_row(n: int) -> list:
    """A valid draft question of Les Qualifs (Tout le monde veut prendre sa place)."""
    city = _CITIES[n % len(_CITIES)]
    return [f"qualifs-{n:04d}", "qualifs", f"Quelle ville est {city} (fiche {n}) ?", 2, "",
            city, f"{city} A", city, f"{city} C", f"{city} D", "2", "brouillon"]


def test_a_background_import_counts_one_generation_per_game_and_the_report_follows(
        editor_client, queued_only):
    twin = make_question("echelle", text="Quel fleuve arrose la ville de Lyon ?")
    problems = reverse("admin:cms_game_problems", args=["millionnaire"])
    assert "Même texte" not in page_text(editor_client.get(problems))  # the report is kept
    games = ("millionnaire", "prendre-sa-place", "douze-coups")
    before = {game: change_log.current(game).number for game in games}
    rows = [[*ladder_row(n)[:5], "", *ladder_row(n)[5:]] for n in range(1, 21)]
    rows.append([*ladder_row(21, text="Quel fleuve arrose la ville de Lyon ?")[:5], "",
                 *ladder_row(21)[5:]])
    rows += [qualifs_row(n) for n in range(1, 6)]
    headers = [*LADDER_HEADERS[:5], "reponse", *LADDER_HEADERS[5:]]
    job = the_job(send_file(editor_client, csv_bytes(headers, rows)))

    work_off_the_queue()

    job.refresh_from_db()
    assert job.state == JobState.DONE, job.report
    assert job.report["new"] == 26
    # One generation for each game the file wrote to, whatever its number of rows.
    assert {game: change_log.current(game).number - before[game] for game in games} == {
        "millionnaire": 1, "prendre-sa-place": 1, "douze-coups": 0}
    imported = Question.objects.get(ref="lot-0021")
    page = editor_client.get(problems)
    change = reverse("admin:cms_question_change", args=[imported.pk])
    assert change in [href for href, _text in links(page)]
    assert f"Même texte que la question « {twin}" in page_text(page)


# --- media and health -----------------------------------------------------------------------


def test_an_editor_sees_an_uploaded_image(editor_client):
    name = builders.test_image()

    response = editor_client.get(f"/media/{name}")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/")
    with default_storage.open(name, "rb") as stored:
        assert downloaded(response) == stored.read()
    assert "private" in response["Cache-Control"]


def test_an_anonymous_visitor_is_sent_to_log_in_for_an_image(client, db):
    name = builders.test_image()

    response = client.get(f"/media/{name}")

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


def test_staff_without_a_role_may_not_see_an_image(client, db):
    name = builders.test_image()
    client.force_login(User.objects.create_user("stagiaire", is_staff=True))

    assert client.get(f"/media/{name}").status_code == 403


@pytest.mark.parametrize("path", ["../secret_key", "%2e%2e/secret_key", "images/../../secret_key",
                                  ".cache", "images/.hidden.png", "nulle-part.png"])
def test_odd_or_unknown_media_paths_are_not_found(editor_client, path, settings):
    for name in (".cache", "images/.hidden.png"):
        default_storage.save(name, ContentFile(b"hidden"))
    (Path(settings.MEDIA_ROOT).parent / "secret_key").write_text("secret")

    assert editor_client.get(f"/media/{path}").status_code == 404


def test_a_jobs_file_is_served_by_its_job_page_only(editor_client, editors_print):
    assert default_storage.exists(editors_print.file)

    assert editor_client.get(f"/media/{editors_print.file}").status_code == 404
    assert editor_client.get(job_url(editors_print, "cms_job_file")).status_code == 200


def test_the_health_check_answers_without_the_database(client, db, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/sante/")

    assert response.status_code == 200
    assert response.content == b"ok\n"
    assert "no-cache" in response["Cache-Control"]
