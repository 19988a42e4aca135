"""Tout le monde veut prendre sa place on paper: cards, answer sheets, board, armchair, pawns."""

import ctypes
from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
import pytest
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from cms.games.prendre_sa_place import COMPET_SLOTS, FORMATS, SPEC, SUPER_CASH_POINTS
from cms.models import Card, Status
from cms.selectors import load_game
from printing.draw import CanvasPen, MeasurePen
from printing.products.prendre_sa_place import (
    COMPET_CARDS,
    DEFI_CARDS,
    PRODUCTS,
    QUALIFS_CARDS,
    question_card,
)
from printing.products.style import PAGE_MARGIN
from printing.render import PrintOptions, PrintRefused
from printing.sheets import BACKS, PAPERS, SAFE_INSET, Rect, paper_size
from printing.text import MIN_SIZE, french
from tests.builders import make_card, make_question

from .conftest import flat, page_text, save_png, text_in

GAME = "prendre-sa-place"
DECKS = ("qualifs", "compet", "defi")
SHEETS = ("feuille-compet", "feuille-defi", "plateau", "fauteuil", "pions")
CARD_DECKS = {"qualifs": QUALIFS_CARDS, "compet": COMPET_CARDS, "defi": DEFI_CARDS}
# A glyph may stand a little outside the box its text is set in (the hook of a J).
OVERHANG = 0.25  # mm


@pytest.fixture
def pdf_of():
    """Open a printed PDF to read it back; every document opened is closed after the test."""
    opened = []

    def open_pdf(path) -> pdfium.PdfDocument:
        pdf = pdfium.PdfDocument(str(path))
        opened.append(pdf)
        return pdf

    yield open_pdf
    for pdf in opened:
        pdf.close()


# --- reading a PDF as a person would -------------------------------------------------------


@dataclass(frozen=True)
class Glyph:
    """One printed character: its size in pt, its pen position and its ink box in mm."""

    char: str
    size: float
    x: float  # where the pen stood: glyphs set on one left edge share it
    y: float  # the baseline
    box: Rect


def glyphs(pdf, page: int) -> list[Glyph]:
    """Return every visible character of a page, with its size and where it stands."""
    textpage = pdf[page].get_textpage()
    found = []
    x, y = ctypes.c_double(), ctypes.c_double()
    for index in range(textpage.count_chars()):
        char = chr(pdfium_raw.FPDFText_GetUnicode(textpage.raw, index))
        if char.isspace() or not char.isprintable():
            continue
        pdfium_raw.FPDFText_GetCharOrigin(textpage.raw, index, ctypes.byref(x), ctypes.byref(y))
        left, bottom, right, top = textpage.get_charbox(index)
        found.append(Glyph(char, pdfium_raw.FPDFText_GetFontSize(textpage.raw, index),
                           x.value / mm, y.value / mm,
                           Rect(left / mm, bottom / mm, (right - left) / mm, (top - bottom) / mm)))
    return found


def starts_of(pdf, page: int, value: str) -> list[tuple[float, float]]:
    """Return where each occurrence of `value` starts on the page: (x, baseline) in mm."""
    textpage = pdf[page].get_textpage()
    searcher = textpage.search(value, match_case=True)
    starts = []
    x, y = ctypes.c_double(), ctypes.c_double()
    while (found := searcher.get_next()) is not None:
        pdfium_raw.FPDFText_GetCharOrigin(textpage.raw, found[0], ctypes.byref(x),
                                          ctypes.byref(y))
        starts.append((x.value / mm, y.value / mm))
    assert starts, f"{value!r} is not on page {page}"
    return starts


def start_of(pdf, page: int, value: str) -> tuple[float, float]:
    return starts_of(pdf, page, value)[0]


def end_of(pdf, page: int, value: str) -> float:
    """Return the right edge in mm of the first occurrence of `value` on the page."""
    textpage = pdf[page].get_textpage()
    index, count = textpage.search(value, match_case=True).get_next()
    return textpage.get_charbox(index + count - 1)[2] / mm


def bullets(pdf, page: int) -> list[tuple[float, float]]:
    """Return the centres in mm of the dots drawn on a page (shapes under 1 mm)."""
    centres = []
    for shape in pdf[page].get_objects(filter=[pdfium_raw.FPDF_PAGEOBJ_PATH]):
        left, bottom, right, top = (v / mm for v in shape.get_bounds())
        if right - left < 1 and top - bottom < 1:
            centres.append(((left + right) / 2, (bottom + top) / 2))
    return centres


def first_char(pdf, page: int, value: str) -> int:
    """Return the index of the first character of `value` on the page (its first line)."""
    textpage = pdf[page].get_textpage()
    found = textpage.search(value).get_next()
    assert found, f"{value!r} is not on page {page}"
    return found[0]


