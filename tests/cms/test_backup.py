"""`manage.py backup` and `manage.py restore`: everything out to one archive, and back into an
empty database, row for row and byte for byte, or nothing at all.

Restores run on a real, emptied database (a flush) with the media storage emptied too, so
that every row and every image really comes from the archive.
"""

import hashlib
import io
import json
import shutil
import zipfile
from pathlib import Path

import pytest
from axes.models import AccessAttempt
from django.apps import apps
from django.conf import settings
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth.models import Group, Permission, User
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from reversion.models import Revision, Version

from cms import services
from cms.models import Comment, Correction, Job, Question
from player.models import Answer, Play, Room, Seat, Seen
from tests.builders import make_card, make_question
from tests.demo import load_snapshots

# A restore needs a database without content: these tests flush theirs. The rows `migrate`
# wrote (content types, permissions, the editor groups) come back for the next test.
RESTORING = pytest.mark.django_db(transaction=True, serialized_rollback=True)
TRANSIENT_APPS = ("sessions", "axes", "django_tasks_database")


# --- what the database and the storage hold, independently of cms.backup --------------------


def content_models() -> list:
    return [model for model in apps.get_models()
            if model._meta.managed and not model._meta.proxy
            and model._meta.app_label not in TRANSIENT_APPS
            and model._meta.label_lower != "cms.job"]


def everything() -> dict[str, list]:
    """Return every row of every model, as comparable values: content types and
    permissions by natural key (a new database numbers them its own way), the rest as is."""
    natural = {
        ContentType: {ct.pk: ct.natural_key() for ct in ContentType.objects.all()},
        Permission: {p.pk: p.natural_key()
                     for p in Permission.objects.select_related("content_type")},
    }
    tables = {}
    for model in content_models():
        keyed = model in (ContentType, Permission)
        rows = []
        for obj in model._base_manager.order_by("pk"):
            row = {}
            for field in model._meta.concrete_fields:
                value = field.value_from_object(obj)
                if field.primary_key and keyed:
                    continue
                if field.is_relation and field.related_model in natural:
                    value = natural[field.related_model].get(value)
                row[field.attname] = str(value) if hasattr(value, "name") else value
            for field in model._meta.many_to_many:
                if field.remote_field.through._meta.auto_created:
                    names = natural.get(field.related_model, {})
                    row[field.name] = sorted(
                        str(names.get(pk, pk))
                        for pk in getattr(obj, field.name).values_list("pk", flat=True))
            rows.append(row)
        tables[model._meta.label_lower] = sorted(rows, key=repr) if keyed else rows
    return tables


def media_files() -> dict[str, bytes]:
    root = Path(settings.MEDIA_ROOT)
    if not root.exists():
        return {}
    return {path.relative_to(root).as_posix(): path.read_bytes()
            for path in root.rglob("*") if path.is_file()}


def empty_everything() -> None:
    """Leave the database as a flush does (content types and permissions only) and the
    media storage without a file."""
    call_command("flush", interactive=False, verbosity=0)
    shutil.rmtree(settings.MEDIA_ROOT, ignore_errors=True)


def assert_nothing_restored() -> None:
    assert [model._meta.label for model in content_models()
            if model not in (ContentType, Permission) and model._base_manager.exists()] == []
    assert media_files() == {}


def backup(path: Path, *args) -> str:
    out = io.StringIO()
    call_command("backup", str(path), *args, stdout=out)
    return out.getvalue()


def restore(path: Path) -> str:
    out = io.StringIO()
    call_command("restore", str(path), stdout=out)
    return out.getvalue()


# --- archives edited as a damaged or forged one would be ---------------------------------------


def members_of(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def write_members(path: Path, members: dict[str, bytes]) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)


def forged(path: Path, member: str, data: bytes, *, rows: int | None = None) -> None:
    """Replace a member, and make the manifest vouch for it (checksum, row count)."""
    members = members_of(path)
    manifest = json.loads(members["manifest.json"])
    members[member] = data
    manifest["checksums"][member] = hashlib.sha256(data).hexdigest()
    if rows is not None:
        [table] = [t for t in manifest["tables"] if t["file"] == member]
        table["rows"] = rows
    members["manifest.json"] = json.dumps(manifest).encode()
    write_members(path, members)


