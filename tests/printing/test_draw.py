"""The canvas pen's text: what a reader of the PDF finds, and how it is written."""

from __future__ import annotations

import ast
import gc
import io
import weakref
from pathlib import Path as Path_

import pypdfium2 as pdfium
import pytest
from reportlab.pdfgen.canvas import Canvas

from printing import text as typo
from printing.draw import CanvasPen, Forms, MeasurePen, Path
from printing.products import BY_GAME
from printing.sheets import Rect

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
    colours = sorted(module.COLOUR for module in BY_GAME.values())  # each game's own
    canvas = Canvas(out, pagesize=(200, 100 * len(colours)), invariant=1)
    pen = CanvasPen(canvas, 200 / MM, 100 * len(colours) / MM)
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


# --- frames, paths and panels: what a product draws without reaching the canvas ----------

PAGE_MM = 100  # a square test page
PX = 4  # pixels a millimetre once rendered


def drawn(draw) -> tuple:
    """Run `draw(pen)` on a 100 mm page; return the rendered page, the document and the
    pen."""
    typo.fonts()
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(PAGE_MM * MM, PAGE_MM * MM), invariant=1)
    pen = CanvasPen(canvas, PAGE_MM, PAGE_MM)
    draw(pen)
    pen.flush()
    canvas.showPage()
    canvas.save()
    document = pdfium.PdfDocument(out.getvalue())
    return document[0].render(scale=PX / MM).to_pil().convert("RGB"), document, pen


def at(image, x_mm: float, y_mm: float) -> tuple:
    """The pixel at (x, y) mm from the page's bottom-left corner."""
    return image.getpixel((round(x_mm * PX), round((PAGE_MM - y_mm) * PX)))


RED = (255, 0, 0)
WHITE_PX = (255, 255, 255)


def near(got, expected, tolerance=3) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(got, expected, strict=True))


def test_a_moved_and_turned_frame_puts_a_shape_where_the_turn_takes_it():
    # A 20 × 5 mm bar from the frame's origin, along its x axis: turned a quarter turn
    # about (50, 30), it stands upright from (50, 30) to (50, 50) on the page.
    def draw(pen):
        with pen.transformed(50, 30, rotate=90):
            pen.rect(Rect(0, -2.5, 20, 5), fill="#ff0000")

    image, _document, _pen = drawn(draw)
    assert near(at(image, 50, 40), RED)
    assert near(at(image, 50, 48), RED)
    assert near(at(image, 60, 30), WHITE_PX)  # where the bar lay before the turn
    assert near(at(image, 50, 25), WHITE_PX)


def test_a_scaled_frame_scales_lengths_and_not_the_page():
    def draw(pen):
        with pen.transformed(10, 10, scale=4):
            pen.rect(Rect(0, 0, 10, 10), fill="#ff0000")  # 40 mm once scaled
        pen.rect(Rect(80, 80, 10, 10), fill="#ff0000")  # after the block: life size

    image, _document, _pen = drawn(draw)
    assert near(at(image, 48, 48), RED)
    assert near(at(image, 52, 52), WHITE_PX)
    assert near(at(image, 85, 85), RED)
    assert near(at(image, 78, 85), WHITE_PX)


def test_turning_about_a_point_keeps_that_point_in_place():
    # Half a turn about the centre of the square (20..40, 60..80): it lands on itself, and
    # a mark in its top-left corner lands in its bottom-right corner.
    def draw(pen):
        with pen.transformed(rotate=180, about=(30, 70)):
            pen.rect(Rect(20, 60, 20, 20), stroke="#000000", width=0.3)
            pen.rect(Rect(21, 75, 4, 4), fill="#ff0000")

    image, _document, _pen = drawn(draw)
    assert near(at(image, 37, 62), RED)
    assert near(at(image, 23, 77), WHITE_PX)