def font_name(pdf, page: int, value: str) -> str:
    textpage = pdf[page].get_textpage()
    index = first_char(pdf, page, value)
    length = pdfium_raw.FPDFText_GetFontInfo(textpage.raw, index, None, 0, None)
    buffer = ctypes.create_string_buffer(length)
    pdfium_raw.FPDFText_GetFontInfo(textpage.raw, index, buffer, length, None)
    return buffer.value.decode()


def font_size(pdf, page: int, value: str) -> float:
    textpage = pdf[page].get_textpage()
    return pdfium_raw.FPDFText_GetFontSize(textpage.raw, first_char(pdf, page, value))


def paper_points(paper: str, *, landscape: bool = False) -> tuple[float, float]:
    w, h = PAPERS[paper]
    return (h * mm, w * mm) if landscape else (w * mm, h * mm)


def first_line(text: str) -> str:
    """The start of a question, short enough to sit on its first printed line."""
    return " ".join(french(text).split()[:3])


def card_questions(ref: str):
    card = Card.objects.get(ref=ref)
    return [slot.question for slot in card.ordered_slots()]


def content_area(pdf, page: int) -> tuple[float, float, float, float]:
    """The page inside its margins, where a product draws (the margins carry the core's label)."""
    w, h = (v / mm for v in pdf[page].get_size())
    return (PAGE_MARGIN, PAGE_MARGIN, w - 2 * PAGE_MARGIN, h - 2 * PAGE_MARGIN)


# --- drawing faces and pages on their own ---------------------------------------------------


class ShortSafePen(CanvasPen):
    """A pen whose safe zone the core has made shorter at the bottom, as for an identifier."""

    CUT = 6.0  # mm

    @property
    def safe(self) -> Rect:
        safe = super().safe
        return Rect(safe.x, safe.y + self.CUT, safe.w, safe.h - self.CUT)


def faces_pdf(path, deck, items, *, size=None, pen_class=CanvasPen):
    """Draw each item's front then its back, each on a page of the face's own size.

    Return the path and the safe zone of each page, as the pen gave it.
    """
    w, h = size or PrintOptions().face_size(deck)
    canvas = Canvas(str(path))
    safes = []
    for item in items:
        for draw in (lambda pen, item=item: deck.front(pen, item), deck.back_form):
            canvas.setPageSize((w * mm, h * mm))
            pen = pen_class(canvas, w, h, numbered=deck.numbered)
            draw(pen)
            pen.flush()
            assert not pen.issues
            safes.append(pen.safe)
            canvas.showPage()
    canvas.save()
    return path, safes


def pages_pdf(path, product, paper="a4"):
    """Draw a product's full pages on bare paper: only what the product draws."""
    canvas = Canvas(str(path))
    for page in product.pages(PrintOptions(paper=paper), []):
        w, h = paper_size(page.paper or paper, landscape=page.landscape)
        canvas.setPageSize((w * mm, h * mm))
        pen = CanvasPen(canvas, w, h)
        page.draw(pen)
        pen.flush()
        assert not pen.issues
        canvas.showPage()
    canvas.save()
    return path


def demo_cards(kind: str):
    content = load_game(GAME)
    return [question_card(content, card) for card in content.cards if card.kind == kind]


def fits(deck, item) -> bool:
    w, h = PrintOptions().face_size(deck)
    pen = MeasurePen(w, h, numbered=deck.numbered)
    deck.front(pen, item)
    return not pen.issues


LONG_TEXT = ("Quel personnage historique, connu pour ses conquêtes militaires en Europe et "
             "ses réformes administratives durables, fut couronné empereur des Français en "
             "présence du pape Pie VII à Notre-Dame de Paris, le deux décembre de l’année "
             "mil huit cent quatre, avant de perdre son trône après la campagne de Russie "
             "et la défaite de Waterloo en Belgique")


def longest_qualifs_card(propositions: list[str], answer: str, variants: list[str]):
    """Return the Qualifs card with the longest questions that still fit a poker card."""
    def card_of(words: int):
        rows = [(text, index == 0, False) for index, text in enumerate(propositions)]
        questions = [make_question("qualifs", status=Status.PUBLISHED,
                                   text=" ".join(LONG_TEXT.split()[:words]) + f" ({n}) ?",
                                   answer=answer, variants="\n".join(variants),
                                   propositions=rows)
                     for n in (1, 2)]
        return make_card("qualifs", status=Status.PUBLISHED, title="Les très longues questions",
                         questions=questions)

    def discard(card) -> None:
        questions = [slot.question for slot in card.ordered_slots()]
        card.delete()
        for question in questions:
            question.delete()

    longest = None
    for words in range(6, len(LONG_TEXT.split()) + 1, 3):
        card = card_of(words)
        if not fits(QUALIFS_CARDS, question_card(load_game(GAME), card)):
            discard(card)
            break
        if longest is not None:
            discard(longest)
        longest = card
    assert longest is not None
    return longest


