"""Fonts, French typography, escaping and fitting text into a box."""

import os
import re
import subprocess
import sys
from dataclasses import dataclass

import pypdf
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from django.conf import settings
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from printing import text
from printing.draw import CanvasPen, MeasurePen
from printing.products import style, the_mind
from printing.sheets import CARD_SIZES, Rect
from printing.text import (
    BOLD,
    MIN_SIZE,
    NBSP,
    NNBSP,
    REGULAR,
    escape,
    fit,
    french,
    missing_glyphs,
)


def test_dejavu_is_used_where_the_machine_has_it():
    fonts = text.fonts()
    assert fonts.family == "DejaVu"
    assert "DejaVu" in pdfmetrics.getFont(REGULAR).face.name.decode()


@pytest.mark.parametrize("raw,printed", [
    ("Qui ?", f"Qui{NNBSP}?"),
    ("Qui?", f"Qui{NNBSP}?"),
    ("Vraiment !", f"Vraiment{NNBSP}!"),
    ("Attention : réponse", f"Attention{NBSP}: réponse"),
    ("Attention: réponse", f"Attention{NBSP}: réponse"),
    (f"Attention{NNBSP}: réponse", f"Attention{NBSP}: réponse"),
    ("un; deux", f"un{NNBSP}; deux"),
    ("Quoi ?!", f"Quoi{NNBSP}?!"),
    ("l'été", "l’été"),
    ('le "Boléro"', f"le «{NNBSP}Boléro{NNBSP}»"),
    ("«Boléro»", f"«{NNBSP}Boléro{NNBSP}»"),
    (f"«{NBSP}Boléro{NBSP}»", f"«{NNBSP}Boléro{NNBSP}»"),
    ("Il dit : « Oui ! »", f"Il dit{NBSP}: «{NNBSP}Oui{NNBSP}!{NNBSP}»"),
    ("1 000 000 €", f"1{NNBSP}000{NNBSP}000 €"),
    ("À 12:30 : début", f"À 12:30{NBSP}: début"),
    ("La Compet’ n°2", f"La Compet’ n°{NBSP}2"),
    ("Étoile n°  3", f"Étoile n°{NBSP}3"),
    ("N° 12 et n° 13", f"N°{NBSP}12 et n°{NBSP}13"),
    ("Il fait 20 °C", "Il fait 20 °C"),
])
def test_french_typography_is_applied_at_print_time(raw, printed):
    assert french(raw) == printed


@pytest.mark.parametrize("raw", ["12:30", "https://example.org", "Le score 3:2",
                                 '<img src="/etc/hostname">', "&amp; &#233; fin",
                                 "https://example.org/?q=1&x=2", "www.example.org/page?id=3",
                                 "Une réponse (?) douteuse"])
def test_markup_times_and_addresses_are_left_alone(raw):
    assert french(raw) == raw


def test_punctuation_after_an_address_is_still_french():
    assert french("Voir https://example.org/?q=1 : le site !") == (
        f"Voir https://example.org/?q=1{NBSP}: le site{NNBSP}!")


@pytest.mark.parametrize("raw", [
    "Qui  ?", "Qui \u2009?", f"Qui {NBSP}?", "Attention \t: oui", f"«  {NBSP}Boléro \u2009»",
    "deux  espaces\tet une tabulation", f"un{NBSP} deux", "Quoi ? ! »",
])
def test_it_never_leaves_two_spaces_in_a_row(raw):
    printed = french(raw)

    assert not re.search(r"\s\s", printed)


def test_vera_has_no_narrow_space_so_it_falls_back_to_a_no_break_space(monkeypatch):
    monkeypatch.setattr(text, "fonts", lambda: text.FontSet("Vera", False))
    assert text.printable(f"Qui{NNBSP}?") == f"Qui{NBSP}?"


def test_markup_is_escaped_for_paragraphs():
    assert escape('<b>&</para><img src="/etc/hostname">') == (
        "&lt;b&gt;&amp;&lt;/para&gt;&lt;img src=&quot;/etc/hostname&quot;&gt;")


def test_an_emoji_is_a_missing_glyph_and_french_letters_are_not():
    assert missing_glyphs("Où est le 🐘 ? Œuvre, ÇA, à ù ÿ « » € ’ …") == ("🐘",)


def test_fit_keeps_the_largest_size_that_fits():
    fitted = fit(french("Quelle est la capitale du Canada ?"), REGULAR, 12, 260, 100)
    assert fitted.size == 12 and len(fitted.lines) == 1


