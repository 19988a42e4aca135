"""Running an import outside the admin: the commands and the demo loader share this."""

from __future__ import annotations

import os
import re
import secrets
import stat
import time
from pathlib import Path

import reversion
from django.conf import settings
from django.core.management.base import CommandError
from django.db import transaction
from django.db.models import prefetch_related_objects
from django.utils.translation import gettext as _
from import_export.command_utils import get_resource_class

from . import change_log
from .formats import FORMATS_BY_EXTENSION, FORMATS_BY_NAME
from .models import Card, Question
from .resources import RESOURCES


def resource_class(name: str):
    """Return a resource by short name (questions, cartes, images) or dotted path."""
    return RESOURCES.get(name) or get_resource_class(name)


def format_for(name: str | None, file_name: str):
    """Return our format by name (csv, xlsx, json, zip, opentdb, openquizzdb) or extension.

    Only ours: the library's other formats (tsv, html, yaml, ods…) skip every check.
    """
    if name:
        if name.lower() not in FORMATS_BY_NAME:
            raise CommandError(_(
                "Format « %(format)s » inconnu : choisissez parmi %(formats)s."
            ) % {"format": name, "formats": ", ".join(FORMATS_BY_NAME)})
        return FORMATS_BY_NAME[name.lower()]()
    extension = Path(file_name).suffix.lstrip(".").lower()
    if extension not in FORMATS_BY_EXTENSION:
        raise CommandError(_(
            "Format inconnu pour « %(file)s » : précisez --format (%(formats)s)."
        ) % {"file": file_name, "formats": ", ".join(FORMATS_BY_NAME)})
    return FORMATS_BY_EXTENSION[extension]()


def import_dataset(resource, dataset, *, dry_run: bool, comment: str, user=None):
    """Import a dataset whole or not at all, keeping a revision of what it wrote.

    The change log is written last, after the revision (which takes minutes for thousands
    of rows), in the same transaction: the games' generation rows, which players' answers
    bump too, stay locked only for the end of the commit (change_log.gathering).
    """
    with transaction.atomic(), change_log.gathering():
        with reversion.create_revision():
            reversion.set_comment(comment)
            if user is not None:
                reversion.set_user(user)  # the history names who imported
            result = resource.import_data(dataset, dry_run=dry_run,
                                          retain_instance_in_row_result=True)
            if not dry_run:
                keep_in_revision(result)
        if not dry_run and not failed(result):
            change_log.flush()
    return result


def keep_in_revision(result) -> None:
    """Add what a successful import wrote to the revision being recorded."""
    if failed(result):
        return
    written = [row.instance for row in result.rows
               if row.instance is not None and row.instance.pk is not None
               and not getattr(row, "as_correction", False)]  # live unchanged
    # The revision follows each question's propositions and each card's slots: load them
    # in a few queries, not one per row.
    for model, relation in ((Question, "propositions"), (Card, "slots")):
        instances = [obj for obj in written if isinstance(obj, model)]
        for obj in instances:
            getattr(obj, "_prefetched_objects_cache", {}).pop(relation, None)
        prefetch_related_objects(instances, relation)
    for instance in written:
        reversion.add_to_revision(instance)


def failed(result) -> bool:
    return result.has_errors() or result.has_validation_errors()


def describe_failure(result) -> list[str]:
    """Return one French line per problem of an import that wrote nothing."""
    lines = [str(error.error) for error in result.base_errors]
    for number, errors in result.row_errors():
        lines += [_("Ligne %(line)s : %(error)s") % {"line": number, "error": error.error}
                  for error in errors]
    for row in result.invalid_rows:
        for column, messages in row.field_specific_errors.items():
            lines += [_("Ligne %(line)s, colonne « %(column)s » : %(error)s") % {
                "line": row.number, "column": column, "error": m} for m in messages]
        lines += [_("Ligne %(line)s : %(error)s") % {"line": row.number, "error": m}
                  for m in row.non_field_specific_errors]
    return lines


def summary(result) -> str:
    totals = result.totals
    return _("%(new)s ajouté(s), %(update)s modifié(s), %(skip)s inchangé(s)") % {
        "new": totals["new"], "update": totals["update"], "skip": totals["skip"]}


# --- uploads waiting for their confirmation -----------------------------------------------

# How long a preview may wait for its confirmation; older uploads are deleted.
UPLOAD_MAX_AGE_SECONDS = 6 * 3600
UPLOAD_ID = re.compile(r"[0-9a-f]{32}")
UPLOAD_FOLDER_NAME = "import-hold"


class UploadFolderError(RuntimeError):
    """The folder for held uploads is not this instance's own private folder."""


def upload_folder() -> Path:
    """Return the folder that holds uploads between their preview and their confirmation.

    It lives in PLATEAU_VAR_DIR, this instance's own (not /tmp, shared by every instance on
    the host), readable by this user alone; a folder found owned by another user, or open
    to others, or a symbolic link, is refused rather than trusted with editors' files.
    """
    folder = Path(settings.VAR_DIR) / UPLOAD_FOLDER_NAME
    try:
        folder.mkdir(mode=0o700, parents=True)
    except FileExistsError:
        found = folder.lstat()
        if not stat.S_ISDIR(found.st_mode) or found.st_uid != os.geteuid():
            raise UploadFolderError(
                f"{folder} must be a folder owned by this user (uid {os.geteuid()}); "
                f"found uid {found.st_uid}, mode {stat.filemode(found.st_mode)}.") from None
        if stat.S_IMODE(found.st_mode) & 0o077:
            raise UploadFolderError(
                f"{folder} is open to other users ({stat.filemode(found.st_mode)}): "
                f"chmod 700 it, and check what it holds.") from None
    else:
        folder.chmod(0o700)  # whatever the umask
    return folder


def hold_upload(chunks) -> str:
    """Write an upload to the import folder under a new random id; return the id."""
    remove_stale_uploads()
    upload_id = secrets.token_hex(16)
    with open(upload_folder() / upload_id, "xb") as held:
        for chunk in chunks:
            held.write(chunk)
    return upload_id


def held_upload_path(upload_id: str) -> Path:
    if not UPLOAD_ID.fullmatch(upload_id or ""):
        raise ValueError(upload_id)
    return upload_folder() / upload_id


def claim_upload(upload_id: str) -> bytes | None:
    """Take a held upload for its confirmation, once: return its bytes, or None if it was
    already claimed (a replay, a double click) or has expired."""
    remove_stale_uploads()
    held = held_upload_path(upload_id)
    claimed = held.with_name(f"{upload_id}.claimed")
    try:
        # A rename is atomic: of two confirmations sent at once, one alone gets the file.
        os.rename(held, claimed)
    except FileNotFoundError:
        return None
    try:
        return claimed.read_bytes()
    finally:
        claimed.unlink(missing_ok=True)


def discard_upload(upload_id: str) -> None:
    """Delete a held upload that will not be confirmed (a refused file)."""
    held_upload_path(upload_id).unlink(missing_ok=True)


def remove_stale_uploads(*, now: float | None = None) -> None:
    """Delete the uploads held longer than a preview may wait.

    Runs whenever an upload is held or claimed, and, so that an unconfirmed file never waits
    for the next import, whenever the admin shows the import page or a list that can import,
    and at each `manage.py import`: one listing of a small folder each time.
    """
    oldest = (time.time() if now is None else now) - UPLOAD_MAX_AGE_SECONDS
    for held in upload_folder().iterdir():
        try:
            if held.stat().st_mtime < oldest:
                held.unlink()
        except FileNotFoundError:  # another request removed it first
            pass