# --- every product renders -----------------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("product", DECKS + SHEETS)
def test_it_prints_every_product_with_the_demo_on_a4_and_letter(demo, print_pdf, pdf_of, paper,
                                                                product):
    demo(GAME)
    pdf = pdf_of(print_pdf(GAME, product, paper=paper))
    assert len(pdf) >= 1
    size = tuple(round(v) for v in pdf[0].get_size())
    assert size in {tuple(round(v) for v in paper_points(paper, landscape=wide))
                    for wide in (False, True)}


# Every back mode with both card sizes; the paper alternates, so every pair of options is
# printed at least once (as in test_print_fidelity).
@pytest.mark.parametrize("card,backs,paper", [
    (card, backs, ("a4", "letter")[(i + j) % 2])
    for i, card in enumerate(("poker", "tarot"))
    for j, backs in enumerate(BACKS)
])
def test_it_prints_the_card_decks_with_every_back_mode_and_full_bleed(
        demo, print_pdf, pdf_of, paper, backs, card):
    demo(GAME)
    pdf = pdf_of(print_pdf(GAME, *DECKS, paper=paper, card=card, backs=backs, bleed=3))
    text = flat(" ".join(page_text(pdf, i) for i in range(len(pdf))))
    for title in ("Gourmandises", "Tour du monde", "Le cinéma français"):
        assert title in text


def test_it_prints_the_board_alone_on_a_landscape_page(demo, print_pdf, pdf_of):
    pdf = pdf_of(print_pdf(GAME, "plateau", paper="letter"))
    w, h = pdf[0].get_size()
    assert w > h
    assert "LA COMPET’" in flat(page_text(pdf, 0))
    # Any other page is the board's blank verso.
    for page in range(1, len(pdf)):
        assert not flat(text_in(pdf, page, content_area(pdf, page)))


# --- what a person can read ------------------------------------------------------------------


@pytest.mark.parametrize("card", ["poker", "tarot"])
def test_no_text_of_any_product_is_smaller_than_the_floor(demo, print_pdf, pdf_of, card):
    demo(GAME)
    small = []
    for product in DECKS + SHEETS:
        pdf = pdf_of(print_pdf(GAME, product, card=card))
        small += [(product, page, g.char, round(g.size, 2)) for page in range(len(pdf))
                  for g in glyphs(pdf, page) if g.size < MIN_SIZE - 0.01]
    assert not small


def test_the_longest_qualifs_card_prints_every_text_at_the_floor_or_above(db, print_pdf,
                                                                           pdf_of):
    card = longest_qualifs_card(
        ["Napoléon Bonaparte, empereur des Français", "Louis-Philippe Ier, roi des Français",
         "Charles-Maurice de Talleyrand-Périgord", "Joachim Murat, roi de Naples"],
        "Napoléon Bonaparte", ["Napoléon", "Napoléon Ier", "Bonaparte", "L’Empereur"])
    pdf = pdf_of(print_pdf(GAME, "qualifs", refs=[card.ref]))
    printed = glyphs(pdf, 0)
    assert "Joachim Murat, roi de Naples" in flat(page_text(pdf, 0))
    assert min(g.size for g in printed) >= MIN_SIZE - 0.01


@pytest.mark.parametrize("kind", DECKS)
def test_every_text_of_a_demo_card_stays_inside_its_safe_zone(demo, tmp_path, pdf_of, kind):
    demo(GAME)
    deck = CARD_DECKS[kind]
    path, safes = faces_pdf(tmp_path / f"{kind}.pdf", deck, demo_cards(kind))
    pdf = pdf_of(path)
    for page, safe in enumerate(safes):
        outside = [g.char for g in glyphs(pdf, page) if not safe.contains(g.box, 0.05)]
        assert not outside, (page, "".join(outside))


def test_the_cards_lay_out_inside_a_safe_zone_the_core_makes_shorter(demo, tmp_path, pdf_of):
    demo(GAME)
    for kind, deck in CARD_DECKS.items():
        path, safes = faces_pdf(tmp_path / f"{kind}.pdf", deck, demo_cards(kind)[:2],
                                pen_class=ShortSafePen)
        pdf = pdf_of(path)
        for page, safe in enumerate(safes):
            assert safe.y >= SAFE_INSET + ShortSafePen.CUT
            outside = [g.char for g in glyphs(pdf, page) if not safe.contains(g.box, 0.05)]
            assert not outside, (kind, page, "".join(outside))