def first_media_member(path: Path) -> str:
    return next(name for name in members_of(path) if name.startswith("media/"))


# --- libraries to back up ---------------------------------------------------------------------


def etoile(**fields) -> Question:
    return make_card("etoile-mysterieuse", **fields).ordered_slots()[0].question


def crop(question, box, user):
    question = Question.objects.get(pk=question.pk)
    return services.question_image_crop(obj=question, box=box, user=user)


@pytest.fixture
def small_library(editor):
    """A card of questions with an image, edited once (a revision in history)."""
    question = etoile()
    services.content_save(obj=question, data=services.shown_state(question), user=editor)
    return question


@pytest.fixture
def archive(small_library, tmp_path) -> Path:
    path = tmp_path / "plateau.zip"
    backup(path)
    return path


@pytest.fixture
def rich_library(demo_snapshots, settings, editor, reviewer):
    """The demo library and a life after it: accounts, edits, crops, a correction, a deletion,
    comments, the admin's log, games played, and transient rows a backup leaves out."""
    # The rows `manage.py load_demo` writes (taken once per run), in one transaction: a
    # duel card points to its twin, written after it.
    with transaction.atomic():
        load_snapshots(list(demo_snapshots.values()), Path(settings.MEDIA_ROOT),
                       Path(settings.VAR_DIR))
    chief = User.objects.create_superuser("cheffe", "cheffe@example.org", "motdepasse-test")
    proofreaders = Group.objects.create(name="Correcteurs invités")
    proofreaders.permissions.set(Permission.objects.filter(codename__startswith="view_"))
    reviewer.groups.add(proofreaders)
    reviewer.user_permissions.add(Permission.objects.get(codename="import_question"))

    # A draft étoile cropped twice: the first crop's image is kept by history alone.
    draft = etoile()
    services.content_save(obj=draft, data=services.shown_state(draft), user=editor)
    crop(draft, (300, 175, 400, 400), editor)
    crop(draft, (0, 0, 200, 200), editor)
    # A published étoile cropped by an editor: the new image waits in a correction.
    published = etoile(status="published")
    assert crop(published, (0, 0, 500, 500), editor).correction is not None
    Comment.objects.create(question=published, text="L’image est-elle lisible\u202f?",
                           author=reviewer)
    # A question deleted: history keeps it, and its image.
    gone = make_question("etoile-mysterieuse", created_by=editor)
    services.content_save(obj=gone, data=services.shown_state(gone), user=editor)
    services.content_delete(obj=gone, user=editor)
    LogEntry.objects.create(user=chief, content_type=ContentType.objects.get_for_model(Question),
                            object_id=str(published.pk), object_repr=str(published),
                            action_flag=CHANGE, change_message="[]")

    play = Play.objects.create(game="douze-coups", browser="navigateur-a", seed=7,
                               players=["Ana", "Basile"], state={"tour": 3})
    Answer.objects.create(play=play, question=published, browser="navigateur-a", mode="duo",
                          right=True, given="Paris", seconds=4.5)
    Seen.objects.create(browser="navigateur-a", question=published)
    room = Room.objects.create(code="BCDF", game="douze-coups", host="navigateur-a", play=play)
    Seat.objects.create(room=room, index=0, name="Ana", browser="navigateur-a")
    Seat.objects.create(room=room, index=1, name="Robot", bot=True)

    session = SessionStore()
    session["vu"] = True
    session.create()
    AccessAttempt.objects.create(user_agent="curl", ip_address="192.0.2.1", username="x",
                                 http_accept="*/*", path_info="/admin/login/", get_data="",
                                 post_data="", failures_since_start=1)
    Job.objects.create(kind="print", label="Fiches à imprimer", owner=chief)


# --- a full round trip ------------------------------------------------------------------------


@RESTORING
def test_a_restore_into_an_empty_database_brings_back_every_row_and_every_image(
        rich_library, tmp_path):
    before, images = everything(), media_files()
    assert Version.objects.exists() and Correction.objects.exists() and len(images) >= 3

    printed = backup(tmp_path / "plateau.zip")
    empty_everything()
    restored = restore(tmp_path / "plateau.zip")

    after = everything()
    assert after.keys() == before.keys()
    for label in before:
        assert after[label] == before[label], label
    assert media_files() == images
    assert not Session.objects.exists() and not AccessAttempt.objects.exists()
    assert not Job.objects.exists()
    assert "Contenu des jeux\u00a0:" in printed and "Restauration terminée" in restored
    assert f"{len(images)} fichiers écrits" in restored


