"""What printing tests share: demo content per game, and reading PDFs back as a person would."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from io import StringIO
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection, models, transaction
from django.test import override_settings
from reportlab.lib.units import mm

from printing.render import PrintOptions, render

DEMO_DIR = Path(settings.BASE_DIR) / "fixtures"
RENDERS = Path(settings.BASE_DIR) / "var" / "renders"


def import_demo(game: str, scratch: Path) -> None:
    """Load one game's demo library through the importer, as `make run` does."""
    folder = scratch / f"demo-{game}"
    folder.mkdir(exist_ok=True)
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
    """The rows and image files one import of a game's demo wrote into a pristine database."""

    rows: dict  # model -> list of rows (attname -> value), tables in dependency order
    counts_before: dict  # model -> how many rows it held before the import
    content_types: dict  # ContentType pk -> (app_label, model), as the rows point to them
    media: Path

    @classmethod
    def take(cls, game: str, scratch: Path) -> DemoSnapshot:
        """Import the demo in a transaction rolled back afterwards, keeping what it wrote."""
        media = scratch / f"media-{game}"
        tables = _tables()
        with transaction.atomic():
            before = {model: _rows(model) for model in tables}
            with override_settings(MEDIA_ROOT=media):
                import_demo(game, scratch)
            written = {}
            for model in tables:
                after = _rows(model)
                if any(after.get(pk) != row for pk, row in before[model].items()):
                    # Replaying new rows would not reproduce that: say so rather than drift.
                    raise RuntimeError(f"load_demo changed rows of {model._meta.label} that "
                                       "were there before it; the demo snapshot cannot replay it")
                new = [row for pk, row in after.items() if pk not in before[model]]
                if new:
                    written[model] = new
            content_types = cls._content_types_of(written)
            transaction.set_rollback(True)
        return cls(rows=_in_dependency_order(written),
                   counts_before={model: len(before[model]) for model in written},
                   content_types=content_types, media=media)

    @staticmethod
    def _content_types_of(written: dict) -> dict:
        ids = {row[field.attname] for model, rows in written.items()
               for field in model._meta.concrete_fields
               if field.is_relation and field.related_model is ContentType for row in rows}
        return {pk: (app_label, name) for pk, app_label, name in
                ContentType.objects.filter(pk__in=ids).values_list("pk", "app_label", "model")}

    def fits(self) -> bool:
        """Whether the database is as the import found it, so its rows can be laid down again."""
        if any(model._base_manager.count() != count
               for model, count in self.counts_before.items()):
            return False
        now = {pk: (app_label, name) for pk, app_label, name in ContentType.objects.filter(
            pk__in=self.content_types).values_list("pk", "app_label", "model")}
        return now == self.content_types

    def lay_down(self, media_root: Path) -> None:
        """Insert the rows the import wrote, and copy its images into media_root."""
        for model, rows in self.rows.items():
            model._base_manager.bulk_create([model(**row) for row in rows])
        # PostgreSQL's sequences do not move for rows inserted with their ids.
        with connection.cursor() as cursor:
            for sql in connection.ops.sequence_reset_sql(no_style(), list(self.rows)):
                cursor.execute(sql)
        if self.media.is_dir():
            shutil.copytree(self.media, media_root, dirs_exist_ok=True)


@pytest.fixture(scope="session")
def demo_snapshots(django_db_setup, django_db_blocker, tmp_path_factory):
    """Import each game's demo library once per run, to lay it down again in each test."""
    scratch = tmp_path_factory.mktemp("demo")
    with django_db_blocker.unblock():
        return {folder.name: DemoSnapshot.take(folder.name, scratch)
                for folder in sorted(DEMO_DIR.iterdir()) if (folder / "questions.json").exists()}


@pytest.fixture
def demo(db, settings, tmp_path, demo_snapshots):
    """Load one game's demo library (fixtures/<game>/) into the test database.

    The importer runs once per session and its rows are laid down again in each test's
    transaction (tests/cms import the demo files for real). A database that already holds
    content gets the importer itself, which alone knows what it would skip.
    """

    def load(game: str) -> None:
        snapshot = demo_snapshots[game]
        if snapshot.fits():
            snapshot.lay_down(Path(settings.MEDIA_ROOT))
        else:
            import_demo(game, tmp_path)

    return load


@pytest.fixture
def print_pdf(tmp_path):
    """Render a game's products to a file and return its path (options as keywords)."""

    def run(game: str, *products: str, include_drafts: bool = False, refs=None, **options):
        path = tmp_path / f"{game}-{'-'.join(products) or 'tout'}.pdf"
        render(game, products, PrintOptions(**options), out=str(path),
               include_drafts=include_drafts, refs=refs)
        return path

    return run


def text_in(pdf: pdfium.PdfDocument, page: int, rect_mm) -> str:
    """Return the text of one page inside a rectangle given in mm (x, y, w, h from bottom-left)."""
    x, y, w, h = rect_mm
    textpage = pdf[page].get_textpage()
    return textpage.get_text_bounded(left=x * mm, bottom=y * mm, right=(x + w) * mm,
                                     top=(y + h) * mm)


def page_text(pdf: pdfium.PdfDocument, page: int) -> str:
    return pdf[page].get_textpage().get_text_range()


def flat(text: str) -> str:
    """Collapse every kind of space and line break, to compare text as words."""
    return " ".join(text.replace("\u202f", " ").replace("\u00a0", " ").replace("\r", " ")
                    .split())


def save_png(path: Path, page: int, name: str, scale: float = 1.5) -> Path:
    """Render a page to var/renders/<name>.png, for a person to look at."""
    RENDERS.mkdir(parents=True, exist_ok=True)
    pdf = pdfium.PdfDocument(str(path))
    image = pdf[page].render(scale=scale).to_pil()
    out = RENDERS / f"{name}.png"
    image.save(out)
    return out