def test_the_card_text_on_a_printed_sheet_stays_three_millimetres_inside_the_cut(
        demo, print_pdf, pdf_of):
    demo(GAME)
    pdf = pdf_of(print_pdf(GAME, "qualifs", bleed=3))
    sheet = PrintOptions(bleed=3).sheet_for(QUALIFS_CARDS)
    printed = glyphs(pdf, 0)
    for index in range(sheet.per_page):
        trim = sheet.front(index).trim
        on_card = [g for g in printed if trim.overlaps(g.box)]
        assert on_card
        assert all(trim.inset(SAFE_INSET).contains(g.box, 0.05) for g in on_card)


@pytest.mark.parametrize("product", SHEETS)
def test_a_full_page_keeps_its_ten_millimetre_margins(tmp_path, pdf_of, product):
    sheets = {p.slug: p for p in PRODUCTS}[product]
    for paper in ("a4", "letter"):
        pdf = pdf_of(pages_pdf(tmp_path / f"{product}-{paper}.pdf", sheets, paper))
        for page in range(len(pdf)):
            area = Rect(*content_area(pdf, page)).outset(OVERHANG)
            outside = [g.char for g in glyphs(pdf, page) if not area.contains(g.box)]
            assert not outside, (paper, page, "".join(outside))


# --- the Qualifs cards -------------------------------------------------------------------------


def qualifs_card(title: str, propositions: list[list[str]], *, answers=("",) * 2, **fields):
    """A published Qualifs card: its two questions' propositions, the first one right."""
    questions = [make_question("qualifs", status=Status.PUBLISHED,
                               text=f"Question {n} de la carte {title} ?",
                               answer=answers[n - 1] or rows[0], variants="",
                               propositions=[(text, i == 0, False) for i, text in enumerate(rows)])
                 for n, rows in enumerate(propositions, start=1)]
    return make_card("qualifs", status=Status.PUBLISHED, title=title, questions=questions,
                     **fields)


def test_it_lays_short_propositions_out_in_a_grid_whose_columns_and_rows_align(
        db, print_pdf, pdf_of):
    card = qualifs_card("Couleurs", [["Rouge", "Vert", "Bleu", "Jaune"],
                                      ["Orange", "Violet", "Rose", "Marron"]])
    pdf = pdf_of(print_pdf(GAME, "qualifs", refs=[card.ref]))
    for first, second, third, fourth in (["Rouge", "Vert", "Bleu", "Jaune"],
                                         ["Orange", "Violet", "Rose", "Marron"]):
        (x1, y1), (x2, y2) = start_of(pdf, 0, first), start_of(pdf, 0, second)
        (x3, y3), (x4, y4) = start_of(pdf, 0, third), start_of(pdf, 0, fourth)
        assert x2 > x1 + 10  # two columns
        assert (x1, x2) == pytest.approx((x3, x4), abs=0.01)  # columns aligned
        assert (y1, y3) == pytest.approx((y2, y4), abs=0.01)  # rows aligned
        assert y3 < y1
    # Both questions share the same columns.
    assert start_of(pdf, 0, "Rouge")[0] == pytest.approx(start_of(pdf, 0, "Orange")[0], abs=0.01)
    assert start_of(pdf, 0, "Vert")[0] == pytest.approx(start_of(pdf, 0, "Violet")[0], abs=0.01)


@pytest.mark.parametrize(("ref", "columns"), [("psp-qualifs-01", 1), ("psp-qualifs-05", 2)])
def test_every_proposition_has_its_bullet_and_the_bullets_of_a_column_line_up(
        demo, print_pdf, pdf_of, ref, columns):
    demo(GAME)
    pdf = pdf_of(print_pdf(GAME, "qualifs", refs=[ref]))
    dots = bullets(pdf, 0)
    propositions = [text for question in card_questions(ref)
                    for text in question.propositions.values_list("text", flat=True)]
    assert len(dots) == len(propositions) == 8
    assert len({round(x, 2) for x, _y in dots}) == columns
    for text in propositions:
        x, baseline = start_of(pdf, 0, french(text))
        assert any(0 < x - dot_x < 3 and 0 < dot_y - baseline < 2 for dot_x, dot_y in dots)


def test_it_puts_long_propositions_one_a_row_on_one_left_edge(db, print_pdf, pdf_of):
    rows = ["La tour Eiffel à Paris", "Le pont du Gard à Nîmes", "Le mont Saint-Michel",
            "Le château de Chambord"]
    card = qualifs_card("Monuments", [rows, rows[::-1]])
    pdf = pdf_of(print_pdf(GAME, "qualifs", refs=[card.ref]))
    starts = [start for row in rows for start in starts_of(pdf, 0, row)]
    assert len(starts) == 8 + 2  # each proposition twice, and each question's CASH answer
    propositions = sorted(starts, key=lambda start: -start[1])
    lefts = {round(x, 2) for x, _y in propositions}
    assert len(lefts) == 2  # the propositions' edge, and the answers' after their CASH pill
    heights = [y for _x, y in propositions]
    assert len(set(heights)) == len(heights)  # one a row