def test_fit_shrinks_long_text_and_wraps_it_within_the_box():
    long = "Une question assez longue " * 8
    fitted = fit(long, REGULAR, 12, 150, 80)
    assert 6.5 <= fitted.size < 12
    assert all(pdfmetrics.stringWidth(line, REGULAR, fitted.size) <= 150
               for line in fitted.lines)
    assert fitted.leading * (len(fitted.lines) - 1) + fitted.size <= 80


def test_fit_gives_up_below_the_minimum_size_rather_than_cutting():
    assert fit("mot " * 400, REGULAR, 12, 150, 80) is None


def test_a_word_wider_than_the_box_does_not_fit():
    assert fit("Anticonstitutionnellement" * 3, BOLD, 10, 60, 200) is None


def test_line_breaks_never_split_a_narrow_no_break_space():
    fitted = fit(french("Quelle est la réponse ?"), REGULAR, 10, 85, 100)
    assert not any(line.strip() == f"{NNBSP}?" or line.startswith("?") for line in fitted.lines)


def test_amounts_are_grouped_with_narrow_spaces():
    assert text.amount(1_000_000) == f"1{NNBSP}000{NNBSP}000{NBSP}€"


def test_a_machine_without_dejavu_prints_with_vera_and_no_narrow_spaces(tmp_path):
    # Fonts register once per process: a fresh interpreter sees a machine without DejaVu.
    path = tmp_path / "vera.pdf"
    script = (
        "from printing import text\n"
        "text.DEJAVU_DIRS = ()\n"
        "text.PLATEAU_FONT_DIR = ''\n"
        "print(text.fonts().family)\n"
        "print(repr(text.french('Qui ?')))\n"
        "print(text.missing_glyphs('Œuvre à l’été « » €'))\n"
        "import django\n"
        "django.setup()\n"
        "from tests.printing.test_text import SPOKEN, print_lines\n"
        f"print_lines({str(path)!r}, [SPOKEN, SPOKEN])\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True, cwd=settings.BASE_DIR,
                            env={**os.environ, "DJANGO_SETTINGS_MODULE": "cms.settings"})
    family, sample, missing = result.stdout.splitlines()
    assert family == "Vera"
    assert sample == repr(f"Qui{NBSP}?")
    assert missing == "()"
    fonts = pypdf.PdfReader(str(path)).pages[0]["/Resources"]["/Font"].values()
    assert any("Vera" in font.get_object()["/BaseFont"] for font in fonts)
    # Vera has no narrow no-break space: every French space is a no-break space, which
    # ReportLab writes with the space's code, so a reader finds plain spaces.
    for reader in read_back(path):
        assert reader == ["Il dit : « Oui ! » Qui ? Prix : 1 000 €"] * 2


# --- what a printed PDF holds --------------------------------------------------------------

SPOKEN = "Il dit : « Oui ! » Qui ? Prix : 1 000 €"


def print_lines(path, lines) -> None:
    """Print each line through a canvas pen, as a face would, on one A4 page."""
    canvas = Canvas(str(path), pagesize=(595, 842), invariant=1)
    pen = CanvasPen(canvas, 210, 297)
    for index, line in enumerate(lines):
        pen.text(line, Rect(10, 270 - index * 12, 190, 10), size=12)
    pen.flush()
    canvas.showPage()
    canvas.save()


def read_back(path) -> tuple[list[str], list[str]]:
    """Return the page's lines as pypdfium2 and pypdf read them."""
    pdf = pdfium.PdfDocument(str(path))
    by_pdfium = pdf[0].get_textpage().get_text_range().split("\r\n")
    by_pypdf = pypdf.PdfReader(str(path)).pages[0].extract_text().split("\n")
    return by_pdfium, by_pypdf


def test_narrow_no_break_spaces_read_back_from_the_printed_pdf(tmp_path):
    path = tmp_path / "spaces.pdf"
    # The same line twice: the second meets characters the font's subset already holds.
    print_lines(path, [SPOKEN, SPOKEN])

    for reader in read_back(path):
        for line in reader:
            assert f"«{NNBSP}Oui{NNBSP}!{NNBSP}»" in line
            assert f"Qui{NNBSP}?" in line
            assert f"1{NNBSP}000" in line


def test_the_no_break_space_before_a_colon_reads_back_as_a_space(tmp_path):
    # ReportLab writes U+00A0 with the space's code, whose ToUnicode entry is U+0020: only
    # by rewriting its font subset state could a reader get U+00A0 back. The page shows
    # the same (see the width test below); the text layer holds a plain space.
    path = tmp_path / "colon.pdf"
    print_lines(path, [SPOKEN, SPOKEN])

    for reader in read_back(path):
        for line in reader:
            assert line.startswith("Il dit : «")
            assert "Prix : 1" in line


