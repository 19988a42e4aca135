"""The demo library of fixtures/, imported once per run and laid down again in each test."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from io import StringIO
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection, models, transaction
from django.test import override_settings

DEMO_DIR = Path(settings.BASE_DIR) / "fixtures"


def demo_games() -> list[str]:
    """Return the games that have a demo library, in the order load_demo loads them."""
    return [folder.name for folder in sorted(DEMO_DIR.iterdir())
            if (folder / "questions.json").exists()]


def import_demo(game: str, scratch: Path) -> None:
    """Load one game's demo library through the importer, as `make run` does."""
    folder = scratch / f"demo-{game}"
    folder.mkdir(parents=True, exist_ok=True)
    if not (folder / game).exists():
        (folder / game).symlink_to(DEMO_DIR / game)
    call_command("load_demo", dir=folder, stdout=StringIO())


def _tables() -> list[type[models.Model]]:
    return [model for model in apps.get_models(include_auto_created=True)
            if model._meta.managed and not model._meta.proxy]


def _rows(model: type[models.Model]) -> dict:
    fields = [field.attname for field in model._meta.concrete_fields]
    return {row[model._meta.pk.attname]: row for row in model._base_manager.values(*fields)}


def _in_dependency_order(written: dict) -> dict:
    """Order the tables so that a row comes after the rows it points to."""
    ordered: dict = {}

    def visit(model, path=()):
        if model in ordered or model in path:
            return
        for field in model._meta.concrete_fields:
            target = field.related_model if field.is_relation else None
            if target in written and target is not model:
                visit(target, (*path, model))
        ordered[model] = written[model]

    for model in written:
        visit(model)
    return ordered


@dataclass(frozen=True)
class DemoSnapshot:
    """The rows and image files that one game's demo import wrote, to write them again."""

    game: str
    rows: dict  # model -> list of rows (attname -> value), tables in dependency order
    inserts: list  # (one INSERT, its rows' values) a table, in the same order
    counts_before: dict  # model -> how many rows it held in the pristine database
    content_types: dict  # ContentType pk -> (app_label, model), as the rows point to them
    media: Path  # the MEDIA_ROOT the import wrote to
    files: tuple[Path, ...]  # the image files it wrote there, relative to media

    @classmethod
    def take_each(cls, games: list[str], scratch: Path) -> dict[str, DemoSnapshot]:
        """Import each game's demo in turn, as load_demo does, in a transaction rolled back
        afterwards, keeping what each import wrote."""
        media = scratch / "media"
        tables = _tables()
        snapshots = {}
        with transaction.atomic():
            pristine = before = {model: _rows(model) for model in tables}
            for game in games:
                files_before = _files(media)
                with override_settings(MEDIA_ROOT=media):
                    import_demo(game, scratch)
                after = {model: _rows(model) for model in tables}
                written = {}
                for model in tables:
                    if any(after[model].get(pk) != row for pk, row in before[model].items()):
                        # Replaying new rows would not reproduce that: say so, not drift.
                        raise RuntimeError(
                            f"load_demo changed rows of {model._meta.label} that were there "
                            "before it; the demo snapshot cannot replay it")
                    new = [row for pk, row in after[model].items() if pk not in before[model]]
                    if new:
                        written[model] = new
                rows = _in_dependency_order(written)
                snapshots[game] = cls(
                    game=game, rows=rows, inserts=_inserts(rows),
                    counts_before={model: len(pristine[model]) for model in written},
                    content_types=cls._content_types_of(written), media=media,
                    files=tuple(sorted(_files(media) - files_before)))
                before = after
            transaction.set_rollback(True)
        return snapshots

    def __getstate__(self) -> dict:
        # Tables go by their model's label: an auto-created model (a many-to-many table) is
        # no attribute of its module, which pickle would look it up as.
        return {**self.__dict__,
                "rows": {model._meta.label: rows for model, rows in self.rows.items()},
                "counts_before": {model._meta.label: count
                                  for model, count in self.counts_before.items()}}

    def __setstate__(self, state: dict) -> None:
        state["rows"] = {apps.get_model(label): rows for label, rows in state["rows"].items()}
        state["counts_before"] = {apps.get_model(label): count
                                  for label, count in state["counts_before"].items()}
        self.__dict__.update(state)

    @staticmethod
    def _content_types_of(written: dict) -> dict:
        ids = {row[field.attname] for model, rows in written.items()
               for field in model._meta.concrete_fields
               if field.is_relation and field.related_model is ContentType for row in rows}
        return {pk: (app_label, name) for pk, app_label, name in
                ContentType.objects.filter(pk__in=ids).values_list("pk", "app_label", "model")}

    def fits(self) -> bool:
        """Whether the tables it writes are as pristine as the import found them, so that its
        rows can be laid down again."""
        if any(model._base_manager.count() != count
               for model, count in self.counts_before.items()):
            return False
        now = {pk: (app_label, name) for pk, app_label, name in ContentType.objects.filter(
            pk__in=self.content_types).values_list("pk", "app_label", "model")}
        return now == self.content_types

    def lay_down(self, media_root: Path) -> None:
        """Insert the rows the import wrote, and copy its images into media_root."""
        with connection.cursor() as cursor:
            for sql, params in self.inserts:
                cursor.executemany(sql, params)
        # PostgreSQL's sequences do not move for rows inserted with their ids.
        with connection.cursor() as cursor:
            for sql in connection.ops.sequence_reset_sql(no_style(), list(self.rows)):
                cursor.execute(sql)
        for name in self.files:
            (media_root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(self.media / name, media_root / name)


def load_snapshots(snapshots: list[DemoSnapshot], media_root: Path, scratch: Path) -> None:
    """Lay these games' rows down again, in the order they were taken; a database that
    already holds content gets the importer itself, which alone knows what it would skip."""
    if all(snapshot.fits() for snapshot in snapshots):
        for snapshot in snapshots:
            snapshot.lay_down(media_root)
    else:
        for snapshot in snapshots:
            import_demo(snapshot.game, scratch)


def _inserts(rows: dict) -> list[tuple[str, list[list]]]:
    """Return one INSERT a table, with its rows' values as the database takes them.

    A test lays the demo down again in a fraction of the time bulk_create() takes to build
    and save model instances; each value still goes through its field's own conversion.
    """
    quote = connection.ops.quote_name
    inserts = []
    for model, table_rows in rows.items():
        fields = model._meta.concrete_fields
        sql = "INSERT INTO {} ({}) VALUES ({})".format(
            quote(model._meta.db_table), ", ".join(quote(f.column) for f in fields),
            ", ".join(["%s"] * len(fields)))
        inserts.append((sql, [[field.get_db_prep_save(row[field.attname], connection)
                               for field in fields] for row in table_rows]))
    return inserts


def _files(root: Path) -> set[Path]:
    return {path.relative_to(root) for path in root.rglob("*") if path.is_file()}