def test_it_indents_both_questions_of_a_card_alike(demo, print_pdf, pdf_of):
    demo(GAME)
    pdf = pdf_of(print_pdf(GAME, "qualifs", refs=["psp-qualifs-01"]))
    question_x = [start_of(pdf, 0, "Quel fromage")[0], start_of(pdf, 0, "Quelle pâtisserie")[0]]
    assert question_x[0] == pytest.approx(question_x[1], abs=0.01)
    propositions = [start_of(pdf, 0, "Le beaufort")[0], start_of(pdf, 0, "L’opéra")[0]]
    assert propositions[0] == pytest.approx(propositions[1], abs=0.01)
    assert propositions[0] > question_x[0]  # after a bullet under the question
    answers = [starts_of(pdf, 0, "Le reblochon")[-1][0], starts_of(pdf, 0, "Le paris-brest")[-1][0]]
    assert answers[0] == pytest.approx(answers[1], abs=0.01)


def test_the_variants_of_a_cash_answer_wrap_under_the_answer_not_under_its_pill(
        db, print_pdf, pdf_of):
    variants = ["Reblochon de Savoie", "Reblochon fermier", "Le reblochon de Thônes",
                "Fromage de Savoie", "Reblochon laitier"]
    question = make_question("qualifs", status=Status.PUBLISHED,
                             text="Quel fromage est l’ingrédient phare de la tartiflette ?",
                             answer="Le reblochon", variants="\n".join(variants),
                             propositions=[("Le reblochon", True, False),
                                           ("Le beaufort", False, False),
                                           ("Le comté", False, False),
                                           ("Le cantal", False, False)])
    card = make_card("qualifs", status=Status.PUBLISHED, title="Fromages",
                     questions=[question, make_question("qualifs", status=Status.PUBLISHED)])
    pdf = pdf_of(print_pdf(GAME, "qualifs", refs=[card.ref]))
    answer_x, answer_y = starts_of(pdf, 0, "Le reblochon")[1]  # after its proposition
    cash_x = [x for x, y in starts_of(pdf, 0, "CASH") if abs(y - answer_y) < 1]
    assert cash_x and cash_x[0] < answer_x
    starts = [start_of(pdf, 0, variant) for variant in variants]
    below = [x for x, y in starts if y < answer_y - 1]
    assert below  # the variants take more than the answer's line
    assert min(below) == pytest.approx(answer_x, abs=0.3)  # "(" or a variant starts the line
    assert all(x >= answer_x - 0.3 for x, _y in starts)


def test_the_second_question_of_every_short_card_starts_at_the_same_height(
        db, print_pdf, pdf_of):
    first = qualifs_card("Chiffres", [["Un", "Deux", "Trois", "Quatre"],
                                      ["Cinq", "Six", "Sept", "Huit"]])
    # A reference too long to share the legend's line takes a line of its own.
    second = qualifs_card("Lettres", [["Alpha", "Bêta", "Gamma", "Delta"],
                                      ["Epsilon", "Zêta", "Êta", "Thêta"]],
                          ref="psp-qualifs-alphabet-grec")
    pdf = pdf_of(print_pdf(GAME, "qualifs", refs=[first.ref, second.ref]))
    assert "psp-qualifs-alphabet-grec" in flat(page_text(pdf, 0))
    sheet = PrintOptions().sheet_for(QUALIFS_CARDS)
    heights = []
    for index, title in enumerate(Card.objects.filter(ref__in=[first.ref, second.ref])
                                  .values_list("title", flat=True)):
        trim = sheet.front(index).trim
        heights.append(start_of(pdf, 0, f"Question 2 de la carte {title}")[1] - trim.y)
    assert heights[0] == pytest.approx(heights[1], abs=0.01)
    assert heights[0] == pytest.approx(sheet.front(0).trim.h / 2, abs=6)  # half-way down


def test_it_prints_the_right_answer_in_bold_and_the_wrong_ones_in_regular(demo, print_pdf, pdf_of):
    demo(GAME)
    pdf = pdf_of(print_pdf(GAME, "qualifs", refs=["psp-qualifs-01"]))
    assert "Bold" in font_name(pdf, 0, "Le reblochon")
    assert "Bold" not in font_name(pdf, 0, "Le beaufort")
    assert "Bold" not in font_name(pdf, 0, "Le comté")


