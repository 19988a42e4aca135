"""Background jobs: big imports and print jobs, run by a worker, never lost, never run twice.

A job is a `cms.Job` row and a task of Django's tasks API (django-tasks), written in one
transaction. `TASKS_BACKEND=database` keeps the task in the database for `manage.py worker`;
in development the task runs in the request that queued it. The apps register what runs
each kind of job (`register`): `cms.import_jobs`, `printing.jobs`.

Never lost, never twice:
- a run claims the job (queued → running, one more attempt), and only the run that holds
  the last attempt may finish it (`JobRun.complete`, under the row's lock): an import's rows
  commit in the same transaction, so a run that lost its job writes nothing;
- a running job beats in the cache every BEAT_SECONDS; `sweep` queues again a job silent
  for PLATEAU_JOB_STALE_SECONDS (its worker was killed), and a queued job whose task was lost;
- a worker told twice to stop gives its job back to the queue at once;
- after PLATEAU_JOB_MAX_ATTEMPTS runs the job fails, saying so.
Finished files are deleted after PLATEAU_JOB_KEEP_HOURS; the job and its report stay.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import close_old_connections, connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import Truncator
from django.utils.translation import gettext as _
from django_tasks import DEFAULT_TASK_BACKEND_ALIAS, task, task_backends
from django_tasks.backends.immediate import ImmediateBackend

from .models import Job, JobState

logger = logging.getLogger(__name__)

BEAT_SECONDS = 2
FOLDER = "travaux"  # in the media storage: uploads read by jobs, files they made

Runner = Callable[["JobRun"], None]
RUNNERS: dict[str, Runner] = {}


def register(kind: str) -> Callable[[Runner], Runner]:
    """Register what runs the jobs of `kind` (once, from an app's `ready`)."""
    def decorate(runner: Runner) -> Runner:
        if RUNNERS.get(kind, runner) is not runner:
            raise RuntimeError(f"two runners for the jobs of kind {kind!r}")
        RUNNERS[kind] = runner
        return runner
    return decorate


class Superseded(Exception):
    """This run no longer holds its job: it was taken back and queued again."""


def runs_in_process() -> bool:
    """Tell whether tasks run in the request that queues them (no worker: development)."""
    return isinstance(task_backends[DEFAULT_TASK_BACKEND_ALIAS], ImmediateBackend)


# --- queueing -------------------------------------------------------------------------------


def queue(kind: str, *, owner, label: str, params: dict[str, Any] | None = None,
          upload: bytes | None = None, upload_name: str = "") -> Job:
    """Queue a job (with the file it reads) and return it; in development, run it first."""
    if kind not in RUNNERS:
        raise ValueError(f"no runner for the jobs of kind {kind!r}")
    job = Job(kind=kind, owner=owner, label=Truncator(label).chars(300), params=params or {})
    if upload is not None:
        suffix = "".join(c for c in upload_name.rsplit(".", 1)[-1].lower() if c.isalnum())[:8]
        job.upload = default_storage.save(f"{FOLDER}/{job.id}/entree.{suffix or 'bin'}",
                                          ContentFile(upload))
    try:
        with transaction.atomic():
            job.save(force_insert=True)
            if not runs_in_process():
                enqueue(job)  # the task commits with the job, or neither does
    except BaseException:
        if job.upload:
            default_storage.delete(job.upload)
        raise
    if runs_in_process():
        enqueue(job)
        job.refresh_from_db()
    return job


def enqueue(job: Job) -> None:
    result = run_job.enqueue(str(job.pk))
    if not runs_in_process():
        Job.objects.filter(pk=job.pk).update(task_id=str(result.id))


@task()
def run_job(job_id: str) -> None:
    """The task: claim the job, run it, finish it (or give it back when the worker stops)."""
    run = claim(job_id)
    if run is not None:
        run.execute()


def claim(job_id: str) -> JobRun | None:
    """Take a queued job for this run, or return None (ended, or another run has it)."""
    with transaction.atomic():
        job = Job.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.state != JobState.QUEUED:
            return None
        if job.attempts >= settings.PLATEAU_JOB_MAX_ATTEMPTS:
            end(job, JobState.FAILED, message=_(
                "Ce travail a été interrompu %(n)s fois (serveur arrêté ou redémarré) : "
                "il est abandonné. Relancez-le.") % {"n": job.attempts})
            return None
        job.state = JobState.RUNNING
        job.attempts += 1
        job.started = timezone.now()
        job.done = 0
        job.save(update_fields=["state", "attempts", "started", "done"])
    # A killed run's progress is not this one's.
    cache.delete(progress_key(job.pk))
    return JobRun(job)


def end(job: Job, state: str, *, message: str = "", report: dict | None = None,
        file: str = "", file_name: str = "") -> None:
    """Write a job's end (inside the caller's transaction, the row locked)."""
    now = timezone.now()
    job.state = state
    job.finished = now
    job.message = message
    job.report = report or {}
    job.file = file
    job.file_name = file_name
    job.expires = now + timedelta(hours=settings.PLATEAU_JOB_KEEP_HOURS) if file else None
    if state == JobState.DONE:
        job.done = max(job.done, job.total)
    job.save()
    if job.upload:
        upload, job.upload = job.upload, ""
        Job.objects.filter(pk=job.pk).update(upload="")
        transaction.on_commit(lambda: default_storage.delete(upload))


# --- a run ----------------------------------------------------------------------------------


def beat_key(job_id) -> str:
    return f"job:{job_id}:beat"


def progress_key(job_id) -> str:
    return f"job:{job_id}:progress"


class JobRun:
    """One run of a job: what a runner reports its progress and its end through."""

    def __init__(self, job: Job):
        self.job = job
        self.attempt = job.attempts
        self.finished = False
        self._stop = threading.Event()
        self._last_progress = 0.0

    # What runners call.

    def progress(self, done: int, total: int) -> None:
        """Say how far the job is (cheap: written to the cache at most a few times a second)."""
        now = time.monotonic()
        if now - self._last_progress < 0.25 and done < total:
            return
        self._last_progress = now
        self.job.done, self.job.total = done, total
        cache.set(progress_key(self.job.pk), (done, total), timeout=24 * 3600)

    def complete(self, *, failed: bool = False, message: str = "", report: dict | None = None,
                 file: str = "", file_name: str = "") -> None:
        """End the job, if this run still holds it (else raise Superseded).

        Call it inside the transaction of the job's writes: they commit with its end.
        """
        with transaction.atomic():
            job = Job.objects.select_for_update().get(pk=self.job.pk)
            if job.state != JobState.RUNNING or job.attempts != self.attempt:
                raise Superseded(str(job.pk))
            job.done, job.total = self.job.done, self.job.total
            end(job, JobState.FAILED if failed else JobState.DONE, message=message,
                report=report, file=file, file_name=file_name)
            self.job = job
        self.finished = True

    def save_file(self, name: str, content) -> str:
        """Store a result file of this run (a PDF, a report) and return its storage name."""
        return default_storage.save(f"{FOLDER}/{self.job.pk}/{self.attempt}/{name}", content)

    # The run itself.

    def execute(self) -> None:
        beating = threading.Thread(target=self._beat, name=f"job-{self.job.pk}", daemon=True)
        self._beat_once()
        beating.start()
        try:
            RUNNERS[self.job.kind](self)
            if not self.finished:
                self.complete()
        except Superseded:
            logger.warning("Job %s was taken back from this run (attempt %s): its work is "
                           "discarded.", self.job.pk, self.attempt)
        except Exception:
            logger.exception("Job %s failed", self.job.pk)
            with contextlib.suppress(Superseded):
                self.complete(failed=True, message=_(
                    "Une erreur inattendue a arrêté ce travail ; elle est notée dans le journal "
                    "du serveur. Relancez-le, ou prévenez l’administrateur si elle revient."))
        except BaseException:
            # The worker is stopping now (a second SIGTERM, Ctrl-C): hand the job back.
            self.give_back()
            raise
        finally:
            self._stop.set()
            cache.delete(beat_key(self.job.pk))

    def give_back(self) -> None:
        """Queue the job again at once, if this run still holds it."""
        # The interruption may have landed inside the database driver: start afresh.
        connection.close()
        try:
            with transaction.atomic():
                job = Job.objects.select_for_update().get(pk=self.job.pk)
                if job.state == JobState.RUNNING and job.attempts == self.attempt:
                    job.state = JobState.QUEUED
                    job.save(update_fields=["state"])
                    if not runs_in_process():
                        enqueue(job)
                    logger.warning("Job %s given back to the queue.", job.pk)
        except Exception:
            logger.exception("Job %s could not be given back; the sweep will take it back.",
                             self.job.pk)

    def _beat_once(self) -> None:
        cache.set(beat_key(self.job.pk), time.time(),
                  timeout=settings.PLATEAU_JOB_STALE_SECONDS * 4)

    def _beat(self) -> None:
        while not self._stop.wait(BEAT_SECONDS):
            try:
                self._beat_once()
            except Exception:  # the cache is down for a moment: the next beat will tell
                logger.warning("Job %s: could not write its beat", self.job.pk, exc_info=True)


# --- what a page shows ----------------------------------------------------------------------


def live_progress(job: Job) -> tuple[int, int]:
    """Return (done, total): the cache's while the job runs, the row's once it ended."""
    if job.state == JobState.RUNNING:
        found = cache.get(progress_key(job.pk))
        if found:
            return found
    return job.done, job.total


def seems_dead(job: Job, *, now: float | None = None) -> bool:
    """Tell whether a running job has stopped beating for PLATEAU_JOB_STALE_SECONDS."""
    if job.state != JobState.RUNNING:
        return False
    now = time.time() if now is None else now
    # The last sign of life of this run: its latest beat, or its claim. A beat older than the
    # claim is a killed run's, left in the cache: the new run has not beaten yet.
    started = job.started.timestamp() if job.started else 0
    last = max(cache.get(beat_key(job.pk)) or 0, started)
    return now - last > settings.PLATEAU_JOB_STALE_SECONDS


# --- the sweep ------------------------------------------------------------------------------


def take_back(job: Job) -> None:
    """A running job's run is gone: queue the job again (or, without workers, fail it)."""
    with transaction.atomic():
        job = Job.objects.select_for_update().get(pk=job.pk)
        if job.state != JobState.RUNNING or not seems_dead(job):
            return
        if runs_in_process():
            # No worker to run it again: the server that ran it in a request stopped.
            end(job, JobState.FAILED, message=_(
                "Le serveur s’est arrêté pendant ce travail : il n’a rien écrit. Relancez-le."))
            return
        job.state = JobState.QUEUED
        job.save(update_fields=["state"])
        enqueue(job)
    logger.warning("Job %s stopped beating (attempt %s): queued again.", job.pk, job.attempts)


def take_back_stale(jobs=None) -> int:
    """Queue again every running job that stopped beating; return how many."""
    count = 0
    for job in (jobs if jobs is not None else Job.objects.filter(state=JobState.RUNNING)):
        if seems_dead(job):
            take_back(job)
            count += 1
    return count


def queue_lost() -> int:
    """Queue again the queued jobs whose task is gone or ended without running them."""
    if runs_in_process():
        return 0
    from django_tasks_db.models import DBTaskResult

    count = 0
    grace = timezone.now() - timedelta(seconds=settings.PLATEAU_JOB_STALE_SECONDS)
    # A task still waiting, or begun lately: a queued job's task running for longer lost
    # its worker before the job was claimed.
    live = DBTaskResult.objects.filter(
        Q(status="READY") | Q(status="RUNNING", started_at__gte=grace))
    for job in Job.objects.filter(state=JobState.QUEUED, created__lt=grace):
        with transaction.atomic():
            locked = Job.objects.select_for_update().get(pk=job.pk)
            if locked.state != JobState.QUEUED or live.filter(pk=locked.task_id).exists():
                continue
            enqueue(locked)
            count += 1
            logger.warning("Job %s had lost its task: queued again.", job.pk)
    return count


def expire_files(*, now=None) -> int:
    """Delete the files of jobs past their expiry; return how many."""
    now = now or timezone.now()
    count = 0
    for job in Job.objects.filter(expires__lte=now).exclude(file=""):
        default_storage.delete(job.file)
        Job.objects.filter(pk=job.pk).update(file="")
        count += 1
    return count


def prune_tasks() -> int:
    """Delete the queue's records of tasks that ended more than PLATEAU_JOB_KEEP_HOURS ago."""
    if runs_in_process():
        return 0
    from django_tasks_db.models import DBTaskResult

    before = timezone.now() - timedelta(hours=settings.PLATEAU_JOB_KEEP_HOURS)
    # Ended ones, and those left "running" by a killed worker (their job was taken back).
    deleted, _by_model = DBTaskResult.objects.filter(
        Q(status__in=["SUCCESSFUL", "FAILED"], finished_at__lt=before)
        | Q(status="RUNNING", started_at__lt=before)).delete()
    return deleted


def sweep() -> None:
    """What the worker does every few seconds (and the jobs list when there is no worker)."""
    take_back_stale()
    queue_lost()
    expire_files()
    prune_tasks()


def sweep_forever(stop: threading.Event, every: float = 5.0) -> None:
    """The worker's sweeping thread."""
    while not stop.wait(every):
        try:
            close_old_connections()
            sweep()
        except Exception:
            logger.exception("The jobs' sweep failed; it will try again.")
        finally:
            close_old_connections()
