"""Running an import outside the admin: the commands and the demo loader share this."""

from __future__ import annotations

from pathlib import Path

import reversion
from django.core.management.base import CommandError
from django.db.models import prefetch_related_objects
from import_export.command_utils import get_format_class, get_resource_class

from .formats import FORMATS_BY_EXTENSION, FORMATS_BY_NAME
from .models import Card, Question
from .resources import RESOURCES


def resource_class(name: str):
    """Return a resource by short name (questions, cartes, images) or dotted path."""
    return RESOURCES.get(name) or get_resource_class(name)


def format_for(name: str | None, file_name: str):
    """Return our format by name (csv, xlsx, json, zip, opentdb, openquizzdb) or extension."""
    if name:
        found = FORMATS_BY_NAME.get(name.lower())
        return found() if found else get_format_class(name, file_name)
    extension = Path(file_name).suffix.lstrip(".").lower()
    if extension not in FORMATS_BY_EXTENSION:
        raise CommandError(
            f"Format inconnu pour « {file_name} » : précisez --format "
            f"({', '.join(FORMATS_BY_NAME)}).")
    return FORMATS_BY_EXTENSION[extension]()


def import_dataset(resource, dataset, *, dry_run: bool, comment: str):
    """Import a dataset whole or not at all, keeping a revision of what it wrote."""
    with reversion.create_revision():
        reversion.set_comment(comment)
        result = resource.import_data(dataset, dry_run=dry_run,
                                      retain_instance_in_row_result=True)
        if not dry_run:
            keep_in_revision(result)
    return result


def keep_in_revision(result) -> None:
    """Add what a successful import wrote to the revision being recorded."""
    if failed(result):
        return
    written = [row.instance for row in result.rows
               if row.instance is not None and row.instance.pk is not None
               and not getattr(row.instance, "_as_correction", False)]  # live unchanged
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
        lines += [f"Ligne {number} : {error.error}" for error in errors]
    for row in result.invalid_rows:
        for column, messages in row.field_specific_errors.items():
            lines += [f"Ligne {row.number}, colonne « {column} » : {m}" for m in messages]
        lines += [f"Ligne {row.number} : {m}" for m in row.non_field_specific_errors]
    return lines


def summary(result) -> str:
    totals = result.totals
    return (f"{totals['new']} ajouté(s), {totals['update']} modifié(s), "
            f"{totals['skip']} inchangé(s)")