def test_text_written_in_a_frame_lands_in_that_frame_not_after_it():
    # Pending text is written out before the frame ends: the label drawn turned half a
    # turn reads upside down at the frame's place, not upright at the page's origin.
    def draw(pen):
        with pen.transformed(60, 60, rotate=180):
            pen.label("Pivot", 0, 0, size=12, font=typo.BOLD)

    _image, document, _pen = drawn(draw)
    text = document[0].get_textpage()
    assert flat(text.get_text_range()) == "Pivot"
    left, bottom, right, top = text.get_charbox(0)
    # « P », the first letter, upside down: it ends at (60, 60) mm instead of starting
    # there, and hangs below its baseline instead of standing on it.
    assert 60 * MM - 12 < left < right <= 60 * MM + 1
    assert 60 * MM - 14 < bottom < top <= 60 * MM + 1


def test_a_clip_keeps_what_is_inside_the_path_only():
    def draw(pen):
        with pen.clipped(Path().circle(50, 50, 10)):
            pen.rect(Rect(0, 0, 100, 100), fill="#ff0000")
        pen.rect(Rect(0, 0, 5, 5), fill="#ff0000")  # after the clip: drawn in full

    image, _document, _pen = drawn(draw)
    assert near(at(image, 50, 50), RED)
    assert near(at(image, 56, 50), RED)
    assert near(at(image, 50, 62), WHITE_PX)
    assert near(at(image, 58, 58), WHITE_PX)  # inside the square, outside the circle
    assert near(at(image, 2, 2), RED)


def test_a_stroked_path_with_round_caps_reaches_past_its_ends():
    def draw(pen):
        line = Path().move_to(20, 20).line_to(60, 20)
        pen.shape(line, stroke="#ff0000", width=6, cap="round")
        pen.shape(Path().move_to(20, 60).line_to(60, 60), stroke="#ff0000", width=6)

    image, _document, _pen = drawn(draw)
    assert near(at(image, 18, 20), RED)  # 2 mm past the end, inside the round cap
    assert near(at(image, 18, 60), WHITE_PX)  # butt ends stop at the end
    assert near(at(image, 40, 62), RED)


def test_curves_arcs_and_ellipses_draw_where_their_geometry_says():
    def draw(pen):
        pen.shape(Path().arc(50, 50, 30, 0, 180), stroke="#ff0000", width=2)
        pen.shape(Path().ellipse(50, 20, 20, 5), fill="#ff0000")
        pen.shape(Path().move_to(10, 90).curve_to(10, 70, 30, 70, 30, 90).close(),
                  fill="#ff0000")

    image, _document, _pen = drawn(draw)
    assert near(at(image, 50, 80), RED)  # top of the upper half circle
    assert near(at(image, 50, 20 + 0), RED)
    assert near(at(image, 68, 20), RED)
    assert near(at(image, 50, 27), WHITE_PX)  # above the flat ellipse
    assert near(at(image, 50, 50), WHITE_PX)  # the arc is only stroked
    assert near(at(image, 20, 84), RED)  # inside the filled curve


def test_a_see_through_fill_lets_what_is_under_it_show():
    def draw(pen):
        pen.rect(Rect(0, 0, 50, 100), fill="#000000")
        pen.rect(Rect(25, 25, 50, 50), fill="#ffffff", opacity=0.25)
        pen.rect(Rect(80, 80, 10, 10), fill="#ff0000")  # opacity does not outlive its rect

    image, _document, _pen = drawn(draw)
    over_black = at(image, 40, 50)
    over_white = at(image, 60, 50)
    assert near(over_black, (64, 64, 64), tolerance=4)  # a quarter of white over black
    assert near(over_white, WHITE_PX)
    assert near(at(image, 85, 85), RED)


