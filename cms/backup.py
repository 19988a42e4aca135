"""Backups: every row of the database and every media file it names, in one ZIP, and back.

An archive holds `manifest.json` (format, the migrations applied, each table's row count,
largest and next id, the SHA-256 of every other member), one JSON Lines file of rows a model
(`rows/<app_label>.<model>.jsonl`, Django's serializers: primary keys kept, content types
and permissions by natural key so that they map onto another database's) and the media files
under `media/<name>`, read and written through the default storage. Sessions, login attempts
and background jobs are left out: they mean nothing in another database.

A restore checks the whole archive first, then writes into a database that holds no content
yet, in one transaction: any failure leaves the database and the media storage as they were.
"""

from __future__ import annotations

import datetime
import hashlib
import io
import json
import os
import tempfile
import time
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from django.apps import apps
from django.core import serializers
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.core.files import File
from django.core.files.storage import default_storage
from django.core.management.color import no_style
from django.core.serializers import jsonl
from django.core.serializers.base import DeserializationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, models, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.db.models import Prefetch
from django.db.models.fields import AutoFieldMixin
from django.template.defaultfilters import filesizeformat
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

FORMAT = "plateau-backup"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
ROWS_DIR = "rows"
MEDIA_DIR = "media"
CHUNK_ROWS = 2000
CHUNK_BYTES = 1024 * 1024

# Rows that mean nothing in another database: sessions, django-axes' login attempts and
# logs, the background job queue (django-tasks-db, and cms.Job if it exists).
TRANSIENT_APPS = frozenset({"sessions", "axes", "django_tasks_database"})
TRANSIENT_MODELS = frozenset({"cms.job"})
# What `migrate` writes into a new database: content types and permissions (mapped by
# natural key), and the editor groups (cms migration 0002, replaced by the archive's).
MIGRATION_MADE = frozenset({"contenttypes.contenttype", "auth.permission", "auth.group"})
NATURAL_KEYED = frozenset({"contenttypes.contenttype", "auth.permission"})


class BackupError(Exception):
    """A backup that cannot be written, or an archive that cannot be restored."""


@dataclass(frozen=True)
class BackupSummary:
    path: Path
    rows: dict[str, int]  # model label -> rows
    media: int
    media_bytes: int
    missing: tuple[str, ...]  # names the content holds that the storage has not
    size: int

    @property
    def size_label(self) -> str:
        return filesizeformat(self.size)

    @property
    def media_label(self) -> str:
        return ngettext("  Images et fichiers : %(n)s fichier (%(size)s)",
                        "  Images et fichiers : %(n)s fichiers (%(size)s)", self.media) % {
            "n": self.media, "size": filesizeformat(self.media_bytes)}


@dataclass(frozen=True)
class RestoreSummary:
    rows: dict[str, int]
    media_written: int
    media_present: int  # already in the storage with the same bytes

    @property
    def media_label(self) -> str:
        label = ngettext("  Images et fichiers : %(n)s fichier écrit",
                         "  Images et fichiers : %(n)s fichiers écrits",
                         self.media_written) % {"n": self.media_written}
        if self.media_present:
            label += ngettext(", %(n)s déjà présent à l’identique",
                              ", %(n)s déjà présents à l’identique",
                              self.media_present) % {"n": self.media_present}
        return label


@dataclass
class _Table:
    """One model's entry of the manifest."""

    label: str
    file: str
    rows: int = 0
    max_pk: int | None = None
    next_id: int | None = None

    def as_json(self) -> dict:
        return {"label": self.label, "file": self.file, "rows": self.rows,
                "max_pk": self.max_pk, "next_id": self.next_id}


@dataclass
class _Manifest:
    tables: list[_Table]
    media: list[dict]  # {"name", "file", "bytes"}
    migrations: set[tuple[str, str]]
    checksums: dict[str, str]


# --- which rows, in which order -------------------------------------------------------------


def backed_up_models() -> list[type[models.Model]]:
    """Return every model whose rows a backup holds, each after the models it points to."""
    wanted = [model for model in apps.get_models()
              if model._meta.managed and not model._meta.proxy
              and model._meta.app_label not in TRANSIENT_APPS
              and model._meta.label_lower not in TRANSIENT_MODELS]
    chosen = set(wanted)
    ordered: dict[type[models.Model], None] = {}

    def visit(model, path=()):
        if model in ordered or model in path:  # a cycle: deferred constraints allow it
            return
        for target in _targets(model):
            if target in chosen and target is not model:
                visit(target, (*path, model))
        ordered[model] = None

    for model in wanted:
        visit(model)
    return list(ordered)


