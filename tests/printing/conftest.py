"""What printing tests share: printing a game, and reading PDFs back as a person would."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from django.conf import settings
from django.db import transaction
from reportlab.lib.units import mm

from printing.render import PrintOptions, render

RENDERS = Path(settings.BASE_DIR) / "var" / "renders"


@pytest.fixture
def print_pdf(tmp_path):
    """Render a game's products to a file and return its path (options as keywords)."""

    def run(game: str, *products: str, include_drafts: bool = False, refs=None, **options):
        path = tmp_path / f"{game}-{'-'.join(products) or 'tout'}.pdf"
        render(game, products, PrintOptions(**options), out=str(path),
               include_drafts=include_drafts, refs=refs)
        return path

    return run


@pytest.fixture(scope="module")
def _module_prints(tmp_path_factory) -> tuple[Path, dict]:
    return tmp_path_factory.mktemp("prints"), {}


@pytest.fixture
def demo_print(demo, demo_snapshots, _module_prints):
    """Return the PDF `draw(path)` prints from a game's demo library alone, printed once per
    test module for every test that asks for the same `key`.

    The demo is laid down in a savepoint rolled back after the print: the test's database
    stays as it was. Ask before the test writes content of its own.
    """
    folder, printed = _module_prints

    def run(key, game: str, draw) -> Path:
        if key not in printed:
            path = folder / f"{game}-{len(printed)}.pdf"
            snapshot = demo_snapshots.get(game)  # The Mind and Le Minotaure have no content
            with transaction.atomic():
                if snapshot is not None:
                    assert snapshot.fits(), "the demo prints alone: ask before writing content"
                    demo(game)
                draw(path)
                transaction.set_rollback(True)
            printed[key] = path
        return printed[key]

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
