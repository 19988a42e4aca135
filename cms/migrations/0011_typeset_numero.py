"""Typeset the stored content again: typography now keeps « n° 2 » together (n°, no-break
space, number). Same steps as 0008's: no new version, no history."""

import importlib

from django.db import migrations

_0008 = importlib.import_module("cms.migrations.0008_text_search_themes")


def forwards(apps, schema_editor):
    _0008.typeset_questions(apps)
    _0008.typeset_corrections(apps, names={})  # themes are already spelt one way per game


class Migration(migrations.Migration):

    dependencies = [
        ("cms", "0010_content_changes"),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