def _targets(model) -> Iterator[type[models.Model]]:
    for model_field in model._meta.concrete_fields:
        if model_field.is_relation and model_field.related_model is not None:
            yield model_field.related_model
    for model_field in model._meta.many_to_many:
        yield model_field.related_model


def _is_natural(model) -> bool:
    return model._meta.label_lower in NATURAL_KEYED


def _auto_m2m(model) -> list:
    return [f for f in model._meta.many_to_many if f.remote_field.through._meta.auto_created]


def _natural_fks(model) -> list[str]:
    return [f.name for f in model._meta.concrete_fields
            if f.is_relation and f.related_model is not None and _is_natural(f.related_model)]


def _rows_file(model) -> str:
    return f"{ROWS_DIR}/{model._meta.app_label}.{model._meta.model_name}.jsonl"


class _ExactEncoder(DjangoJSONEncoder):
    """Django's JSON, with times to the microsecond (Django's stops at the millisecond)."""

    def default(self, o):
        if isinstance(o, (datetime.datetime, datetime.time)):
            return o.isoformat()
        return super().default(o)


class _RowSerializer(jsonl.Serializer):
    """JSON Lines that name content types and permissions by natural key, the rest by id."""

    def handle_fk_field(self, obj, model_field):
        if _is_natural(model_field.related_model):
            related = getattr(obj, model_field.name)
            self._current[model_field.name] = related.natural_key() if related else None
        else:
            super().handle_fk_field(obj, model_field)

    def handle_m2m_field(self, obj, model_field):
        if (_is_natural(model_field.related_model)
                and model_field.remote_field.through._meta.auto_created):
            self._current[model_field.name] = [
                related.natural_key() for related in getattr(obj, model_field.name).all()]
        else:
            super().handle_m2m_field(obj, model_field)


def _rows_of(model, using: str):
    queryset = model._base_manager.using(using).order_by("pk")
    if fks := _natural_fks(model):
        queryset = queryset.select_related(*fks)
    prefetches = []
    for m2m in _auto_m2m(model):
        target = m2m.related_model
        related = target._base_manager.using(using)
        if _is_natural(target) and (fks := _natural_fks(target)):
            related = related.select_related(*fks)
        prefetches.append(Prefetch(m2m.name, queryset=related))
    if prefetches:
        queryset = queryset.prefetch_related(*prefetches)
    return queryset.iterator(chunk_size=CHUNK_ROWS)


# --- the media the content names --------------------------------------------------------------


def _file_fields(model) -> list[str]:
    return [f.attname for f in model._meta.concrete_fields if isinstance(f, models.FileField)]


def _names_in_rows(tables, using) -> Iterator[str]:
    for model in tables:
        for name in _file_fields(model):
            yield from (model._base_manager.using(using).exclude(**{name: ""})
                        .exclude(**{f"{name}__isnull": True})
                        .values_list(name, flat=True).iterator(chunk_size=CHUNK_ROWS))


def _names_in_history(tables, using) -> Iterator[str]:
    """Yield the files django-reversion's versions name: restoring one needs its picture."""
    if not apps.is_installed("reversion"):
        return
    version_model = apps.get_model("reversion", "Version")
    content_type = apps.get_model("contenttypes", "ContentType")
    with_files = {(m._meta.app_label, m._meta.model_name): _file_fields(m)
                  for m in tables if _file_fields(m)}
    for app_label, model_name in with_files:
        types = content_type.objects.db_manager(using).filter(app_label=app_label,
                                                              model=model_name)
        rows = (version_model._base_manager.using(using).filter(content_type__in=types)
                .values_list("format", "serialized_data").iterator(chunk_size=CHUNK_ROWS))
        for kind, data in rows:
            if kind != "json":
                continue
            try:
                objects = json.loads(data)
            except ValueError:
                continue
            for obj in objects if isinstance(objects, list) else []:
                fields = obj.get("fields", {}) if isinstance(obj, dict) else {}
                for name in with_files[(app_label, model_name)]:
                    if isinstance(fields.get(name), str):
                        yield fields[name]