def test_a_panel_upside_down_reads_turned_inside_its_rect():
    # A panel's own bottom-left corner is its rect's top-right once turned over.
    def draw(pen):
        with pen.sub(Rect(40, 10, 30, 20), upside_down=True) as panel:
            assert (panel.w, panel.h) == (30, 20)
            panel.rect(Rect(0, 0, 5, 5), fill="#ff0000")
        with pen.sub(Rect(10, 60, 30, 20)) as panel:
            panel.rect(Rect(0, 0, 5, 5), fill="#ff0000")

    image, _document, _pen = drawn(draw)
    assert near(at(image, 67, 27), RED)
    assert near(at(image, 42, 12), WHITE_PX)
    assert near(at(image, 12, 62), RED)


def test_what_a_panel_cannot_print_is_reported_by_its_face():
    words = "Un texte bien trop long pour une case de dix millimètres " * 3

    def face(pen):
        with pen.sub(Rect(10, 10, 10, 4)) as panel:
            panel.text(words, panel.box, size=9, min_size=9, label="panneau")

    measured = MeasurePen(100, 100)
    face(measured)
    _image, _document, printed = drawn(face)
    for pen in (measured, printed):
        assert [(issue.code, issue.label) for issue in pen.issues] == [
            ("text_overflow", "panneau")]


def test_measuring_a_face_with_frames_and_paths_draws_nothing_and_reports_the_same():
    def face(pen):
        with pen.transformed(10, 10, rotate=30, scale=2), pen.clipped(Path().circle(0, 0, 5)):
            pen.shape(Path().move_to(0, 0).line_to(5, 5), stroke="#000000", cap="round")
            pen.text("x" * 400, Rect(0, 0, 5, 5), size=9, min_size=9, label="trop")

    measured = MeasurePen(100, 100)
    face(measured)
    assert [issue.code for issue in measured.issues] == ["text_overflow"]


def test_no_product_reaches_below_the_pen():
    # Products draw with the Pen alone: no canvas, no canvas pen, no ReportLab drawing
    # module; a product that needs more makes the Pen offer it.
    products = Path_(__file__).resolve().parents[2] / "printing" / "products"
    found = []
    for source in sorted(products.rglob("*.py")):
        tree = ast.parse(source.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in {"canvas", "_canvas"}:
                found.append(f"{source.name}:{node.lineno}: .{node.attr}")
            elif isinstance(node, ast.Name) and node.id == "CanvasPen":
                found.append(f"{source.name}:{node.lineno}: CanvasPen")
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                    ("reportlab.pdfgen", "reportlab.graphics")):
                found.append(f"{source.name}:{node.lineno}: import {node.module}")
    assert found == []


def test_a_path_must_start_somewhere_for_both_pens():
    with pytest.raises(ValueError, match="move_to first"):
        Path().line_to(10, 10)
    with pytest.raises(ValueError, match="move_to first"):
        Path().curve_to(0, 0, 1, 1, 2, 2)
    with pytest.raises(ValueError, match="at least one point"):
        Path().polyline([])


@pytest.mark.parametrize("style", [{"cap": "bevel"}, {"join": "pointy"}])
def test_an_unknown_line_style_is_refused_when_measuring_as_when_printing(style):
    line = Path().move_to(0, 0).line_to(10, 10)
    with pytest.raises(ValueError, match="unknown line"):
        MeasurePen(50, 50).shape(line, stroke="#000000", **style)
    typo.fonts()
    canvas = Canvas(io.BytesIO(), invariant=1)
    with pytest.raises(ValueError, match="unknown line"):
        CanvasPen(canvas, 50, 50).shape(line, stroke="#000000", **style)


def test_a_drawing_that_fails_midway_leaves_the_page_s_state_balanced():
    typo.fonts()
    canvas = Canvas(io.BytesIO(), invariant=1)
    pen = CanvasPen(canvas, 50, 50, forms=Forms())

    def broken(inner):
        inner.rect(Rect(0, 0, 5, 5), fill="#ff0000")
        raise RuntimeError("a face's bug")

    with pytest.raises(RuntimeError), pen.transformed(5, 5, rotate=30), pen.clipped(
            Path().circle(0, 0, 4)):
        pen.label("avant", 0, 0, size=8)
        raise RuntimeError("a face's bug")
    with pytest.raises(RuntimeError):
        pen.reuse("broken", broken)
    pen.rect(Rect(1, 1, 2, 2), fill="#000000")  # the page goes on
    pen.flush()
    content = canvas.getCurrentPageContent().split()
    assert content.count("q") == content.count("Q")