def test_it_tags_the_first_wrong_proposition_as_the_duo_partner_right_after_it(
        demo, print_pdf, pdf_of):
    demo(GAME)
    pdf = pdf_of(print_pdf(GAME, "qualifs", refs=["psp-qualifs-01"]))
    assert "Le beaufort DUO Le reblochon Le comté Le cantal" in flat(page_text(pdf, 0))
    _x, baseline = start_of(pdf, 0, "Le beaufort")
    pills = [(px, py) for px, py in starts_of(pdf, 0, "DUO") if abs(py - baseline) < 1]
    assert len(pills) == 1
    assert 0 < pills[0][0] - end_of(pdf, 0, "Le beaufort") < 3


def test_it_prints_the_cash_answer_with_its_variants(demo, print_pdf, pdf_of):
    demo(GAME)
    pdf = pdf_of(print_pdf(GAME, "qualifs", refs=["psp-qualifs-01"]))
    assert "CASH Le paris-brest (Paris-Brest / Paris Brest)" in flat(page_text(pdf, 0))


def test_it_shows_the_points_of_each_format_on_a_qualifs_card(demo, print_pdf, pdf_of):
    demo(GAME)
    pdf = pdf_of(print_pdf(GAME, "qualifs", refs=["psp-qualifs-01"]))
    legend = " · ".join(f"{f.label} {f.points} pt{'s' if f.points > 1 else ''}"
                        for f in FORMATS.values())
    assert legend in flat(page_text(pdf, 0))


def test_it_keeps_every_demo_qualifs_answer_whole_on_its_line(demo, tmp_path, pdf_of):
    demo(GAME)
    cards = demo_cards("qualifs")
    pdf = pdf_of(faces_pdf(tmp_path / "qualifs.pdf", QUALIFS_CARDS, cards)[0])
    for page, card in zip(range(0, len(pdf), 2), cards, strict=True):
        text = pdf[page].get_textpage().get_text_range().replace("\r", "")
        lines = [" ".join(flat(line).split()) for line in text.split("\n")]
        for question in card.questions:
            for proposition in question.propositions:
                assert any(flat(french(proposition)) in line for line in lines), proposition


# --- La Compet’ and Le Défi ----------------------------------------------------------------


def test_it_shows_a_compet_cards_fourteen_questions_in_order_under_their_formats(
        demo, print_pdf, pdf_of):
    demo(GAME)
    pdf = pdf_of(print_pdf(GAME, "compet", refs=["psp-compet-01"]))
    text = flat(page_text(pdf, 0))
    questions = card_questions("psp-compet-01")
    assert len(questions) == len(COMPET_SLOTS) == 14
    headings = {1: "DUO 1 pt", 4: "CARRÉ 3 pts", 7: "CASH 5 pts", 10: "SUPER CASH +5 / −5"}
    position = 0
    for number, question in enumerate(questions, start=1):
        if number in headings:
            position = text.index(headings[number], position)
        position = text.index(f"{number} {flat(first_line(question.text))}", position)


def test_it_offers_only_the_duo_pair_on_a_compet_duo_question(demo, print_pdf, pdf_of):
    demo(GAME)
    pdf = pdf_of(print_pdf(GAME, "compet", refs=["psp-compet-01"]))
    text = flat(page_text(pdf, 0))
    assert "Quelle est la capitale du Japon ? Kyoto Tokyo 2" in text
    assert "Osaka" not in text and "Yokohama" not in text


def test_it_prints_all_four_propositions_on_a_compet_carre_question(demo, print_pdf, pdf_of):
    demo(GAME)
    pdf = pdf_of(print_pdf(GAME, "compet", refs=["psp-compet-01"]))
    assert "L’Orénoque Le Paraná L’Amazone Le Magdalena" in flat(page_text(pdf, 0))


def test_it_prints_the_demo_compet_questions_at_eight_points_or_more(demo, print_pdf, pdf_of):
    demo(GAME)
    for ref in ("psp-compet-01", "psp-compet-02", "psp-compet-03"):
        pdf = pdf_of(print_pdf(GAME, "compet", refs=[ref]))
        last = card_questions(ref)[-1]
        assert font_size(pdf, 0, first_line(last.text)) >= 8


@pytest.mark.parametrize("card", ["poker", "mini", "tarot"])
def test_it_prints_la_compet_on_its_fiche_whatever_the_card_size(demo, print_pdf, pdf_of, card):
    demo(GAME)
    pdf = pdf_of(print_pdf(GAME, "compet", card=card, refs=["psp-compet-01"]))
    trim = PrintOptions(card=card).sheet_for(COMPET_CARDS).front(0).trim
    assert sorted((trim.w, trim.h)) == sorted(COMPET_CARDS.size)  # the sheet may turn it
    inside = flat(text_in(pdf, 0, (trim.x, trim.y, trim.w, trim.h)))
    assert "Tour du monde" in inside
    assert "Quelle ville himalayenne" in inside