def _names_in_corrections(tables, using) -> Iterator[str]:
    """Yield the files pending or past corrections propose (cms.Correction's data)."""
    try:
        correction = apps.get_model("cms", "Correction")
        question = apps.get_model("cms", "Question")
    except LookupError:
        return
    if correction not in tables:
        return
    names = _file_fields(question)
    rows = (correction._base_manager.using(using).exclude(question=None)
            .values_list("data", "base_data").iterator(chunk_size=CHUNK_ROWS))
    for row in rows:
        for data in row:
            if isinstance(data, dict):
                yield from (data[n] for n in names if isinstance(data.get(n), str))


# Where content names a media file: its rows, its history, its corrections.
MEDIA_REFERENCES: tuple[Callable[[list, str], Iterable[str]], ...] = (
    _names_in_rows, _names_in_history, _names_in_corrections)


def _safe_name(name: str) -> bool:
    parts = name.split("/")
    return (bool(name) and not name.startswith("/")
            and not any(p in ("", ".", "..") or "\\" in p or "\x00" in p for p in parts))


# --- the database's own bookkeeping ---------------------------------------------------------


def applied_migrations(using: str = DEFAULT_DB_ALIAS) -> set[tuple[str, str]]:
    """Return the (app, name) of every migration this database has applied."""
    return set(MigrationRecorder(connections[using]).applied_migrations())


def _has_counter(model) -> bool:
    return isinstance(model._meta.pk, AutoFieldMixin)


def _next_id(model, using: str) -> int | None:
    """Return the id the database would give the model's next row, where it says so."""
    connection = connections[using]
    table, column = model._meta.db_table, model._meta.pk.column
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT pg_get_serial_sequence(%s, %s)",
                           [connection.ops.quote_name(table), column])
            sequence = cursor.fetchone()[0]
            if sequence is None:
                return None
            cursor.execute(f"SELECT last_value, is_called FROM {sequence}")
            last, called = cursor.fetchone()
            return last + 1 if called else last
        if connection.vendor == "sqlite":
            try:
                cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [table])
            except DatabaseError:  # no AUTOINCREMENT table at all
                return None
            row = cursor.fetchone()
            return row[0] + 1 if row else None
    return None


def _set_next_id(model, next_id: int, using: str) -> None:
    """Make the model's next new row take at least next_id."""
    connection = connections[using]
    table, column = model._meta.db_table, model._meta.pk.column
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT pg_get_serial_sequence(%s, %s)",
                           [connection.ops.quote_name(table), column])
            sequence = cursor.fetchone()[0]
            if sequence is not None:
                cursor.execute("SELECT setval(%s, %s, false)", [sequence, next_id])
        elif connection.vendor == "sqlite":
            cursor.execute("UPDATE sqlite_sequence SET seq = %s WHERE name = %s AND seq < %s",
                           [next_id - 1, table, next_id - 1])
            cursor.execute("SELECT 1 FROM sqlite_sequence WHERE name = %s", [table])
            if cursor.fetchone() is None:
                cursor.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)",
                               [table, next_id - 1])


