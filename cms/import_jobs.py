"""Background imports: a file imported whole or not at all by a worker, with its report.

The same importers as the admin's import page and `manage.py import` (cms.importing); the
rows commit in the transaction that ends the job (cms.jobs.JobRun.complete), so a run that
lost its job to another writes nothing.
"""

from __future__ import annotations

import logging

from django.core.files.storage import default_storage
from django.core.management.base import CommandError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from . import jobs
from .formats import ImportFileError, reading_failure
from .importing import describe_failure, failed, format_for, import_dataset, resource_class

logger = logging.getLogger(__name__)

KIND = "import"
REPORT_LINES = 500  # the report names this many refused lines, then counts the others


def report_of(result, *, dry_run: bool) -> dict:
    """Return what the job's page shows: the totals, or every refused line (up to a cap)."""
    if failed(result):
        lines = describe_failure(result)
        return {"lines": lines[:REPORT_LINES], "more": max(0, len(lines) - REPORT_LINES)}
    totals = result.totals
    return {"new": totals["new"], "update": totals["update"], "skip": totals["skip"],
            "dry_run": dry_run}


@jobs.register(KIND)
def run_import(run: jobs.JobRun) -> None:
    job = run.job
    params = job.params
    name = params.get("file_name", "")
    try:
        file_format = format_for(params.get("format") or None, name)
        with default_storage.open(job.upload, "rb") as upload:
            data = upload.read()
        try:
            dataset = file_format.create_dataset(data)
        except ImportFileError:
            raise
        except Exception as error:
            logger.info("Background import: the %s reader failed on %s",
                        file_format.get_title(), name, exc_info=True)
            raise ImportFileError(reading_failure(file_format, error)) from None
    except CommandError as error:  # format_for: an unknown format
        run.complete(failed=True, message=str(error), report={"lines": [], "more": 0})
        return
    except ImportFileError as error:
        run.complete(failed=True, message=_("%(file)s : %(error)s") % {
            "file": name, "error": error}, report={"lines": [], "more": 0})
        return
    total = len(dataset)
    run.progress(0, total)
    resource = resource_class(params["resource"])(
        kind=params.get("kind", ""), user=job.owner,
        on_row=lambda number: run.progress(number, total))
    dry_run = bool(params.get("dry_run"))
    with transaction.atomic():
        result = import_dataset(resource, dataset, dry_run=dry_run, comment=_(
            "Import du fichier « %(name)s » (en arrière-plan)") % {"name": name}, user=job.owner)
        report = report_of(result, dry_run=dry_run)
        if failed(result):
            count = len(report["lines"]) + report["more"]
            message = ngettext(
                "%(file)s : rien n’a été importé, %(n)s problème est à corriger.",
                "%(file)s : rien n’a été importé, %(n)s problèmes sont à corriger.",
                count) % {"file": name, "n": count}
        else:
            message = ""
        run.progress(total, total)
        # Under the job's lock, in the rows' transaction: they commit with the job's end.
        run.complete(failed=failed(result), message=message, report=report)
