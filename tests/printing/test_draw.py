"""The canvas pen's text: what a reader of the PDF finds, and how it is written."""

from __future__ import annotations

import gc
import io
import weakref

import pypdfium2 as pdfium
from reportlab.pdfgen.canvas import Canvas

from printing import text as typo
from printing.draw import CanvasPen
from printing.products.style import GAME_COLOURS

from .conftest import flat

MM = 72 / 25.4  # points per millimetre

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


def test_lines_read_back_from_the_pdf_in_every_subset():
    typo.fonts()
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(600, 400), invariant=1)
    pen = CanvasPen(canvas, 600 / MM, 400 / MM)
    # What the font cannot draw is refused before printing; the rest must read back.
    readable = [line for line in LINES
                if line and not typo.missing_glyphs(typo.printable(line), typo.REGULAR)]
    assert len(readable) >= 8
    for index, line in enumerate(readable):
        font = typo.BOLD if index % 2 else typo.REGULAR
        pen.label(line, 5, 130 - index * 10, size=8, font=font)
    pen.flush()
    canvas.showPage()
    canvas.save()
    document = pdfium.PdfDocument(out.getvalue())
    page = flat(document[0].get_textpage().get_text_range())
    for line in readable:
        assert flat(typo.printable(line)) in page


def test_a_face_s_text_in_several_fonts_and_colours_is_one_text_object():
    typo.fonts()
    canvas = Canvas(io.BytesIO(), invariant=1)
    pen = CanvasPen(canvas, 63, 88)
    pen.label("Question", 5, 80, size=9, font=typo.BOLD, fill="#d4a017")
    pen.label("A  Réponse", 5, 70, size=8)
    pen.centred("MIL-017", 31.5, 5, size=6.5, font=typo.CONDENSED, fill="#6f6f6f")
    pen.flush()
    content = canvas.getCurrentPageContent().split()
    assert content.count("BT") == 1
    assert content.count("ET") == 1


def test_text_prints_in_its_colour():
    typo.fonts()
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(200, 100 * len(GAME_COLOURS)), invariant=1)
    pen = CanvasPen(canvas, 200 / MM, 100 * len(GAME_COLOURS) / MM)
    colours = sorted(GAME_COLOURS.values())
    for index, value in enumerate(colours):
        # A full block, large: its middle is the text's own colour, not a blend.
        pen.label("\u2588", 10, (index * 100 + 20) / MM, size=60, fill=value)
    pen.flush()
    canvas.showPage()
    canvas.save()
    image = pdfium.PdfDocument(out.getvalue())[0].render(scale=1).to_pil().convert("RGB")
    height = image.height
    for index, value in enumerate(colours):
        x = round(10 * MM + 18)
        y = height - round(index * 100 + 20 + 25)
        expected = tuple(int(value[i:i + 2], 16) for i in (1, 3, 5))
        got = image.getpixel((x, y))
        assert all(abs(a - b) <= 2 for a, b in zip(got, expected, strict=True)), (value, got)


def test_a_printed_canvas_is_not_kept_alive_by_the_pen():
    typo.fonts()
    canvas = Canvas(io.BytesIO())
    pen = CanvasPen(canvas, 100, 100)
    pen.label("Quel fleuve traverse Paris ?", 5, 50, size=9)
    pen.label("Quel fleuve traverse Paris ?", 5, 40, size=9)
    pen.flush()
    canvas.save()
    printed = weakref.ref(canvas)
    del canvas, pen
    gc.collect()
    assert printed() is None