def test_reported_boxes_are_named_in_the_language_of_each_check():
    # Measures are remembered; the names of the boxes they report are not frozen in the
    # language of the first check.
    from django.utils import translation
    from django.utils.translation import gettext

    from printing.products import PRODUCTS
    from printing.products.millionnaire.cards import LadderCard
    from printing.render import face_issues

    deck = PRODUCTS["millionnaire"]["questions"]
    card = LadderCard(ref="q-long", step=1, amount=200, safe=False, text="Laquelle ?",
                      propositions=("Une réponse bien trop longue " * 30, "B", "C", "D"),
                      right=0)
    labels = {}
    for language in ("en", "fr", "en"):
        with translation.override(language):
            labels.setdefault(language, []).append(
                {str(issue.label) for issue in face_issues(deck, card, 63, 88)})
            expected = gettext("bonne réponse")
        assert expected in labels[language][-1]
    assert labels["en"][0] == labels["en"][1] != labels["fr"][0]


# --- forms: drawn once in the PDF, placed again ---------------------------------------------

def drawn_with_forms(draw, faces: int = 1) -> tuple:
    """Like `drawn`, with a document that keeps forms: `draw(pen)` for each of `faces`
    faces side by side (each 100 / faces mm wide); return the page image and the PDF."""
    typo.fonts()
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(PAGE_MM * MM, PAGE_MM * MM), invariant=1)
    forms = Forms()
    width = PAGE_MM / faces
    for face in range(faces):
        canvas.saveState()
        canvas.translate(face * width * MM, 0)
        pen = CanvasPen(canvas, width, PAGE_MM, forms=forms)
        draw(pen)
        pen.flush()
        canvas.restoreState()
    canvas.showPage()
    canvas.save()
    document = pdfium.PdfDocument(out.getvalue())
    return document[0].render(scale=PX / MM).to_pil().convert("RGB"), out.getvalue()


BLACK_PX = (0, 0, 0)


@pytest.mark.parametrize("under_text", [True, False])
def test_a_form_placed_under_text_goes_over_shapes_and_under_the_text(under_text):
    # A black face, a red full block (█) of text, then a white card reused over both:
    # under the text, the block stays red and the white covers the black around it;
    # otherwise the white covers the block too.
    def draw(pen):
        pen.rect(Rect(0, 0, 100, 100), fill="#000000")
        pen.label("\u2588", 40, 45, size=60, fill="#ff0000")
        pen.reuse("card", lambda inner: inner.rect(Rect(20, 20, 60, 60), fill="#ffffff"),
                  under_text=under_text)

    image, _pdf = drawn_with_forms(draw)
    assert near(at(image, 45, 50), RED if under_text else WHITE_PX)  # inside the block
    assert near(at(image, 25, 25), WHITE_PX)  # the card, beside the block
    assert near(at(image, 10, 10), BLACK_PX)  # the face, beside the card


def test_a_form_inside_a_form_is_held_once_and_shows_on_every_face():
    def disc(pen):
        pen.circle(25, 70, 5, fill="#ff0000")

    def design(pen):
        pen.rect(Rect(5, 5, 40, 40), fill="#000000")
        pen.reuse("disc", disc)

    image, pdf = drawn_with_forms(lambda pen: pen.reuse("design", design), faces=2)
    for left in (0, 50):  # both faces show the design and its disc
        assert near(at(image, left + 25, 25), BLACK_PX)
        assert near(at(image, left + 25, 70), RED)
        assert near(at(image, left + 25, 55), WHITE_PX)
    assert pdf.count(b"/Subtype /Form") == 2  # the design and the disc, once each