@contextmanager
def _consistent_read(using: str):
    """Read the whole database as one moment saw it, without holding writers back."""
    connection = connections[using]
    if connection.in_atomic_block:  # a caller's transaction: read within it
        yield
        return
    connection.ensure_connection()
    mode = getattr(connection, "transaction_mode", None)
    if connection.vendor == "sqlite":
        # Plateau opens SQLite transactions IMMEDIATE, taking the write lock at once: held
        # for the whole backup, it would make editors' saves fail. A deferred transaction
        # that only reads sees one snapshot of the WAL file and blocks no one.
        connection.transaction_mode = "DEFERRED"
    try:
        with transaction.atomic(using=using):
            if connection.vendor == "sqlite":
                connection.transaction_mode = mode
            elif connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute(
                        "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield
    finally:
        if connection.vendor == "sqlite":
            connection.transaction_mode = mode


# --- writing an archive -----------------------------------------------------------------------


class _Member:
    """A ZIP member being written, hashed as it goes; takes text (JSON) or bytes."""

    def __init__(self, archive: zipfile.ZipFile, name: str, compress_type: int):
        info = zipfile.ZipInfo(name, date_time=time.localtime()[:6])
        info.compress_type = compress_type
        info.external_attr = 0o600 << 16
        self._handle = archive.open(info, "w", force_zip64=True)
        self._hash = hashlib.sha256()
        self._text: list[str] = []
        self._pending = 0

    def write(self, text: str) -> None:
        self._text.append(text)
        self._pending += len(text)
        if self._pending >= CHUNK_BYTES:
            self._flush_text()

    def write_bytes(self, data: bytes) -> None:
        self._flush_text()
        self._hash.update(data)
        self._handle.write(data)

    def _flush_text(self) -> None:
        if self._text:
            data = "".join(self._text).encode()
            self._text, self._pending = [], 0
            self._hash.update(data)
            self._handle.write(data)

    def close(self) -> str:
        self._flush_text()
        self._handle.close()
        return self._hash.hexdigest()


def default_backup_name() -> str:
    return f"plateau-{timezone.localtime():%Y%m%d-%H%M%S}.zip"


def backup_target(raw: str | None, *, force: bool) -> Path:
    """Return where a backup goes, refusing an empty path, a folder or an existing file."""
    if raw is not None and not raw.strip():
        raise BackupError(_("Le chemin de la sauvegarde est vide : donnez un nom de "
                            "fichier, par exemple %(name)s.") % {"name": default_backup_name()})
    path = Path.cwd() / default_backup_name() if raw is None else Path(raw).expanduser()
    if path.is_dir() or (raw or "").endswith(("/", os.sep)):
        raise BackupError(_("« %(path)s » est un dossier : donnez le nom du fichier à "
                            "écrire, par exemple %(example)s.")
                          % {"path": raw, "example": path / default_backup_name()})
    if not path.parent.is_dir():
        raise BackupError(_("Le dossier « %(folder)s » n’existe pas.")
                          % {"folder": path.parent})
    if path.exists() and not force:
        raise BackupError(_("« %(path)s » existe déjà : choisissez un autre nom, ou "
                            "--force pour le remplacer.") % {"path": path})
    return path


def write_backup(path: Path, *, force: bool = False,
                 using: str = DEFAULT_DB_ALIAS) -> BackupSummary:
    """Write the whole database and the media it names to a ZIP archive at path.

    The archive is written beside it under a temporary name and renamed when complete: a
    backup that fails leaves no file behind.
    """
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part",
                                         dir=path.parent)
    except OSError as error:
        raise _unwritable(path, error) from error
    try:
        with os.fdopen(fd, "wb") as handle:
            with zipfile.ZipFile(handle, "w", allowZip64=True) as archive:
                tables, media, missing = _write_members(archive, using)
            handle.flush()
            os.fsync(handle.fileno())
        if path.exists() and not force:
            raise BackupError(_("« %(path)s » est apparu pendant la sauvegarde : "
                                "rien n’a été remplacé.") % {"path": path})
        os.replace(temporary, path)
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise _unwritable(path, error) from error
        raise
    return BackupSummary(path=path, rows={t.label: t.rows for t in tables},
                         media=len(media), media_bytes=sum(m["bytes"] for m in media),
                         missing=tuple(missing), size=path.stat().st_size)


def _unwritable(path: Path, error: OSError) -> BackupError:
    return BackupError(_("La sauvegarde « %(path)s » n’a pas pu être écrite (%(error)s) : "
                         "aucun fichier n’a été laissé.")
                       % {"path": path, "error": error.strerror or error})


def _write_members(archive: zipfile.ZipFile, using: str):
    checksums: dict[str, str] = {}
    tables: list[_Table] = []
    with _consistent_read(using):
        models_ = backed_up_models()
        for model in models_:
            tables.append(_write_rows(archive, model, using, checksums))
        names: set[str] = set()
        for references in MEDIA_REFERENCES:
            names.update(name for name in references(models_, using) if name)
        media, missing = _write_media(archive, sorted(names), checksums)
        migrations = sorted(applied_migrations(using))
        vendor = connections[using].vendor
    manifest = {
        "format": FORMAT, "version": FORMAT_VERSION,
        "created_at": timezone.now().isoformat(), "database": vendor,
        "migrations": [list(m) for m in migrations],
        "tables": [t.as_json() for t in tables],
        "media": media, "missing_media": missing, "checksums": checksums,
    }
    info = zipfile.ZipInfo(MANIFEST, date_time=time.localtime()[:6])
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, json.dumps(manifest, ensure_ascii=False, indent=1))
    return tables, media, missing


