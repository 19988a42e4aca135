"""`manage.py worker` as production runs it: real processes over the test's own database.

The test queues jobs through the admin's pages (TASKS_BACKEND=database, as production), then
starts, kills and stops worker processes as a supervisor or an operator would. The workers
share the test's database, media folder and cache (a file cache on one machine, or Redis
when REDIS_URL is set), as the web and worker processes of one site do. Waits poll with
generous timeouts; nothing asserts how long anything took.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.test import Client
from django_tasks_db.models import DBTaskResult
from pypdf import PdfReader

from cms import jobs
from cms.models import Job, JobState, Question
from tests.cms.test_jobs import (
    downloaded,
    job_url,
    ladder_csv,
    ladder_row,
    pdf_text,
    published_ladder,
    queue_print,
    send_file,
    the_job,
    words,
)

# A running job beats every jobs.BEAT_SECONDS (2 s): silent for longer than this, it is taken
# for dead. Small, so that a killed worker's job is taken back soon; above two beats, so
# that a worker slowed down by a busy machine is not taken for dead.
STALE_SECONDS = 4
# Rows of the import the tests interrupt: enough for it to run a few seconds.
ROWS = 1200
# The workers see what this test commits; the tables are emptied afterwards, the roles that
# migrations made laid down again.
OVER_THE_TEST_DATABASE = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def database_url() -> str:
    """Return a DATABASE_URL naming the database this test runs on (the test database)."""
    params = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{Path(params['NAME']).resolve()}"
    if connection.vendor == "postgresql":
        user = quote(params.get("USER") or "", safe="")
        password = quote(params.get("PASSWORD") or "", safe="")
        login = f"{user}:{password}@" if password else (f"{user}@" if user else "")
        port = f":{params['PORT']}" if params.get("PORT") else ""
        host = params.get("HOST") or "localhost"
        return f"postgres://{login}{host}{port}/{quote(params['NAME'], safe='')}"
    raise AssertionError(f"no DATABASE_URL for a {connection.vendor} database")


def process_env(folder: Path, **variables) -> dict:
    """The environment of a manage.py process over the test's database and media."""
    env = {name: value for name, value in os.environ.items()
           if name not in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "TASKS_BACKEND")}
    env.update(DATABASE_URL=database_url(), PLATEAU_VAR_DIR=str(folder),
               MEDIA_ROOT=str(django_settings.MEDIA_ROOT), PYTHONUNBUFFERED="1")
    env.update(variables)
    return env


