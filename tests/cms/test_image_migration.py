"""The migration that moves images stored before the one image path to clean, hashed names."""

import importlib
import io
import json

import pytest
import reversion
from django.apps import apps
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from PIL import Image
from reversion.models import Version

from cms.models import Correction, Question
from tests import builders
from tests.builders import make_question
from tests.cms.test_hostile_images import jpeg_with_exif, png_bytes

migration = importlib.import_module("cms.migrations.0005_clean_stored_images")

pytestmark = pytest.mark.django_db


def stored_as_sent(name: str, content: bytes) -> str:
    """Store a file as the question form used to: under the upload's own name, untouched."""
    return default_storage.save(name, ContentFile(content))


def run_migration():
    migration.clean_stored_images(apps, None)


def history_images(question) -> list[str]:
    return [json.loads(v.serialized_data)[0]["fields"]["image"]
            for v in Version.objects.get_for_object(question)]


def test_an_image_stored_as_sent_moves_to_a_clean_hashed_name_everywhere():
    old = stored_as_sent("questions/2026/11/Marianne.jpg", jpeg_with_exif())
    question = make_question("etoile-mysterieuse", image=old)
    with reversion.create_revision():
        reversion.add_to_revision(question)
    correction = Correction.objects.create(
        question=question, base_version=1, data={"text": "Qui est-ce ?", "image": old},
        base_data={"image": old})

    run_migration()

    question.refresh_from_db()
    new = question.image.name
    assert new != old and "Marianne" not in new
    assert new.startswith("questions/") and new.endswith(".jpg")
    with default_storage.open(new, "rb") as stored:
        image = Image.open(io.BytesIO(stored.read()))
        assert image.format == "JPEG" and not image.getexif()
        assert "comment" not in image.info
    assert not default_storage.exists(old)
    assert history_images(question) == [new]
    correction.refresh_from_db()
    assert correction.data == {"text": "Qui est-ce ?", "image": new}
    assert correction.base_data == {"image": new}


def test_every_other_question_and_file_is_unchanged():
    clean = make_question("etoile-mysterieuse")  # stored by the one path already
    plain = make_question("coup-par-coup")
    before = {q.pk: (q.image.name, q.text, q.version) for q in (clean, plain)}
    stored_as_sent("questions/2026/11/orpheline.png", png_bytes())  # named by no question
    with default_storage.open(builders.test_image(), "rb") as f:
        clean_bytes = f.read()

    run_migration()

    after = {q.pk: (q.image.name, q.text, q.version)
             for q in Question.objects.filter(pk__in=before)}
    assert after == before
    with default_storage.open(builders.test_image(), "rb") as f:
        assert f.read() == clean_bytes
    assert default_storage.exists("questions/2026/11/orpheline.png")


def test_two_questions_sharing_a_file_share_its_clean_copy():
    old = stored_as_sent("questions/etoile.png", png_bytes(text="auteur"))
    first = make_question("etoile-mysterieuse", image=old)
    second = make_question("etoile-mysterieuse", image=old)

    run_migration()

    first.refresh_from_db()
    second.refresh_from_db()
    assert first.image.name == second.image.name != old
    assert default_storage.exists(first.image.name)


def test_a_file_the_image_path_refuses_or_a_missing_one_is_left_and_named(capsys):
    truncated = stored_as_sent("questions/tronquee.jpg", jpeg_with_exif()[:400])
    broken = make_question("etoile-mysterieuse", image=truncated)
    gone = make_question("etoile-mysterieuse", image="questions/disparue.png")

    run_migration()

    broken.refresh_from_db()
    gone.refresh_from_db()
    assert broken.image.name == truncated and default_storage.exists(truncated)
    assert gone.image.name == "questions/disparue.png"
    out = capsys.readouterr().out
    assert "« questions/tronquee.jpg »" in out and "tronqué" in out
    assert "« questions/disparue.png » : fichier introuvable" in out