def _write_rows(archive, model, using, checksums) -> _Table:
    table = _Table(label=model._meta.label_lower, file=_rows_file(model))
    member = _Member(archive, table.file, zipfile.ZIP_DEFLATED)

    def counted(rows):
        for obj in rows:
            table.rows += 1
            if isinstance(obj.pk, int):
                table.max_pk = obj.pk  # in order of pk
            yield obj

    _RowSerializer().serialize(counted(_rows_of(model, using)), stream=member,
                               use_natural_primary_keys=_is_natural(model), cls=_ExactEncoder)
    checksums[table.file] = member.close()
    if _has_counter(model) and not _is_natural(model):
        following = (table.max_pk or 0) + 1
        table.next_id = max(_next_id(model, using) or following, following)
    return table


def _write_media(archive, names, checksums) -> tuple[list[dict], list[str]]:
    media, missing = [], []
    for name in names:
        if not _safe_name(name) or not default_storage.exists(name):
            missing.append(name)
            continue
        try:
            source = default_storage.open(name, "rb")
        except (OSError, ValueError):  # missing, or a name the storage refuses
            missing.append(name)
            continue
        entry = {"name": name, "file": f"{MEDIA_DIR}/{name}", "bytes": 0}
        with source:
            # Images are compressed already: stored as they are.
            member = _Member(archive, entry["file"], zipfile.ZIP_STORED)
            while chunk := source.read(CHUNK_BYTES):
                member.write_bytes(chunk)
                entry["bytes"] += len(chunk)
            checksums[entry["file"]] = member.close()
        media.append(entry)
    return media, missing


# --- reading an archive -----------------------------------------------------------------------


def _damaged(path, reason: str) -> BackupError:
    return BackupError(_("L’archive « %(path)s » est endommagée : %(reason)s. Rien n’a "
                         "été écrit.") % {"path": path, "reason": reason})


def _open_archive(path: Path) -> zipfile.ZipFile:
    if not path.exists():
        raise BackupError(_("L’archive « %(path)s » est introuvable.") % {"path": path})
    if not path.is_file():
        raise BackupError(_("« %(path)s » n’est pas un fichier : donnez le chemin d’une "
                            "archive ZIP de manage.py backup.") % {"path": path})
    try:
        return zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError, ValueError):
        raise _damaged(path, _("ce n’est pas une archive ZIP lisible")) from None


def _read_manifest(archive: zipfile.ZipFile, path: Path) -> _Manifest:
    try:
        raw = json.loads(archive.read(MANIFEST))
    except KeyError:
        raise _damaged(path, _("le manifeste %(name)s manque") % {"name": MANIFEST}) from None
    except (ValueError, zipfile.BadZipFile, zlib.error, OSError, EOFError):
        raise _damaged(path, _("le manifeste est illisible")) from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise _damaged(path, _("ce n’est pas une sauvegarde de Plateau"))
    if raw.get("version") != FORMAT_VERSION:
        raise BackupError(_("L’archive « %(path)s » est au format %(version)s, que cette version "
                            "de Plateau ne sait pas lire (format %(known)s).")
                          % {"path": path, "version": raw.get("version"),
                             "known": FORMAT_VERSION})
    try:
        tables = [_Table(label=str(t["label"]), file=str(t["file"]), rows=int(t["rows"]),
                         max_pk=_id_or_none(t["max_pk"]), next_id=_id_or_none(t["next_id"]))
                  for t in raw["tables"]]
        media = [{"name": str(m["name"]), "file": str(m["file"]), "bytes": int(m["bytes"])}
                 for m in raw["media"]]
        migrations = {(str(app), str(name)) for app, name in raw["migrations"]}
        checksums = {str(k): str(v) for k, v in raw["checksums"].items()}
    except (KeyError, TypeError, ValueError, AttributeError):
        raise _damaged(path, _("le manifeste est incomplet")) from None
    return _Manifest(tables=tables, media=media, migrations=migrations, checksums=checksums)


def _id_or_none(value):
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise ValueError(value)


def _sha256(archive: zipfile.ZipFile, name: str) -> str:
    digest = hashlib.sha256()
    with archive.open(name) as member:
        while chunk := member.read(CHUNK_BYTES):
            digest.update(chunk)
    return digest.hexdigest()