class Workers:
    """`manage.py worker` processes, each logging to a file of its own."""

    def __init__(self, folder: Path, env: dict):
        self.folder = folder
        self.env = env
        self.processes: dict[str, subprocess.Popen] = {}

    def start(self, name: str) -> subprocess.Popen:
        with open(self.folder / f"{name}.log", "w") as log:
            process = subprocess.Popen(
                [sys.executable, "manage.py", "worker", "--interval", "0.2",
                 "--sweep-every", "0.5"],
                cwd=django_settings.BASE_DIR, env=self.env, stdout=log,
                stderr=subprocess.STDOUT)
        self.processes[name] = process
        return process

    def log(self, name: str) -> str:
        return (self.folder / f"{name}.log").read_text()

    def logs(self) -> str:
        return "\n".join(f"--- {name} ---\n{self.log(name)}" for name in self.processes)

    def wait_until(self, condition, *, what: str, seconds: float = 180.0):
        """Poll `condition` until it holds; fail with the workers' logs if it never does."""
        deadline = time.monotonic() + seconds
        while True:
            value = condition()
            if value:
                return value
            if time.monotonic() > deadline:
                pytest.fail(f"{what}: not after {seconds:g} s\n{self.logs()}")
            time.sleep(0.05)

    def ended(self, name: str, *, seconds: float = 180.0) -> int:
        process = self.processes[name]
        self.wait_until(lambda: process.poll() is not None, what=f"{name} exits",
                        seconds=seconds)
        return process.returncode

    def kill_all(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.kill()
            process.wait(timeout=30)


@pytest.fixture
def workers(transactional_db, settings, tmp_path, _coverage_figures):
    """Start workers over this test's database; every one is killed when the test ends."""
    folder = tmp_path / "worker"
    folder.mkdir()
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    settings.PLATEAU_JOB_STALE_SECONDS = STALE_SECONDS
    if not settings.REDIS_URL:  # with Redis, both sides share it already
        settings.CACHES = {"default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(folder / "cache")}}
    started = Workers(folder, process_env(
        folder, TASKS_BACKEND="database", PLATEAU_JOB_STALE_SECONDS=str(STALE_SECONDS),
        PLATEAU_COVERAGE_DIR=str(_coverage_figures)))
    try:
        yield started
    finally:
        started.kill_all()


def signed_in(user) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def current(job) -> Job:
    return Job.objects.get(pk=job.pk)


def importing(job) -> bool:
    """Tell whether a run of the job is well into its rows (its progress, as its page shows)."""
    job = current(job)
    done, total = jobs.live_progress(job)
    return job.state == JobState.RUNNING and 0 < done < total


def queue_big_import(user) -> Job:
    job = the_job(send_file(signed_in(user), ladder_csv([ladder_row(n)
                                                         for n in range(1, ROWS + 1)])))
    assert job.state == JobState.QUEUED
    return job


def assert_imported_once(job) -> None:
    job = current(job)
    assert job.report == {"new": ROWS, "update": 0, "skip": 0, "dry_run": False}
    assert Question.objects.count() == ROWS
    assert Question.objects.values("ref").distinct().count() == ROWS


# --- the worker does the jobs ---------------------------------------------------------------


@OVER_THE_TEST_DATABASE
def test_a_queued_print_job_is_done_by_a_worker(workers, editor):
    questions = published_ladder(2)
    browser = signed_in(editor)
    job = the_job(queue_print(browser))
    assert current(job).state == JobState.QUEUED

    workers.start("worker")

    workers.wait_until(lambda: current(job).ended, what="the print job ends")
    assert (current(job).state, current(job).attempts) == (JobState.DONE, 1)
    download = browser.get(job_url(job, "cms_job_file"))
    assert download["Content-Disposition"] == 'attachment; filename="millionnaire-a4-poker.pdf"'
    pdf = downloaded(download)
    assert len(PdfReader(io.BytesIO(pdf)).pages) > 0
    assert all(words(question.text) in pdf_text(pdf) for question in questions)


@OVER_THE_TEST_DATABASE
def test_a_job_whose_worker_was_killed_is_finished_once_by_another(workers, editor):
    job = queue_big_import(editor)
    first = workers.start("first")
    workers.wait_until(lambda: importing(job), what="the first worker imports")

    first.kill()
    first.wait(timeout=30)

    assert (current(job).state, current(job).attempts) == (JobState.RUNNING, 1)
    assert not Question.objects.exists()  # its rows died with its transaction
    workers.start("second")
    workers.wait_until(lambda: current(job).ended, what="the second worker ends the job")
    assert (current(job).state, current(job).attempts) == (JobState.DONE, 2)
    assert_imported_once(job)
    assert "stopped beating" in workers.log("second")


@OVER_THE_TEST_DATABASE
def test_a_worker_told_to_stop_finishes_its_job_then_exits(workers, editor):
    job = queue_big_import(editor)
    worker = workers.start("worker")
    workers.wait_until(lambda: importing(job), what="the worker imports")

    worker.send_signal(signal.SIGTERM)

    assert workers.ended("worker") == 0
    assert (current(job).state, current(job).attempts) == (JobState.DONE, 1)
    assert_imported_once(job)


@OVER_THE_TEST_DATABASE
def test_a_worker_told_twice_to_stop_gives_its_job_back_at_once(workers, editor):
    job = queue_big_import(editor)
    worker = workers.start("worker")
    workers.wait_until(lambda: importing(job), what="the worker imports")
    worker.send_signal(signal.SIGTERM)
    workers.wait_until(lambda: "shutting down gracefully" in workers.log("worker"),
                       what="the worker hears the first signal")

    worker.send_signal(signal.SIGTERM)

    workers.ended("worker")
    job = current(job)
    assert (job.state, job.attempts) == (JobState.QUEUED, 1)
    assert not Question.objects.exists()
    waiting = DBTaskResult.objects.filter(status="READY")
    assert [task.args_kwargs["args"] for task in waiting] == [[str(job.pk)]]
    assert job.task_id == str(waiting.get().pk)


def test_the_worker_refuses_to_run_without_the_database_backend(tmp_path):
    env = {name: value for name, value in os.environ.items()
           if name not in ("DJANGO_SETTINGS_MODULE", "TASKS_BACKEND")}
    env["PLATEAU_VAR_DIR"] = str(tmp_path)

    result = subprocess.run([sys.executable, "manage.py", "worker"], cwd=django_settings.BASE_DIR,
                            env=env, capture_output=True, text=True, timeout=120)

    assert result.returncode != 0
    assert "TASKS_BACKEND=database est nécessaire" in result.stderr