def test_it_prints_le_defi_on_its_fiche_and_les_qualifs_at_the_makers_size():
    options = PrintOptions(card="tarot")
    assert options.face_size(DEFI_CARDS) == DEFI_CARDS.size
    assert options.face_size(QUALIFS_CARDS) == (70.0, 120.0)


def test_it_puts_each_card_at_its_place_on_the_sheet(demo, print_pdf, pdf_of):
    demo(GAME)
    refs = ["psp-defi-01", "psp-defi-02"]
    pdf = pdf_of(print_pdf(GAME, "defi", refs=refs))
    sheet = PrintOptions().sheet_for(DEFI_CARDS)
    titles = [card.title for card in Card.objects.filter(ref__in=refs)]  # the admin's order
    for index, title in enumerate(titles):
        trim = sheet.front(index).trim
        assert title in flat(text_in(pdf, 0, (trim.x, trim.y, trim.w, trim.h)))


def test_it_prints_the_kind_and_the_points_on_the_back_behind_each_card(demo, print_pdf,
                                                                        pdf_of):
    demo(GAME)
    pdf = pdf_of(print_pdf(GAME, "defi", refs=["psp-defi-01"], backs="long"))
    back = PrintOptions(backs="long").sheet_for(DEFI_CARDS).back(0).trim
    text = flat(text_in(pdf, 1, (back.x, back.y, back.w, back.h)))
    assert "Le Défi" in text
    assert "DUO 1 pt CARRÉ 3 pts CASH 5 pts" in text


def test_it_prints_hostile_text_literally(db, print_pdf, pdf_of):
    hostile = "<b>Gras</b> & Cie %(n)s {0} \\n"
    question = make_question("qualifs", status=Status.PUBLISHED, text=f"{hostile} ?",
                             answer="<i>oui</i>",
                             propositions=[("<script>", True, False), ("&amp;", False, False),
                                           ("%s", False, False), ("</p>", False, False)])
    make_card("qualifs", status=Status.PUBLISHED, title="<u>Thème</u>", ref="psp-hostile",
              questions=[question, make_question("qualifs", status=Status.PUBLISHED)])
    pdf = pdf_of(print_pdf(GAME, "qualifs", refs=["psp-hostile"]))
    text = flat(page_text(pdf, 0))
    for value in (hostile, "<script>", "&amp;", "%s", "</p>", "<i>oui</i>", "<u>Thème</u>"):
        assert value in text


def test_it_refuses_an_emoji_and_names_the_card(db, print_pdf):
    questions = [make_question("defi", status=Status.PUBLISHED) for _ in range(6)]
    questions[2].text = "Quel jeu se joue avec ce dé 🎲 ?"
    questions[2].save()
    card = make_card("defi", status=Status.PUBLISHED, title="Les jeux", ref="psp-emoji",
                     questions=questions)
    with pytest.raises(PrintRefused) as refused:
        print_pdf(GAME, "defi", refs=["psp-emoji"])
    problems = [p for p in refused.value.problems if p.code == "glyph_missing"]
    assert problems
    assert all(p.target == card for p in problems)
    assert problems[0].args["box"].startswith("question 3")
    assert "🎲" in problems[0].args["chars"]


def test_it_refuses_a_card_whose_questions_do_not_fit_and_names_the_question(db, print_pdf):
    long_text = "Quelle très longue question " + "vraiment " * 200 + "?"
    questions = [make_question("qualifs", status=Status.PUBLISHED) for _ in range(2)]
    questions[1].text = long_text
    questions[1].save()
    card = make_card("qualifs", status=Status.PUBLISHED, ref="psp-long", questions=questions)
    with pytest.raises(PrintRefused) as refused:
        print_pdf(GAME, "qualifs", refs=["psp-long"])
    overflows = [p for p in refused.value.problems if p.code == "text_overflow"]
    assert overflows and all(p.target == card for p in overflows)
    assert any(p.args["box"].startswith("question 2") for p in overflows)


# --- the answer sheets ---------------------------------------------------------------------


def test_it_prints_two_compet_sheets_to_a_page(print_pdf, pdf_of):
    pdf = pdf_of(print_pdf(GAME, "feuille-compet"))
    assert flat(text_in(pdf, 0, content_area(pdf, 0))).count("Feuille La Compet’") == 2