def verify_archive(path: Path, using: str = DEFAULT_DB_ALIAS) -> _Manifest:
    """Check an archive whole (members, checksums, format, migrations, models); return its
    manifest, or raise BackupError saying what is wrong."""
    with _open_archive(path) as archive:
        manifest = _read_manifest(archive, path)
        members = set(archive.namelist()) - {MANIFEST}
        listed = {t.file for t in manifest.tables} | {m["file"] for m in manifest.media}
        if unlisted := sorted(listed - set(manifest.checksums)):
            raise _damaged(path, _("pas d’empreinte pour %(name)s") % {"name": unlisted[0]})
        if missing := sorted(set(manifest.checksums) - members):
            raise _damaged(path, _("%(name)s manque") % {"name": missing[0]})
        if extra := sorted(members - set(manifest.checksums)):
            raise _damaged(path, _("%(name)s n’est pas dans le manifeste") % {"name": extra[0]})
        for name, expected in sorted(manifest.checksums.items()):
            try:
                actual = _sha256(archive, name)
            except (zipfile.BadZipFile, zlib.error, OSError, EOFError, ValueError):
                raise _damaged(path, _("%(name)s est illisible") % {"name": name}) from None
            if actual != expected:
                raise _damaged(path, _("l’empreinte SHA-256 de %(name)s ne correspond pas")
                               % {"name": name})
    for entry in manifest.media:
        if not _safe_name(entry["name"]) or entry["file"] != f"{MEDIA_DIR}/{entry['name']}":
            raise _damaged(path, _("nom de fichier refusé : « %(name)s »")
                           % {"name": entry["name"]})
    _check_migrations(manifest, using)
    _check_models(manifest, path)
    return manifest


def _check_migrations(manifest: _Manifest, using: str) -> None:
    here = applied_migrations(using)
    if manifest.migrations == here:
        return
    lines = [_("Les migrations de l’archive ne sont pas celles de cette base :")]
    if only_archive := sorted(manifest.migrations - here):
        lines.append(_("  seulement dans l’archive : %(names)s")
                     % {"names": ", ".join(f"{a}.{n}" for a, n in only_archive)})
    if only_here := sorted(here - manifest.migrations):
        lines.append(_("  seulement dans cette base : %(names)s")
                     % {"names": ", ".join(f"{a}.{n}" for a, n in only_here)})
    lines.append(_("Restaurez avec la version de Plateau qui a fait la sauvegarde, dans une base "
                   "migrée comme elle. Rien n’a été écrit."))
    raise BackupError("\n".join(lines))


def _check_models(manifest: _Manifest, path: Path) -> None:
    known = {m._meta.label_lower for m in backed_up_models()}
    seen: set[str] = set()
    for table in manifest.tables:
        if table.label in seen:
            raise _damaged(path, _("%(label)s y figure deux fois") % {"label": table.label})
        seen.add(table.label)
        if table.label not in known:
            raise _damaged(path, _("modèle inconnu ici : %(label)s") % {"label": table.label})
        expected = _rows_file(apps.get_model(table.label))
        if table.file != expected:
            raise _damaged(path, _("fichier de lignes inattendu : %(name)s")
                           % {"name": table.file})


# --- restoring --------------------------------------------------------------------------------


def content_in(using: str = DEFAULT_DB_ALIAS) -> dict[str, int]:
    """Return the rows of content the database holds (what `migrate` writes aside), by model."""
    found = {}
    for model in backed_up_models():
        if model._meta.label_lower in MIGRATION_MADE:
            continue
        count = model._base_manager.using(using).count()
        if count:
            found[model._meta.label_lower] = count
    return found


def _check_empty(using: str) -> None:
    found = content_in(using)
    if not found:
        return
    held = ", ".join(f"{count} {apps.get_model(label)._meta.verbose_name_plural}"
                     for label, count in list(found.items())[:4])
    raise BackupError(_("Cette base contient déjà du contenu (%(held)s) : une restauration "
                        "se fait dans une base neuve, juste migrée (manage.py migrate). Rien "
                        "n’a été écrit.") % {"held": held + ("…" if len(found) > 4 else "")})


def _media_to_write(manifest: _Manifest) -> tuple[list[dict], int]:
    """Return the media files to write, and how many the storage holds already, identical.

    Names are content hashes: a file already there with the same bytes is the same image.
    One with other bytes is refused before anything is written.
    """
    wanted, present = [], 0
    for entry in manifest.media:
        name = entry["name"]
        if not default_storage.exists(name):
            wanted.append(entry)
            continue
        digest = hashlib.sha256()
        with default_storage.open(name, "rb") as stored:
            while chunk := stored.read(CHUNK_BYTES):
                digest.update(chunk)
        if digest.hexdigest() != manifest.checksums[entry["file"]]:
            raise BackupError(_("Le fichier média « %(name)s » existe déjà avec un autre "
                                "contenu : rien n’a été écrit.") % {"name": name})
        present += 1
    return wanted, present


