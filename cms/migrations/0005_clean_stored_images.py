"""Store every question image as an upload is stored now: re-encoded, under its content's hash.

Images uploaded through the question form used to be stored as sent (EXIF position, camera,
comments, whatever followed the image, and a file name that often gave the answer away), and
the ZIP import used a name of its own. Each such file is read, cleaned by cms.images, stored
under its hash, and every reference to it moves to the new name: the questions, the pending
corrections and the history, so that restoring an old version finds its picture. The old file
is then deleted. A file that is missing or that cms.images refuses (truncated, a page hidden
inside) is left as it is and named in the migration's output: the content checks and the
question form report it to the editors.
"""

import json

from django.core.exceptions import ValidationError
from django.core.files.storage import default_storage
from django.db import migrations

from cms.images import clean_image, store_clean_image
from cms.validators import STORED_CLEAN


def _names_in_versions(versions):
    for version in versions:
        try:
            objects = json.loads(version.serialized_data)
        except ValueError:
            continue
        for obj in objects:
            name = obj.get("fields", {}).get("image")
            if name:
                yield name


def _rewrite_version(version, moved) -> bool:
    try:
        objects = json.loads(version.serialized_data)
    except ValueError:
        return False
    changed = False
    for obj in objects:
        fields = obj.get("fields", {})
        if fields.get("image") in moved:
            fields["image"] = moved[fields["image"]]
            changed = True
    if changed:
        version.serialized_data = json.dumps(objects)
    return changed


def _rewrite_data(data, moved):
    if isinstance(data, dict) and data.get("image") in moved:
        return {**data, "image": moved[data["image"]]}
    return data


def clean_stored_images(apps, schema_editor):
    Question = apps.get_model("cms", "Question")
    Correction = apps.get_model("cms", "Correction")
    ContentType = apps.get_model("contenttypes", "ContentType")
    Version = apps.get_model("reversion", "Version")
    question_type = ContentType.objects.filter(app_label="cms", model="question").first()
    versions = (Version.objects.filter(content_type=question_type)
                if question_type else Version.objects.none())
    corrections = list(Correction.objects.exclude(question=None))

    names = set(Question.objects.exclude(image="").values_list("image", flat=True))
    for correction in corrections:
        for data in (correction.data, correction.base_data):
            if isinstance(data, dict) and data.get("image"):
                names.add(data["image"])
    names.update(_names_in_versions(versions.iterator()))

    moved, left = {}, []
    for name in sorted(names):
        if STORED_CLEAN.fullmatch(name):
            continue
        try:
            with default_storage.open(name, "rb") as stored:
                content = stored.read()
        except (OSError, ValueError):  # missing, or a name outside the media folder
            left.append((name, "fichier introuvable"))
            continue
        try:
            clean = clean_image(content, path=name)
        except ValidationError as refusal:
            left.append((name, " ".join(refusal.messages)))
            continue
        store_clean_image(clean)
        moved[name] = clean.storage_name

    if moved:
        for old, new in moved.items():
            Question.objects.filter(image=old).update(image=new)
        for correction in corrections:
            data = _rewrite_data(correction.data, moved)
            base_data = _rewrite_data(correction.base_data, moved)
            if data is not correction.data or base_data is not correction.base_data:
                correction.data, correction.base_data = data, base_data
                correction.save(update_fields=["data", "base_data"])
        for version in versions.iterator():
            if _rewrite_version(version, moved):
                version.save(update_fields=["serialized_data"])
        for old in moved:
            default_storage.delete(old)
    for name, reason in left:
        print(f"\n  Image laissée telle quelle, « {name} » : {reason}", end="")


class Migration(migrations.Migration):

    dependencies = [
        ("cms", "0004_corrections_and_versions"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("reversion", "0002_add_index_on_version_for_content_type_and_db"),
    ]

    operations = [
        migrations.RunPython(clean_stored_images, migrations.RunPython.noop, elidable=True),
    ]
