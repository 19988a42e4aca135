"""The import's confirmation: it imports what the same user previewed, once, from a held
upload the server names; the browser's hidden fields name no file."""

import os
import stat
import time

import pytest
from django.test import Client
from django.urls import reverse

from cms import importing
from cms.models import Question
from tests.cms.test_import_admin import (
    XLSX,
    _ConfirmForm,
    ladder_file,
    ladder_row,
    page_text,
    upload,
)


@pytest.fixture(autouse=True)
def _var_folder(settings, tmp_path):
    settings.VAR_DIR = tmp_path / "var"


def held_files() -> list[str]:
    return sorted(p.name for p in importing.upload_folder().iterdir())


def confirm_fields(preview) -> tuple[str, dict]:
    assert preview.status_code == 200
    form = _ConfirmForm()
    form.feed(preview.content.decode())
    assert form.action, page_text(preview)[:2000]
    return form.action, form.fields


def good_file() -> bytes:
    return ladder_file(ladder_row("palier-1"))


def test_a_preview_holds_its_upload_until_confirmed_then_deletes_it(editor_client):
    preview = upload(editor_client, good_file())
    assert len(held_files()) == 1

    action, fields = confirm_fields(preview)
    response = editor_client.post(action, fields, follow=True)

    assert "Import terminé" in page_text(response)
    assert Question.objects.filter(ref="palier-1").exists()
    assert held_files() == []


def test_the_hidden_field_holds_no_file_name(editor_client):
    _action, fields = confirm_fields(upload(editor_client, good_file()))

    assert held_files()[0] not in fields["import_file_name"]


def test_an_unreadable_file_is_not_kept(editor_client):
    upload(editor_client, bytes(range(256)) * 16, name="lot.xlsx", file_format=XLSX)

    assert held_files() == []


def test_a_file_with_row_errors_is_not_kept(editor_client):
    response = upload(editor_client, ladder_file(ladder_row("palier-1", difficulty="facile")))

    assert "Le fichier n’a pas été importé" in page_text(response)
    assert held_files() == []


def test_confirming_twice_says_already_imported_and_imports_once(editor_client):
    action, fields = confirm_fields(upload(editor_client, good_file()))
    editor_client.post(action, fields, follow=True)

    response = editor_client.post(action, fields, follow=True)

    assert response.status_code == 200
    assert "Fichier « lot.csv » déjà importé : cette confirmation n’a rien refait." in \
        page_text(response)
    assert Question.objects.filter(ref="palier-1").count() == 1


def test_a_tampered_confirmation_is_refused(editor_client):
    action, fields = confirm_fields(upload(editor_client, good_file()))
    fields["import_file_name"] = fields["import_file_name"][:-2] + "xx"

    response = editor_client.post(action, fields, follow=True)

    assert response.status_code == 200
    assert "Confirmation refusée : le formulaire a été modifié." in page_text(response)
    assert not Question.objects.exists()


def test_a_file_named_in_the_hidden_field_is_neither_read_nor_deleted(editor_client, tmp_path):
    victim = tmp_path / "victime.csv"
    victim.write_bytes(good_file())
    action, fields = confirm_fields(upload(editor_client, ladder_file(ladder_row("autre"))))

    for name in ("victime.csv", str(victim), "plateau-import/../victime.csv"):
        response = editor_client.post(action, {**fields, "import_file_name": name},
                                      follow=True)
        assert response.status_code == 200
        assert "le formulaire a été modifié" in page_text(response)

    assert victim.read_bytes() == good_file()
    assert not Question.objects.exists()


def test_another_user_cannot_confirm_a_preview(editor_client, reviewer):
    action, fields = confirm_fields(upload(editor_client, good_file()))
    other = Client()
    other.force_login(reviewer)

    response = other.post(action, fields, follow=True)

    assert "le formulaire a été modifié" in page_text(response)
    assert not Question.objects.exists()


@pytest.mark.parametrize(("field", "value"), [
    ("format", XLSX), ("original_file_name", "autre.csv"), ("resource", "1"),
    ("kind", "qualifs"),
])
def test_a_confirmation_whose_field_disagrees_with_the_preview_is_refused_by_name(
        editor_client, field, value):
    action, fields = confirm_fields(upload(editor_client, good_file()))
    assert fields.get(field, "") != value

    response = editor_client.post(action, {**fields, field: value}, follow=True)

    assert (f"Confirmation refusée : le champ « {field} » du formulaire ne correspond plus à "
            "l’aperçu. Renvoyez le fichier.") in page_text(response)
    assert not Question.objects.exists()