def restore_backup(path: Path, *, using: str = DEFAULT_DB_ALIAS) -> RestoreSummary:
    """Restore an archive into a database without content, all or nothing."""
    manifest = verify_archive(path, using)
    _check_empty(using)
    media, present = _media_to_write(manifest)
    content_types = apps.get_model("contenttypes", "ContentType")
    written: list[str] = []
    content_types.objects.clear_cache()
    try:
        with _open_archive(path) as archive, transaction.atomic(using=using):
            # The editor groups `migrate` made give way to the archive's.
            apps.get_model("auth", "Group")._base_manager.using(using).all().delete()
            rows = {t.label: _load_rows(archive, t, path, using) for t in manifest.tables}
            for entry in media:
                _write_media_file(archive, entry, written)
            connections[using].check_constraints()
            _reset_counters(manifest, using)
    except BaseException as error:
        for name in reversed(written):
            with suppress(OSError):  # the restore's own error is the one to tell
                default_storage.delete(name)
        content_types.objects.clear_cache()
        if isinstance(error, (DatabaseError, DeserializationError, ValidationError,
                              ObjectDoesNotExist, ValueError, TypeError, OSError,
                              zipfile.BadZipFile, zlib.error, EOFError)):
            raise BackupError(_("La restauration a échoué, la base et les médias sont restés "
                                "comme avant : %(error)s") % {"error": error}) from error
        raise
    content_types.objects.clear_cache()
    return RestoreSummary(rows=rows, media_written=len(written), media_present=present)


def _load_rows(archive, table: _Table, path: Path, using: str) -> int:
    natural = table.label in NATURAL_KEYED
    count = 0
    with archive.open(table.file) as raw:
        lines = io.TextIOWrapper(raw, encoding="utf-8")
        for obj in serializers.deserialize("jsonl", lines, using=using):
            if obj.object._meta.label_lower != table.label:
                raise _damaged(path, _("une ligne de %(other)s dans %(name)s")
                               % {"other": obj.object._meta.label_lower, "name": table.file})
            # Content types and permissions map onto the rows `migrate` made, by natural key.
            obj.save(using=using, **({} if natural else {"force_insert": True}))
            count += 1
    if count != table.rows:
        raise _damaged(path, _("%(name)s a %(count)s lignes, le manifeste en annonce %(rows)s")
                       % {"name": table.file, "count": count, "rows": table.rows})
    return count


def _write_media_file(archive, entry: dict, written: list[str]) -> None:
    name = entry["name"]
    with archive.open(entry["file"]) as member:
        content = File(member, name=PurePosixPath(name).name)
        content.size = entry["bytes"]
        saved = default_storage.save(name, content)
    written.append(saved)
    if saved != name:
        raise BackupError(_("Le fichier média « %(name)s » est apparu pendant la restauration "
                            "(enregistré sous « %(saved)s »).") % {"name": name, "saved": saved})


def _reset_counters(manifest: _Manifest, using: str) -> None:
    """Give new rows fresh ids: above every restored id, and above every id the source had
    given (a deleted question's id stays its own in history)."""
    connection = connections[using]
    restored = [apps.get_model(t.label) for t in manifest.tables]
    with_through = restored + [m2m.remote_field.through for model in restored
                               for m2m in _auto_m2m(model)]
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), with_through):
            cursor.execute(sql)
    for table in manifest.tables:
        if table.next_id:
            _set_next_id(apps.get_model(table.label), table.next_id, using)


# --- what the commands print ------------------------------------------------------------------


def rows_by_app(rows: dict[str, int]) -> list[tuple[str, int]]:
    """Return (app name, rows) in the order of the archive."""
    totals: dict[str, int] = {}
    for label, count in rows.items():
        app = apps.get_app_config(label.split(".")[0])
        totals[str(app.verbose_name)] = totals.get(str(app.verbose_name), 0) + count
    return list(totals.items())


def describe_rows(rows: dict[str, int]) -> list[str]:
    return [ngettext("  %(app)s : %(n)s ligne", "  %(app)s : %(n)s lignes", n)
            % {"app": app, "n": n} for app, n in rows_by_app(rows)]

