"""A printed sheet, read from the PDF alone: where each face's identifier lands on paper.

Nothing here knows how Plateau lays out a sheet. It reads what a printer receives (page
sizes, the duplex preference, the text on each page) and models the paper: a duplex
printer puts each even page on the other side of the page before it, turned over around
the sheet's long edge or its short one; a landscape page is turned onto the portrait
sheet by the printer; fronts and backs printed apart are turned by hand around the long
edge; a gutterfold page is folded along its horizontal middle.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pypdfium2 as pdfium
from pypdf import PdfReader
from reportlab.lib.units import mm

IDENT = re.compile(r"\b[A-Z]{3}-\d{3,}\b")


@dataclass(frozen=True)
class Seen:
    """One identifier printed on one page, at the centre of its letters (mm)."""

    page: int
    x: float
    y: float


def identifiers(path) -> dict[str, list[Seen]]:
    pdf = pdfium.PdfDocument(str(path))
    found: dict[str, list[Seen]] = {}
    for number in range(len(pdf)):
        textpage = pdf[number].get_textpage()
        text = textpage.get_text_range()
        for match in IDENT.finditer(text):
            # Loose boxes: the advance widths, not the ink, so a centre is the same on both faces.
            boxes = [textpage.get_charbox(i, loose=True)
                     for i in range(match.start(), match.end())]
            left = min(b[0] for b in boxes)
            bottom = min(b[1] for b in boxes)
            right = max(b[2] for b in boxes)
            top = max(b[3] for b in boxes)
            found.setdefault(match.group(), []).append(
                Seen(number, (left + right) / 2 / mm, (bottom + top) / 2 / mm))
    return found


def duplex_of(path) -> str:
    prefs = PdfReader(str(path)).trailer["/Root"].get("/ViewerPreferences", {})
    return str(prefs.get("/Duplex", "/Simplex")).lstrip("/")


def page_sizes(path) -> list[tuple[float, float]]:
    return [(float(p.mediabox.width) / mm, float(p.mediabox.height) / mm)
            for p in PdfReader(str(path)).pages]


def behind(duplex: str, size: tuple[float, float], x: float, y: float) -> tuple[float, float]:
    """Return the point of a verso page that lies behind (x, y) of its recto page."""
    w, h = size
    landscape = w > h
    long_edge = duplex in ("DuplexFlipLongEdge", "separate")
    # On a landscape page turned onto the sheet, the sheet's long edge runs across it.
    mirror_x = long_edge != landscape
    return (w - x, y) if mirror_x else (x, h - y)


def misplaced_backs(path, offset=(0.0, 0.0), tolerance=0.3) -> list[str]:
    """Return what is wrong: each identifier whose back does not lie behind its front.

    `offset` is what the maker asked the backs to move by, on the verso's axes.
    """
    duplex = duplex_of(path)
    sizes = page_sizes(path)
    wrong = []
    for ident, seen in sorted(identifiers(path).items()):
        if len(seen) != 2:
            wrong.append(f"{ident}: printed {len(seen)} time(s), not on a front and a back")
            continue
        front, back = seen
        if front.page == back.page and front.y < back.y:
            front, back = back, front
        if front.page == back.page:
            # A gutterfold: the back across the fold line, the page's horizontal middle.
            _w, h = sizes[front.page]
            expected = (front.x, h - front.y)
        elif duplex == "Simplex":
            expected = behind("separate", sizes[front.page], front.x, front.y)
            if back.page <= front.page:
                wrong.append(f"{ident}: its back comes before its front")
        else:
            if back.page != front.page + 1 or front.page % 2:
                wrong.append(f"{ident}: front on page {front.page + 1}, back on page "
                             f"{back.page + 1}: not the two sides of one sheet")
                continue
            if sizes[front.page] != sizes[back.page]:
                wrong.append(f"{ident}: its two sides are pages of different sizes")
            expected = behind(duplex, sizes[front.page], front.x, front.y)
        x, y = expected[0] + offset[0], expected[1] + offset[1]
        if abs(back.x - x) > tolerance or abs(back.y - y) > tolerance:
            wrong.append(f"{ident}: back at ({back.x:.1f}, {back.y:.1f}) mm, behind its "
                         f"front is ({x:.1f}, {y:.1f}) mm")
    return wrong


def is_blank(path, page: int) -> bool:
    """Whether a page prints nothing at all: no text, no shape, no image."""
    pdf = pdfium.PdfDocument(str(path))
    return not list(pdf[page].get_objects())