def test_a_no_break_space_prints_as_wide_as_a_space(tmp_path):
    path = tmp_path / "widths.pdf"
    print_lines(path, [f"a{NBSP}:", "a :"])
    textpage = pdfium.PdfDocument(str(path))[0].get_textpage()
    text_ = textpage.get_text_range()
    colons = [i for i, char in enumerate(text_) if char == ":"]
    lefts = [textpage.get_charbox(i, loose=True)[0] for i in colons]
    assert lefts[0] == pytest.approx(lefts[1], abs=0.01)


def test_a_narrow_space_is_narrower_than_the_space_before_a_colon():
    narrow = text.width(NNBSP, REGULAR, 10)
    full = text.width(NBSP, REGULAR, 10)

    assert 0 < narrow < full * 0.7
    assert full == text.width(" ", REGULAR, 10)


# --- text on the parts every card shares (products/style.py) -------------------------------

MM = 72 / 25.4  # points per millimetre


@dataclass(frozen=True)
class Printed:
    """One character as a reader of the PDF finds it: its ink's box in mm and its size."""

    char: str
    left: float
    bottom: float
    right: float
    top: float
    size: float


def printed_chars(path, page: int = 0) -> list[Printed]:
    """Return every visible character of a page, its ink box (mm) and font size (pt)."""
    pdf = pdfium.PdfDocument(str(path))
    textpage = pdf[page].get_textpage()
    found = []
    for index in range(textpage.count_chars()):
        char = textpage.get_text_range(index, 1)
        if not char.strip():
            continue
        left, bottom, right, top = textpage.get_charbox(index)
        size = pdfium_c.FPDFText_GetFontSize(textpage.raw, index)
        found.append(Printed(char, left / MM, bottom / MM, right / MM, top / MM, size))
    return found


def outside(chars: list[Printed], box: Rect, tolerance: float = 0.02) -> list[Printed]:
    """Return the characters whose ink leaves `box` (mm), beyond a rounding tolerance."""
    return [c for c in chars
            if c.left < box.x - tolerance or c.right > box.right + tolerance
            or c.bottom < box.y - tolerance or c.top > box.top + tolerance]


def draw_faces(path, w: float, h: float, faces, *, numbered: bool = False,
               bleed: float = 3.0) -> list[CanvasPen]:
    """Draw each face (a function of a pen) on a page of its own, its trim at (bleed, bleed).

    Return the pens, whose safe zones tell where text may go.
    """
    canvas = Canvas(str(path), pagesize=((w + 2 * bleed) * MM, (h + 2 * bleed) * MM),
                    invariant=1)
    pens = []
    for draw in faces:
        canvas.translate(bleed * MM, bleed * MM)
        pen = CanvasPen(canvas, w, h, bleed, numbered=numbered)
        draw(pen)
        pen.flush()
        canvas.showPage()
        pens.append(pen)
    canvas.save()
    return pens


def draw_face(path, w: float, h: float, draw, *, numbered: bool = False) -> CanvasPen:
    """Draw one face on a page of its own, its trim at (3, 3) mm; return its pen."""
    return draw_faces(path, w, h, [draw], numbered=numbered)[0]


def shifted(rect: Rect, by: float) -> Rect:
    return Rect(rect.x + by, rect.y + by, rect.w, rect.h)


TITLE = "Été à Jouy, Ça"  # accented capitals above, a J and a Ç below


def shared_parts(pen) -> None:
    style.card_frame(pen, colour=the_mind.COLOUR, title=TITLE,
                     subtitle="Les Qualifs")
    style.footer(pen, "psp-qualifs-01")


@pytest.mark.parametrize("numbered", [False, True])
@pytest.mark.parametrize("card", ["poker", "mini", "tarot"])
def test_a_cards_header_and_footer_print_inside_the_safe_zone(tmp_path, card, numbered):
    path = tmp_path / "face.pdf"
    w, h = CARD_SIZES[card]

    pen = draw_face(path, w, h, shared_parts, numbered=numbered)
    chars = printed_chars(path)

    assert "".join(c.char for c in chars) == (TITLE + "LesQualifs" + "psp-qualifs-01"
                                              ).replace(" ", "")
    assert outside(chars, shifted(pen.safe, 3.0)) == []
    assert min(c.size for c in chars) >= MIN_SIZE