@RESTORING
def test_after_a_restore_new_rows_take_ids_never_given_before(small_library, editor, tmp_path):
    gone = make_question("etoile-mysterieuse", created_by=editor)
    deleted_id = gone.pk
    services.content_delete(obj=gone, user=editor)
    last_revision = Revision.objects.latest("pk").pk
    backup(tmp_path / "plateau.zip")
    empty_everything()
    restore(tmp_path / "plateau.zip")

    question = make_question("etoile-mysterieuse")
    assert question.pk > deleted_id  # never the deleted question's, which history keeps
    services.content_save(obj=question, data=services.shown_state(question), user=None)
    assert Version.objects.get_for_object(question).get().revision_id > last_revision
    assert Group.objects.create(name="Nouveau groupe").pk > Group.objects.exclude(
        name="Nouveau groupe").latest("pk").pk


@RESTORING
def test_a_restore_keeps_an_image_the_storage_holds_already_with_the_same_bytes(archive):
    call_command("flush", interactive=False, verbosity=0)  # the images stay in the storage
    images = media_files()

    printed = restore(archive)

    assert media_files() == images
    assert "Images et fichiers\u00a0: 0 fichier" in printed
    assert "1 déjà présent à l’identique" in printed


@RESTORING
def test_a_restore_refuses_an_image_the_storage_holds_with_other_bytes(archive):
    call_command("flush", interactive=False, verbosity=0)
    [name] = media_files()
    (Path(settings.MEDIA_ROOT) / name).write_bytes(b"une autre image")

    with pytest.raises(CommandError, match="existe déjà avec un autre contenu"):
        restore(archive)

    assert media_files() == {name: b"une autre image"}
    assert not Question.objects.exists() and not User.objects.exists()


# --- refusals ---------------------------------------------------------------------------------


@RESTORING
def test_a_restore_refuses_a_database_that_holds_content_and_changes_nothing(archive):
    before, images = everything(), media_files()

    with pytest.raises(CommandError, match="contient déjà du contenu"):
        restore(archive)

    assert everything() == before
    assert media_files() == images


def flip_a_byte_of_a_rows_member(path: Path) -> None:
    members = members_of(path)
    name = "rows/cms.question.jsonl"
    data = bytearray(members[name])
    data[10] ^= 0x01
    members[name] = bytes(data)
    write_members(path, members)


def flip_a_byte_in_the_file(path: Path) -> None:
    # Inside an image's stored bytes: the archive's own CRC no longer matches.
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo(first_media_member(path))
    raw = bytearray(path.read_bytes())
    header_extra = int.from_bytes(raw[info.header_offset + 28:info.header_offset + 30],
                                  "little")
    start = info.header_offset + 30 + len(info.filename.encode()) + header_extra
    raw[start + 100] ^= 0xFF
    path.write_bytes(bytes(raw))


def remove_a_media_member(path: Path) -> None:
    members = members_of(path)
    del members[first_media_member(path)]
    write_members(path, members)


def remove_the_manifest(path: Path) -> None:
    members = members_of(path)
    del members["manifest.json"]
    write_members(path, members)


def make_it_not_a_zip(path: Path) -> None:
    path.write_bytes(b"Ceci n'est pas une archive.\n" * 10)