def test_it_gives_each_compet_question_a_line_with_its_format_and_points(print_pdf, pdf_of):
    pdf = pdf_of(print_pdf(GAME, "feuille-compet", paper="letter"))
    text = flat(page_text(pdf, 0))
    lines = []
    for number, slot in enumerate(COMPET_SLOTS, start=1):
        if slot in FORMATS:
            points = FORMATS[slot].points
            lines.append(f"{number} {FORMATS[slot].label} {points} pt{'s' if points > 1 else ''}")
    assert " ".join(lines) in text
    assert f"SUPER CASH +{SUPER_CASH_POINTS} / −{SUPER_CASH_POINTS}" in text
    assert "Total" in text


def test_it_offers_the_compet_starting_squares_on_the_compet_sheet(print_pdf, pdf_of):
    pdf = pdf_of(print_pdf(GAME, "feuille-compet"))
    text = flat(page_text(pdf, 0))
    for start in SPEC.rules.compet_starts:
        assert f"−{-start} (" in text


def test_it_prints_a_defi_sheet_with_six_questions_the_formats_and_the_bluff(print_pdf, pdf_of):
    pdf = pdf_of(print_pdf(GAME, "feuille-defi"))
    text = flat(text_in(pdf, 0, content_area(pdf, 0)))
    assert text.count("Feuille Le Défi") == 2
    assert "DUO 1 pt CARRÉ 3 pts CASH 5 pts" in text
    assert "1 2 3 4 5 6 Total" in text
    assert text.count("COUP DE BLUFF") == 2
    assert "Score annoncé" in text


# --- the board, the armchair, the pawns ----------------------------------------------------


def test_it_runs_the_compet_track_from_a_missed_super_cash_to_the_best_score(print_pdf, pdf_of):
    starts = SPEC.rules.compet_starts
    points = sum(FORMATS[slot].points for slot in COMPET_SLOTS if slot in FORMATS)
    lowest = min(starts) - SUPER_CASH_POINTS
    highest = max(starts) + points + SUPER_CASH_POINTS
    pdf = pdf_of(print_pdf(GAME, "plateau"))
    squares = flat(page_text(pdf, 0)).split()
    assert f"−{-lowest}" in squares
    assert f"−{-(lowest - 1)}" not in squares
    assert str(highest) in squares
    assert str(highest + 1) not in squares


def test_it_marks_where_each_challenger_starts_la_compet(print_pdf, pdf_of):
    pdf = pdf_of(print_pdf(GAME, "plateau"))
    text = flat(page_text(pdf, 0))
    assert "−1 départ 1er" in text
    assert "−2 départ 2e" in text
    assert "−3 départ les autres" in text


def test_it_numbers_the_qualifs_track_from_the_start_to_ten(print_pdf, pdf_of):
    pdf = pdf_of(print_pdf(GAME, "plateau"))
    low, high = SPEC.rules.qualifs_track
    numbers = " ".join(str(n) for n in range(low, high + 1))
    assert f"LES QUALIFS 0 départ {numbers}" in flat(page_text(pdf, 0))


def test_it_draws_the_armchair_on_both_faces_of_its_folded_marker(print_pdf, pdf_of):
    pdf = pdf_of(print_pdf(GAME, "fauteuil"))
    assert flat(page_text(pdf, 0)).count("Le Champion") == 2


def test_it_prints_a_numbered_pawn_per_colour(print_pdf, pdf_of):
    pdf = pdf_of(print_pdf(GAME, "pions"))
    squares = flat(text_in(pdf, 0, content_area(pdf, 0))).split()
    for number in range(1, 9):
        assert squares.count(str(number)) == 2


# --- looking at it -------------------------------------------------------------------------


@pytest.mark.renders
def test_it_saves_a_render_of_every_product_to_look_at(demo, print_pdf):
    demo(GAME)
    for product in DECKS + SHEETS:
        path = print_pdf(GAME, product, paper="a4")
        save_png(path, 0, f"prendre-sa-place-{product}")


def test_a_report_names_a_question_s_part_in_its_own_language():
    from django.utils import translation

    from printing.products.prendre_sa_place.questions import (
        CASH_ANSWER,
        PROPOSITION,
        VARIANTS,
        QuestionLabel,
    )

    with translation.override("fr"):
        assert str(QuestionLabel(3)) == "question 3"
        assert str(QuestionLabel(3, PROPOSITION, 2)) == "question 3, proposition 2"
        assert str(QuestionLabel(4, CASH_ANSWER)) == "question 4, réponse CASH"
        assert str(QuestionLabel(4, VARIANTS)) == "question 4, variantes"
    with translation.override("en"):
        french = "question 4, variantes"
        assert str(QuestionLabel(4, VARIANTS)) != french
    # Labels of one part compare equal without being translated: the flow joins them.
    assert QuestionLabel(2, VARIANTS) == QuestionLabel(2, VARIANTS) != QuestionLabel(3, VARIANTS)