@pytest.mark.parametrize("card", ["poker", "mini", "tarot"])
def test_a_cards_title_sits_in_the_middle_of_the_band_a_reader_sees(tmp_path, card):
    path = tmp_path / "face.pdf"
    w, h = CARD_SIZES[card]
    band = style.header_height(MeasurePen(w, h))

    draw_face(path, w, h, shared_parts)
    title = printed_chars(path)[:len(TITLE.replace(" ", ""))]
    letters = [c for c in title if c.char in "toua"]  # no accent, no tail

    above = (h + 3.0) - max(c.top for c in letters)  # from the cut down to the letters
    below = min(c.bottom for c in letters) - (h + 3.0 - band)  # from them to the band's foot
    assert "".join(c.char for c in title) == TITLE.replace(" ", "")
    assert above >= 3.0
    assert abs(above - below) < 0.6


def test_a_cards_band_and_a_backs_colour_run_into_the_bleed(tmp_path):
    path = tmp_path / "face.pdf"
    w, h = CARD_SIZES["poker"]
    draw_face(path, w, h, shared_parts)
    band = pdfium.PdfDocument(str(path))[0].render(scale=2).to_pil().convert("RGB")
    draw_face(path, w, h, lambda pen: style.back_pattern(pen, colour="#3b2a6b", title="Dos"))
    back = pdfium.PdfDocument(str(path))[0].render(scale=2).to_pil().convert("RGB")

    def in_bleed(image, x_mm, y_from_top_mm):
        return image.getpixel((round(x_mm * MM * 2), round(y_from_top_mm * MM * 2)))

    assert in_bleed(band, w / 2, 1.0) == (59, 42, 107)
    assert in_bleed(back, w / 2, 1.0) == in_bleed(back, 1.0, h / 2) == (59, 42, 107)


def test_a_numbered_back_keeps_its_frame_above_the_identifier(tmp_path):
    w, h = CARD_SIZES["poker"]
    pen = MeasurePen(w, h, numbered=True)

    frame = style.framed(pen, w * 0.07)

    assert frame.y >= pen.ident_box.top
    assert frame.top == h - w * 0.07


def test_a_title_too_long_for_the_band_is_refused_not_shrunk_below_the_floor():
    pen = MeasurePen(*CARD_SIZES["mini"])

    style.card_frame(pen, colour="#000000", title="Un titre beaucoup trop long pour une carte")

    assert [issue.code for issue in pen.issues] == ["text_overflow"]


def sizes_by_pypdf(path, page: int = 0) -> set[float]:
    """Return the sizes pypdf finds text drawn at: the font size times the matrices' scale."""
    sizes = set()

    def visit(value, cm, tm, font, size):
        if value.strip():
            scale = abs((tm[0] * tm[3] - tm[1] * tm[2]) * (cm[0] * cm[3] - cm[1] * cm[2]))
            sizes.add(round(size * scale ** 0.5, 2))

    pypdf.PdfReader(str(path)).pages[page].extract_text(visitor_text=visit)
    return sizes


def test_pypdf_and_pypdfium2_read_the_same_sizes_off_a_card(tmp_path):
    path = tmp_path / "face.pdf"
    draw_face(path, *CARD_SIZES["tarot"], shared_parts)

    by_pdfium = {round(c.size, 2) for c in printed_chars(path)}

    assert by_pdfium == sizes_by_pypdf(path) == {MIN_SIZE, 8.5, 10.0}


# --- the font's own encoding ---------------------------------------------------------------


class Document:
    """A document as a font's `splitString` sees it: only something to tell documents apart."""


def test_the_font_encodes_lines_as_reportlab_does_in_every_subset():
    from reportlab.pdfbase.ttfonts import TTFont

    from .test_draw import LINES

    text.fonts()
    path = pdfmetrics.getFont(REGULAR).face.filename
    ours, theirs = text.Font("ours", path), TTFont("theirs", path)
    ours_doc, theirs_doc = Document(), Document()
    # Both documents meet the same characters in the same order, so they give them the same
    # codes; the second time round, ours come from what it remembered.
    for line in [*LINES, *LINES, f"Il dit{NBSP}: «{NNBSP}Oui{NNBSP}!{NNBSP}»"]:
        assert ours.splitString(line, ours_doc) == theirs.splitString(line, theirs_doc), line


def test_the_font_remembers_codes_per_document():
    from reportlab.pdfbase.ttfonts import TTFont

    text.fonts()
    path = pdfmetrics.getFont(REGULAR).face.filename
    font = text.Font("ours", path)
    first, second = Document(), Document()
    [(subset, data)] = font.splitString("Ωμέγα Ж", first)
    assert font.splitString("Ж", first) == [(subset, data[-1:])]
    # Another document has not met the Greek letters: Ж gets its own first code there.
    assert font.splitString("Ж", second) == TTFont("theirs", path).splitString("Ж", Document())
    assert font.splitString("Ж", second) != [(subset, data[-1:])]