def cut_it_short(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def write_a_row_that_is_not_json(path: Path) -> None:
    data = members_of(path)["rows/cms.theme.jsonl"] + b'{"model": "cms.theme", "pk": \n'
    forged(path, "rows/cms.theme.jsonl", data)


@RESTORING
@pytest.mark.parametrize(("damage", "message"), [
    (flip_a_byte_of_a_rows_member, "l’empreinte SHA-256 de rows/cms.question.jsonl"),
    (flip_a_byte_in_the_file, "est illisible"),
    (remove_a_media_member, "manque"),
    (remove_the_manifest, "le manifeste manifest.json manque"),
    (make_it_not_a_zip, "ce n’est pas une archive ZIP lisible"),
    (cut_it_short, "ce n’est pas une archive ZIP lisible"),
    (write_a_row_that_is_not_json, "La restauration a échoué"),
], ids=lambda value: getattr(value, "__name__", ""))
def test_a_restore_refuses_a_damaged_archive_and_writes_nothing(archive, damage, message):
    damage(archive)
    empty_everything()

    with pytest.raises(CommandError, match=message):
        restore(archive)

    assert_nothing_restored()


@RESTORING
def test_a_restore_refuses_an_archive_made_on_other_migrations(archive):
    members = members_of(archive)
    manifest = json.loads(members["manifest.json"])
    manifest["migrations"] = [m for m in manifest["migrations"]
                              if m != ["cms", "0011_typeset_numero"]]
    manifest["migrations"].append(["cms", "9999_demain"])
    members["manifest.json"] = json.dumps(manifest).encode()
    write_members(archive, members)
    empty_everything()

    with pytest.raises(CommandError) as refusal:
        restore(archive)

    message = str(refusal.value)
    assert "seulement dans l’archive\u00a0: cms.9999_demain" in message
    assert "seulement dans cette base\u00a0: cms.0011_typeset_numero" in message
    assert_nothing_restored()


def slot_of_no_question(path: Path) -> None:
    # Detected only when the constraints are checked, after the images are written.
    member = "rows/cms.cardquestion.jsonl"
    lines = members_of(path)[member].decode().splitlines()
    row = json.loads(lines[-1])
    row["pk"], row["fields"]["question"] = 10**9, 10**9
    forged(path, member, ("\n".join([*lines, json.dumps(row)]) + "\n").encode(),
           rows=len(lines) + 1)


def question_of_a_taken_ref(path: Path) -> None:
    member = "rows/cms.question.jsonl"
    lines = members_of(path)[member].decode().splitlines()
    row = json.loads(lines[0])
    row["pk"] = 10**9
    forged(path, member, ("\n".join([*lines, json.dumps(row)]) + "\n").encode(),
           rows=len(lines) + 1)


@RESTORING
@pytest.mark.parametrize("forge", [slot_of_no_question, question_of_a_taken_ref],
                         ids=lambda forge: forge.__name__)
def test_a_restore_failing_half_way_leaves_an_empty_database_and_no_image(archive, forge):
    forge(archive)
    empty_everything()

    with pytest.raises(CommandError, match="La restauration a échoué"):
        restore(archive)

    assert_nothing_restored()


# --- where a backup goes ----------------------------------------------------------------------


@pytest.mark.django_db
def test_a_backup_never_overwrites_a_file_unless_forced(small_library, tmp_path):
    path = tmp_path / "plateau.zip"
    path.write_bytes(b"la sauvegarde d'hier")

    with pytest.raises(CommandError, match=r"existe déjà.*--force"):
        backup(path)
    assert path.read_bytes() == b"la sauvegarde d'hier"

    backup(path, "--force")
    assert "manifest.json" in members_of(path)
    assert [p.name for p in tmp_path.iterdir()] == ["plateau.zip"]  # no temporary file left


@pytest.mark.django_db
@pytest.mark.parametrize(("where", "message"), [
    ("", "Le chemin de la sauvegarde est vide"),
    ("{tmp}", "est un dossier"),
    ("{tmp}/", "est un dossier"),
    ("{tmp}/pas-de-dossier/plateau.zip", "n’existe pas"),
])
def test_a_backup_refuses_a_path_it_cannot_write_to(tmp_path, where, message):
    with pytest.raises(CommandError, match=message):
        call_command("backup", where.format(tmp=tmp_path), stdout=io.StringIO())
    assert list(tmp_path.iterdir()) == []


@pytest.mark.django_db
def test_a_backup_without_a_path_is_dated_in_the_current_folder(small_library, tmp_path,
                                                                 monkeypatch):
    monkeypatch.chdir(tmp_path)
    call_command("backup", stdout=io.StringIO())
    [written] = tmp_path.iterdir()
    assert written.name.startswith("plateau-") and written.suffix == ".zip"
    manifest = json.loads(members_of(written)["manifest.json"])
    assert {t["label"]: t["rows"] for t in manifest["tables"]}["cms.question"] == (
        Question.objects.count())
    assert default_storage.exists(manifest["media"][0]["name"])
