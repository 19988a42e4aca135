"""The canvas pen's own text encoding gives exactly what ReportLab would have written."""

from __future__ import annotations

import gc
import io
import weakref

import pypdfium2 as pdfium
from reportlab.pdfgen.canvas import Canvas

from printing import text as typo
from printing.draw import BLACK, WHITE, CanvasPen, _fill_operator, _shown, colour
from printing.products.style import GAME_COLOURS

from .conftest import flat

# Lines in the order a deck would meet them: new characters keep arriving, some twice,
# some the font lacks, and more than one subset's worth (256 codes) in all.
LINES = [
    "Quel fleuve traverse Paris ?",
    "La Seine",
    "L’« Île » de la Cité\u202f: 1\u202f000\u00a0€",
    "Parenthèses (ouvertes) et \\ barre, ) seule",
    "",
    "Ça, c’est Noël ! Œuvre, cœur, ŒUF",
    "un éléphant 🐘 que la police n’a pas",
    "".join(chr(code) for code in range(0x100, 0x180)),  # Latin Extended-A
    "".join(chr(code) for code in range(0x391, 0x3CA) if code != 0x3A2),  # Greek
    "".join(chr(code) for code in range(0x410, 0x450)),  # Cyrillic: past the first subset
    "La Seine, encore ; et ŒUF (Ωμέγα) — Ж",
    "Quel fleuve traverse Paris ?",
]


def test_lines_are_encoded_as_reportlab_encodes_them():
    typo.fonts()
    ours = Canvas(io.BytesIO()).beginText()
    theirs = Canvas(io.BytesIO()).beginText()
    for font in (typo.REGULAR, typo.BOLD):
        ours.setFont(font, 9)
        theirs.setFont(font, 9)
        for line in LINES:
            # Both documents meet the same characters in the same order, so they give
            # them the same codes: the operators must be the same, byte for byte.
            assert _shown(ours, line) == theirs._formatText(line), line


def test_encoded_lines_read_back_from_the_pdf():
    typo.fonts()
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(600, 400), invariant=1)
    pen = CanvasPen(canvas, 600 / 2.834645669, 400 / 2.834645669)
    # What the font cannot draw is refused before printing; the rest must read back.
    readable = [line for line in LINES
                if line and not typo.missing_glyphs(typo.printable(line), typo.REGULAR)]
    assert len(readable) >= 8
    for index, line in enumerate(readable):
        pen.label(line, 5, 130 - index * 10, size=8)
    pen.flush()
    canvas.showPage()
    canvas.save()
    document = pdfium.PdfDocument(out.getvalue())
    page = flat(document[0].get_textpage().get_text_range())
    for line in readable:
        assert flat(typo.printable(line)) in page


def test_a_printed_document_is_not_kept_alive_by_its_encoders():
    typo.fonts()
    canvas = Canvas(io.BytesIO())
    pen = CanvasPen(canvas, 100, 100)
    pen.label("Quel fleuve traverse Paris ?", 5, 50, size=9)
    pen.label("Quel fleuve traverse Paris ?", 5, 40, size=9)  # the second through the codes
    pen.flush()
    canvas.save()
    document = weakref.ref(canvas._doc)
    del canvas, pen
    gc.collect()
    assert document() is None


def test_a_text_colour_is_written_as_reportlab_writes_it():
    colours = {BLACK, WHITE, "#d4a017", "#7f7f7f", "#0a0b0c", *GAME_COLOURS.values()}
    for value in colours:
        text = Canvas(io.BytesIO()).beginText()
        text.setFillColor(colour(value))
        assert text._code[-1] == _fill_operator(value), value