def test_a_refused_tampered_confirmation_leaves_the_preview_confirmable(editor_client):
    action, fields = confirm_fields(upload(editor_client, good_file()))
    editor_client.post(action, {**fields, "format": XLSX}, follow=True)

    response = editor_client.post(action, fields, follow=True)

    assert "Import terminé" in page_text(response)
    assert Question.objects.filter(ref="palier-1").exists()


def test_an_expired_preview_is_refused(editor_client, monkeypatch):
    action, fields = confirm_fields(upload(editor_client, good_file()))
    monkeypatch.setattr("cms.admin_import.UPLOAD_MAX_AGE_SECONDS", -1)

    response = editor_client.post(action, fields, follow=True)

    assert "Aperçu expiré : renvoyez le fichier pour l’importer." in page_text(response)
    assert not Question.objects.exists()


def test_uploads_older_than_the_max_age_are_removed_on_the_next_import(editor_client):
    stale = importing.upload_folder() / ("0" * 32)
    stale.write_bytes(b"oublie")
    long_ago = time.time() - importing.UPLOAD_MAX_AGE_SECONDS - 60
    os.utime(stale, (long_ago, long_ago))
    recent = importing.upload_folder() / ("1" * 32)
    recent.write_bytes(b"en attente")

    upload(editor_client, bytes(range(256)) * 16)

    assert held_files() == ["1" * 32]


def test_uploads_older_than_the_max_age_are_removed_when_an_editor_opens_a_list(
        editor_client):
    stale = importing.upload_folder() / ("0" * 32)
    stale.write_bytes(b"oublie")
    long_ago = time.time() - importing.UPLOAD_MAX_AGE_SECONDS - 60
    os.utime(stale, (long_ago, long_ago))

    response = editor_client.get(reverse("admin:cms_question_changelist"))

    assert response.status_code == 200
    assert held_files() == []


def test_held_uploads_live_in_the_var_folder_readable_by_this_user_alone(settings, db):
    upload_id = importing.hold_upload([b"a;b\r\n"])

    folder = settings.VAR_DIR / "import-hold"
    assert (folder / upload_id).read_bytes() == b"a;b\r\n"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_a_hold_folder_open_to_other_users_is_refused(settings):
    folder = settings.VAR_DIR / "import-hold"
    folder.mkdir(parents=True)
    folder.chmod(0o777)

    with pytest.raises(importing.UploadFolderError, match="open to other users"):
        importing.upload_folder()


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a folder away takes root")
def test_a_hold_folder_owned_by_another_user_is_refused(settings):
    folder = settings.VAR_DIR / "import-hold"
    folder.mkdir(parents=True, mode=0o700)
    os.chown(folder, 4242, 4242)

    with pytest.raises(importing.UploadFolderError, match="found uid 4242"):
        importing.upload_folder()


def test_a_hold_folder_that_is_a_link_is_refused(settings, tmp_path):
    elsewhere = tmp_path / "ailleurs"
    elsewhere.mkdir(mode=0o700)
    settings.VAR_DIR.mkdir(parents=True)
    (settings.VAR_DIR / "import-hold").symlink_to(elsewhere)

    with pytest.raises(importing.UploadFolderError):
        importing.upload_folder()


def test_of_two_claims_on_one_upload_only_the_first_gets_it(db):
    upload_id = importing.hold_upload([b"a;b\r\n", b"1;2\r\n"])

    assert importing.claim_upload(upload_id) == b"a;b\r\n1;2\r\n"
    assert importing.claim_upload(upload_id) is None
    assert held_files() == []


def test_an_upload_id_that_is_not_ours_is_refused():
    with pytest.raises(ValueError):
        importing.held_upload_path("../victime.csv")


def test_a_tampered_version_record_is_refused_without_an_error_page(editor_client):
    action, fields = confirm_fields(upload(editor_client, good_file()))

    response = editor_client.post(action, {**fields, "tokens": "x" + fields["tokens"]})

    assert response.status_code == 200
    assert "Aperçu périmé ou altéré : relancez l’import." in page_text(response)
    assert not Question.objects.exists()


def test_a_confirmation_without_its_record_is_refused_without_an_error_page(editor_client):
    action, fields = confirm_fields(upload(editor_client, good_file()))
    del fields["import_file_name"]

    response = editor_client.post(action, fields)

    assert response.status_code == 200
    assert not Question.objects.exists()
