"""Qui veut gagner des millions ? on paper: question cards, answer cards, jokers, pad, poster."""

from __future__ import annotations

import ctypes
import math
import re
from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
import pytest
from pypdf import PdfReader
from reportlab.lib.units import mm

from cms.games.millionnaire import JOKERS, LADDER, SPEC
from cms.models import Status
from cms.selectors import load_game
from printing.draw import MeasurePen
from printing.products import PRODUCTS
from printing.products.millionnaire import (
    ANSWER_CARDS,
    JOKER_TOKENS,
    LETTERS,
    QUESTION_CARDS,
    TABLE_SIZE,
    answer_cards,
    answer_pad,
    fallback_bands,
    joker_tokens,
)
from printing.products.millionnaire import PRODUCTS as OURS
from printing.render import PrintOptions, PrintRefused, face_issues, select
from printing.sheets import BACKS, CARD_SIZES, PAPERS, Rect, pages_needed
from printing.text import amount, french
from tests.builders import make_question

from .conftest import flat, page_text, save_png, text_in

GAME = "millionnaire"
A4_POINTS = (595.28, 841.89)
LETTER_POINTS = (612.0, 792.0)
HOSTILE = '<b>&amp; </para><img src="/etc/hostname">'
SHEETS = ("bloc-reponse", "echelle", "porte-carte")


def open_pdf(path) -> pdfium.PdfDocument:
    return pdfium.PdfDocument(str(path))


def letter_boxes(pdf, page: int, text: str, rect: Rect):
    """Return the boxes (left, bottom, right, top) of the first and last letters of `text`
    where it is printed inside `rect`."""
    textpage = pdf[page].get_textpage()
    search = textpage.search(text)
    while (found := search.get_next()) is not None:
        start, count = found
        first, last = textpage.get_charbox(start), textpage.get_charbox(start + count - 1)
        left, bottom = min(first[0], last[0]), min(first[1], last[1])
        if rect.contains(Rect(left / mm, bottom / mm, 0, 0)):
            return first, last
    raise AssertionError(f"{text!r} is not inside {rect}")


def inside(pdf, page: int, rect: Rect) -> str:
    """Return the words printed inside one face's trim box."""
    return flat(text_in(pdf, page, (rect.x, rect.y, rect.w, rect.h)))


def printed(text: str) -> str:
    """Return user text as the cards print it: French typography, spaces collapsed."""
    return flat(french(text))


def squeezed(text: str) -> str:
    return "".join(text.split())


def ladder_items() -> list:
    """Return the question cards in print order, as the printer selects them."""
    return [entry.item for entry in select(QUESTION_CARDS, load_game(GAME))]


def document_text(path) -> str:
    """Return the words of every page of a PDF, read at once."""
    pdf = open_pdf(path)
    try:
        return flat(" ".join(page_text(pdf, page) for page in range(len(pdf))))
    finally:
        pdf.close()


def page_count(path) -> int:
    return len(PdfReader(str(path)).pages)


def printed_pages(path) -> list[int]:
    """Return the pages something is printed on: a duplex PDF gives a one-sided page a blank
    verso, which the maker never looks at."""
    pdf = open_pdf(path)
    try:
        return [page for page in range(len(pdf)) if any(True for _ in pdf[page].get_objects())]
    finally:
        pdf.close()


def spots(pdf, page: int, text: str) -> list[tuple[float, float]]:
    """Return where `text` starts on a page (x, y in mm), each time it stands alone."""
    textpage = pdf[page].get_textpage()
    # The extractor turns no-break spaces into plain ones.
    searcher = textpage.search(text.replace("\u00a0", " "), match_case=True)
    found = []
    while (hit := searcher.get_next()) is not None:
        index, _count = hit
        before = textpage.get_text_range(index - 1, 1) if index else ""
        if before and (before.isdigit() or before == "\u202f"):
            continue  # "500 €" inside "1 500 €"
        left, bottom, _right, top = textpage.get_charbox(index)
        found.append((left / mm, (bottom + top) / 2 / mm))
    return found


def two_right_propositions() -> list[tuple[str, bool, bool]]:
    return [("Lyon", True, False), ("Paris", True, False), ("Nice", False, False),
            ("Lille", False, False)]


# --- the question cards -------------------------------------------------------------------


def test_it_keeps_the_question_cards_first_among_the_products():
    assert next(iter(PRODUCTS[GAME])) == "questions"
    assert [product.slug for product in OURS] == ["questions", "reponses", "jokers",
                                                  "bloc-reponse", "echelle", "porte-carte"]


def test_it_prints_every_published_ladder_question_on_nine_card_sheets(demo, print_pdf):
    demo(GAME)
    sheet = PrintOptions().sheet_for(QUESTION_CARDS)

    path = print_pdf(GAME, "questions")

    assert sheet.per_page == 9
    assert page_count(path) == 2 * pages_needed(len(ladder_items()), 9)


@pytest.mark.parametrize("backs", ["long", "short"])
def test_it_prints_card_n_question_inside_the_front_of_card_n(demo, print_pdf, backs):
    demo(GAME)
    sheet = PrintOptions(backs=backs).sheet_for(QUESTION_CARDS)

    pdf = open_pdf(print_pdf(GAME, "questions", backs=backs))

    for index, card in enumerate(ladder_items()[:9]):
        front = inside(pdf, 0, sheet.front(index).trim)
        assert printed(card.text) in front
        assert all(printed(proposition) in front for proposition in card.propositions)


@pytest.mark.parametrize("backs", ["long", "short"])
def test_it_prints_card_n_answer_and_step_exactly_behind_card_n(demo, print_pdf, backs):
    demo(GAME)
    sheet = PrintOptions(backs=backs).sheet_for(QUESTION_CARDS)
    cards = ladder_items()

    pdf = open_pdf(print_pdf(GAME, "questions", backs=backs))

    for index, card in enumerate(cards[:9]):
        back = inside(pdf, 1, sheet.back(index).trim)
        assert printed(card.propositions[card.right]) in back
        assert f"Question n° {card.step}" in back
        assert flat(amount(card.amount)) in back
        assert [c.ref for c in cards if c.ref in back.split()] == [card.ref]


@pytest.mark.parametrize("backs", ["long", "short"])
def test_it_mirrors_each_back_onto_its_front_for_the_duplex_flip(backs):
    sheet = PrintOptions(backs=backs).sheet_for(QUESTION_CARDS)
    page_w, page_h = sheet.page_size

    for index in range(sheet.per_page):
        front, back = sheet.front(index).trim, sheet.back(index).trim
        if backs == "long":
            assert back == Rect(page_w - front.right, front.y, front.w, front.h)
        else:
            assert back == Rect(front.x, page_h - front.top, front.w, front.h)


def test_it_shifts_separate_backs_by_the_makers_offset(demo, print_pdf):
    demo(GAME)
    first = ladder_items()[0]
    back_page = pages_needed(len(ladder_items()), 9)

    plain = open_pdf(print_pdf(GAME, "questions", backs="separate"))
    [(x_plain, y_plain)] = spots(plain, back_page, first.ref)
    # Half a millimetre keeps nine cards a page: the grid stays where it was.
    shifted = open_pdf(print_pdf(GAME, "questions", backs="separate", offset_x=0.5,
                                 offset_y=-0.5))
    [(x_shifted, y_shifted)] = spots(shifted, back_page, first.ref)

    assert x_shifted - x_plain == pytest.approx(0.5, abs=0.05)
    assert y_shifted - y_plain == pytest.approx(-0.5, abs=0.05)


def test_it_prints_separate_backs_behind_their_fronts_once_shifted(demo, print_pdf):
    demo(GAME)
    cards = ladder_items()
    sheet = PrintOptions(backs="separate", offset_x=2).sheet_for(QUESTION_CARDS)
    back_page = pages_needed(len(cards), sheet.per_page)

    pdf = open_pdf(print_pdf(GAME, "questions", backs="separate", offset_x=2))

    for index, card in enumerate(cards[:sheet.per_page]):
        back = inside(pdf, back_page, sheet.back(index).trim)
        assert printed(card.propositions[card.right]) in back
        assert card.ref in back


# Fronts and backs fold along the page's middle, each back the mirror of its front across
# the fold; an upright card's back is upside down, to read upright once the card is
# turned over like a book page.
@pytest.mark.parametrize("card", ["poker", "tarot"])
def test_it_folds_fronts_and_backs_on_one_page_mirrored_about_the_fold(demo, print_pdf, card):
    demo(GAME)
    cards = ladder_items()
    sheet = PrintOptions(backs="fold", card=card).sheet_for(QUESTION_CARDS)
    _x1, y1, _x2, y2 = sheet.fold_line

    path = print_pdf(GAME, "questions", backs="fold", card=card)
    pdf = open_pdf(path)

    assert page_count(path) == pages_needed(len(cards), sheet.per_page)
    assert y1 == y2
    for index, item in enumerate(cards[:sheet.per_page]):
        front, back = sheet.front(index).trim, sheet.back(index).trim
        answer = printed(item.propositions[item.right])
        assert back == Rect(front.x, 2 * y1 - front.top, front.w, front.h)
        # A card turned a quarter has its lines run up the page: the reader joins them
        # without a space, so the words are compared without spaces.
        assert squeezed(printed(item.text)) in squeezed(inside(pdf, 0, front))
        assert squeezed(answer) in squeezed(inside(pdf, 0, back))
        if front.w < front.h:  # an upright card: its back's text runs right to left
            first, last = letter_boxes(pdf, 0, answer, back)
            assert first[0] > last[0]


@pytest.mark.parametrize(("paper", "points"), [("a4", A4_POINTS), ("letter", LETTER_POINTS)])
def test_it_prints_the_cards_on_the_makers_paper(demo, print_pdf, paper, points):
    demo(GAME)

    reader = PdfReader(str(print_pdf(GAME, "questions", paper=paper)))

    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(points[0], abs=0.1)
        assert float(page.mediabox.height) == pytest.approx(points[1], abs=0.1)


def test_it_sets_the_trim_and_bleed_boxes_around_the_cards(demo, print_pdf):
    demo(GAME)
    sheet = PrintOptions(bleed=3).sheet_for(QUESTION_CARDS)

    front = PdfReader(str(print_pdf(GAME, "questions", bleed=3))).pages[0]

    for box, rect in ((front.trimbox, sheet.trim_box()), (front.bleedbox, sheet.bleed_box())):
        expected = (rect.x * mm, rect.y * mm, rect.right * mm, rect.top * mm)
        assert [float(v) for v in box] == pytest.approx(expected, abs=0.01)
    assert float(front.bleedbox.width) == pytest.approx(float(front.trimbox.width) + 6 * mm)


@pytest.mark.parametrize(("backs", "duplex"), [("long", "/DuplexFlipLongEdge"),
                                               ("short", "/DuplexFlipShortEdge"),
                                               ("separate", "/Simplex")])
def test_it_tells_the_printer_how_to_turn_the_sheet_and_not_to_scale(demo, print_pdf, backs,
                                                                      duplex):
    demo(GAME)

    reader = PdfReader(str(print_pdf(GAME, "questions", backs=backs)))

    preferences = reader.trailer["/Root"]["/ViewerPreferences"]
    assert preferences["/Duplex"] == duplex
    assert preferences["/PrintScaling"] == "/None"


def test_it_writes_byte_identical_pdfs_for_the_same_content(demo, print_pdf):
    demo(GAME)

    first = print_pdf(GAME, backs="long", bleed=3).read_bytes()
    second = print_pdf(GAME, backs="long", bleed=3).read_bytes()

    assert first == second


def test_it_leaves_drafts_out_unless_asked(demo, print_pdf):
    demo(GAME)
    draft = make_question("echelle", status=Status.DRAFT, step=1, difficulty=1,
                          text="Quel brouillon n’est pas encore relu par Tulle ?")

    published_only = document_text(print_pdf(GAME, "questions"))
    with_drafts = document_text(print_pdf(GAME, "questions", include_drafts=True))

    assert printed(draft.text) not in published_only
    assert printed(draft.text) in with_drafts


def test_it_refuses_to_print_a_question_with_two_right_propositions(demo, print_pdf):
    demo(GAME)
    wrong = make_question("echelle", status=Status.PUBLISHED, step=1, difficulty=1,
                          propositions=two_right_propositions())

    with pytest.raises(PrintRefused) as refused:
        print_pdf(GAME, "questions")

    named = [p.target.ref for p in refused.value.problems if p.code == "right_count"]
    assert named == [wrong.ref]


def test_it_prints_hostile_text_literally(db, print_pdf):
    make_question("echelle", status=Status.PUBLISHED, step=1, difficulty=1, text=HOSTILE,
                  propositions=[(HOSTILE, True, False), ("Brest", False, False),
                                ("Gap", False, False), ("Foix", False, False)])

    pdf = open_pdf(print_pdf(GAME, "questions"))

    front, back = flat(page_text(pdf, 0)), flat(page_text(pdf, 1))
    assert printed(HOSTILE) in front
    assert printed(HOSTILE) in back
    # French typography spaces the « ; » and quotes the path, but nothing is interpreted.
    assert all(piece in front for piece in ("<b>&amp", "</para><img src=", "/etc/hostname"))


# --- the answer cards ---------------------------------------------------------------------


def test_it_deals_four_answer_cards_to_each_of_eight_players():
    cards = answer_cards()

    assert len(cards) == TABLE_SIZE * 4
    for player in range(1, TABLE_SIZE + 1):
        assert [c.letter for c in cards if c.player == player] == list(LETTERS)


def test_it_gives_every_player_a_colour_no_other_player_has():
    colours = {card.player: (card.colour_name, card.colour) for card in answer_cards()}

    assert len(set(colours.values())) == TABLE_SIZE
    assert all(card.colour == colours[card.player][1] for card in answer_cards())


def test_it_prints_each_answer_card_with_its_letter_player_and_colour(print_pdf):
    cards = answer_cards()
    sheet = PrintOptions().sheet_for(ANSWER_CARDS)

    path = print_pdf(GAME, "reponses")
    pdf = open_pdf(path)

    assert page_count(path) == 2 * pages_needed(len(cards), sheet.per_page)
    for number, card in enumerate(cards):
        page, index = divmod(number, sheet.per_page)
        front = inside(pdf, 2 * page, sheet.front(index).trim)
        assert f"Réponse {card.letter}" in front
        assert f"Joueur {card.player}" in front
        assert card.colour_name in front


def test_it_hides_the_answer_letter_behind_one_back_for_all(print_pdf):
    sheet = PrintOptions().sheet_for(ANSWER_CARDS)

    pdf = open_pdf(print_pdf(GAME, "reponses"))

    backs = {inside(pdf, 1, sheet.back(index).trim) for index in range(sheet.per_page)}
    assert backs == {"? Carte réponse"}


@pytest.mark.parametrize("card", sorted(CARD_SIZES))
def test_it_fits_every_answer_card_at_every_card_size(card):
    w, h = CARD_SIZES[card]

    assert all(face_issues(ANSWER_CARDS, item, w, h) == () for item in answer_cards())


# --- the joker tokens -----------------------------------------------------------------------


def test_it_makes_the_three_jokers_of_the_rules_for_each_of_eight_players():
    tokens = joker_tokens()

    assert len(tokens) == TABLE_SIZE * len(JOKERS)
    for player in range(1, TABLE_SIZE + 1):
        assert [flat(t.label) for t in tokens if t.player == player] == [
            str(v) for v in JOKERS.values()]


def test_it_prints_the_jokers_on_30_mm_tokens_whatever_the_card_size():
    for card in CARD_SIZES:
        sheet = PrintOptions(card=card).sheet_for(JOKER_TOKENS)
        assert (sheet.face_w, sheet.face_h) == (30.0, 30.0)


def test_it_prints_each_joker_with_its_player_and_used_on_its_back(print_pdf):
    tokens = joker_tokens()
    sheet = PrintOptions().sheet_for(JOKER_TOKENS)

    path = print_pdf(GAME, "jokers")
    pdf = open_pdf(path)

    assert page_count(path) == 2
    for index, token in enumerate(tokens):
        front = inside(pdf, 0, sheet.front(index).trim)
        back = inside(pdf, 1, sheet.back(index).trim)
        assert flat(token.label) in front
        assert str(token.player) in front.split()
        assert "UTILISÉ" in back.split()
        assert flat(token.label) in back
        assert str(token.player) in back.split()


def test_it_fits_every_joker_token():
    assert all(face_issues(JOKER_TOKENS, token, 30.0, 30.0) == () for token in joker_tokens())


# --- the bloc réponse -----------------------------------------------------------------------


class RecordingPen(MeasurePen):
    """Measures like validation does and keeps every rectangle drawn."""

    def __init__(self, w, h):
        super().__init__(w, h)
        self.rects: list[Rect] = []

    def rect(self, rect, **style):
        self.rects.append(rect)


@pytest.mark.parametrize(("paper", "points"), [("a4", A4_POINTS), ("letter", LETTER_POINTS)])
def test_it_prints_the_score_pad_on_one_landscape_page(print_pdf, paper, points):
    path = print_pdf(GAME, "bloc-reponse", paper=paper)

    [printed] = printed_pages(path)
    page = PdfReader(str(path)).pages[printed]
    assert float(page.mediabox.width) == pytest.approx(points[1], abs=0.1)
    assert float(page.mediabox.height) == pytest.approx(points[0], abs=0.1)


def test_it_lays_out_players_by_rounds_with_a_total_per_player(print_pdf):
    text = flat(page_text(open_pdf(print_pdf(GAME, "bloc-reponse")), 0))

    assert all(f"Manche {n}" in text for n in range(1, TABLE_SIZE + 1))
    assert "Manche 9" not in text
    assert "Joueur" in text and "Total" in text
    assert text.count("Public") == TABLE_SIZE


def test_it_gives_every_player_three_joker_boxes_each_round():
    pen = RecordingPen(297.0, 210.0)

    answer_pad(pen)

    boxes = [r for r in pen.rects if r.w == r.h and r.w < 5]
    assert len(boxes) == TABLE_SIZE * TABLE_SIZE * len(JOKERS)
    assert pen.issues == []


def test_it_marks_the_paliers_and_what_a_wrong_answer_pays_on_the_pad(print_pdf):
    text = flat(page_text(open_pdf(print_pdf(GAME, "bloc-reponse")), 0))

    assert all(flat(amount(step.amount)) in text for step in LADDER)
    assert "palier" in text
    for band in fallback_bands():
        assert flat(f"{amount(band.pays)} (de {amount(band.first.amount)} à "
                    f"{amount(band.last.amount)})") in text


# --- the prize ladder poster ----------------------------------------------------------------


def test_it_groups_the_steps_by_what_a_wrong_answer_pays():
    bands = [(b.first.number, b.last.number, b.pays) for b in fallback_bands()]

    assert bands == [(1, 5, 0), (6, 10, 1_500), (11, 15, 48_000)]
    assert all(b.pays == SPEC.fallback_amount(n) for b in fallback_bands()
               for n in range(b.first.number, b.last.number + 1))


@pytest.mark.parametrize(("paper", "points"), [("a4", A4_POINTS), ("letter", LETTER_POINTS)])
def test_it_prints_the_poster_on_one_portrait_page(print_pdf, paper, points):
    path = print_pdf(GAME, "echelle", paper=paper)

    [printed] = printed_pages(path)
    page = PdfReader(str(path)).pages[printed]
    assert float(page.mediabox.width) == pytest.approx(points[0], abs=0.1)
    assert float(page.mediabox.height) == pytest.approx(points[1], abs=0.1)


def ladder_heights(pdf) -> dict[int, float]:
    """Return the height (mm) of each step's amount in the poster's ladder column."""
    heights = {}
    for step in LADDER:
        column = [(x, y) for x, y in spots(pdf, 0, amount(step.amount)) if x < 130]
        [(_x, y)] = column
        heights[step.number] = y
    return heights


def test_it_climbs_from_200_euros_at_the_bottom_to_the_million_on_top(print_pdf):
    heights = ladder_heights(open_pdf(print_pdf(GAME, "echelle")))

    assert [n for n, _y in sorted(heights.items(), key=lambda item: item[1])] == list(
        range(1, len(LADDER) + 1))


def test_it_highlights_the_three_paliers_on_their_steps(print_pdf):
    pdf = open_pdf(print_pdf(GAME, "echelle"))
    heights = ladder_heights(pdf)

    labels = sorted(y for x, y in spots(pdf, 0, "palier") if x < 130)

    safe = sorted(heights[step.number] for step in LADDER if step.safe)
    assert labels == pytest.approx(safe, abs=1.0)


def test_it_shows_what_a_wrong_answer_pays_beside_its_steps(print_pdf):
    pdf = open_pdf(print_pdf(GAME, "echelle"))
    heights = ladder_heights(pdf)

    for band in fallback_bands():
        beside = [y for x, y in spots(pdf, 0, amount(band.pays)) if x > 130]
        assert any(heights[band.first.number] <= y <= heights[band.last.number]
                   for y in beside)
    assert flat(page_text(pdf, 0)).count("vous repartez avec") == len(fallback_bands())


def test_it_reminds_the_three_jokers_and_the_two_player_tries(print_pdf):
    text = flat(page_text(open_pdf(print_pdf(GAME, "echelle")), 0))

    assert all(flat(str(label)) in text for label in JOKERS.values())
    assert f"{SPEC.rules.public_tries_two_players} essais avec le Vote du public" in text
    assert f"{SPEC.rules.friend_tries_two_players} avec le Coup de fil à un ami" in text


# --- what a person can read: text size and the cut ---------------------------------------------

READABLE = 6.5  # pt: the README's floor, below which nothing is printed
SAFE = 3.0  # mm: text stays this far inside the cut


@dataclass(frozen=True)
class Glyph:
    """One printed character: its size as printed and where its ink lies, in mm."""

    char: str
    size: float
    box: Rect


def glyphs(pdf, page: int, *, leave_out: str = "") -> list[Glyph]:
    """Return every printed character of a page, at its printed size (font size times the
    page's scaling: a reduced board shrinks its labels too).

    `leave_out` is a pattern of text not to return (a face's identifier, say).
    """
    textpage = pdf[page].get_textpage()
    count = textpage.count_chars()
    skipped = {index for match in re.finditer(leave_out, textpage.get_text_range(0, count))
               for index in range(*match.span())} if leave_out else set()
    found = []
    for index in range(count):
        char = textpage.get_text_range(index, 1)
        if not char.strip() or index in skipped:
            continue
        matrix = pdfium_raw.FS_MATRIX()
        pdfium_raw.FPDFText_GetMatrix(textpage.raw, index, matrix)
        scaling = math.sqrt(abs(matrix.a * matrix.d - matrix.b * matrix.c))
        size = pdfium_raw.FPDFText_GetFontSize(textpage.raw, index) * scaling
        left, bottom, right, top = textpage.get_charbox(index)
        found.append(Glyph(char, size, Rect(left / mm, bottom / mm, (right - left) / mm,
                                            (top - bottom) / mm)))
    return found


def smallest_glyph(path) -> Glyph | None:
    pdf = open_pdf(path)
    try:
        every = [glyph for page in range(len(pdf)) for glyph in glyphs(pdf, page)]
    finally:
        pdf.close()
    return min(every, key=lambda glyph: glyph.size, default=None)


def glyphs_on(printed: list[Glyph], trim: Rect) -> list[Glyph]:
    """Return the characters of a page (`glyphs`) printed on the face whose cut is `trim`."""
    return [glyph for glyph in printed if trim.contains(Rect(*glyph.box.centre, 0, 0))]


AT_CARD_SIZE = ("questions", "reponses", "jokers", "porte-carte")  # follow the card size
ON_PAPER = ("bloc-reponse", "echelle", "porte-carte")  # follow the paper
SIZES_AND_PAPERS = ([(slug, {"card": card}) for slug in AT_CARD_SIZE for card in CARD_SIZES]
                    + [(slug, {"paper": paper}) for slug in ON_PAPER for paper in ("a4", "letter")])


def test_it_checks_the_size_of_the_text_of_every_product():
    assert {*AT_CARD_SIZE, *ON_PAPER} == {product.slug for product in OURS}


@pytest.mark.parametrize(("slug", "options"), SIZES_AND_PAPERS)
def test_it_prints_no_text_smaller_than_6_5_points(demo, print_pdf, slug, options):
    demo(GAME)

    smallest = smallest_glyph(print_pdf(GAME, slug, **options))

    assert smallest is not None
    assert smallest.size >= READABLE - 0.01, (
        f"{smallest.char!r} at {smallest.size:.2f} pt, {smallest.box}")


@pytest.mark.parametrize("card", sorted(CARD_SIZES))
@pytest.mark.parametrize("deck", [QUESTION_CARDS, ANSWER_CARDS], ids=lambda deck: deck.slug)
def test_it_keeps_every_cards_text_3_mm_inside_its_cut(demo, print_pdf, deck, card):
    demo(GAME)
    sheet = PrintOptions(card=card).sheet_for(deck)

    pdf = open_pdf(print_pdf(GAME, deck.slug, card=card))

    for page, placement in ((0, sheet.front), (1, sheet.back)):
        printed = glyphs(pdf, page)
        for index in range(sheet.per_page):
            trim = placement(index).trim
            on_card = glyphs_on(printed, trim)
            assert on_card or page == 1  # answer cards share a back without text
            for glyph in on_card:
                assert trim.inset(SAFE).contains(glyph.box, tolerance=0.05), (
                    f"{glyph.char!r} of card {index + 1} at {glyph.box}, cut {trim}")


def test_it_keeps_the_joker_tokens_text_3_mm_inside_their_round_cut(print_pdf):
    sheet = PrintOptions().sheet_for(JOKER_TOKENS)

    pdf = open_pdf(print_pdf(GAME, "jokers"))

    for page, placement in ((0, sheet.front), (1, sheet.back)):
        # The token's identifier is the printer's, drawn where it draws it on every deck.
        printed = glyphs(pdf, page, leave_out=r"JOK-\d+")
        for index in range(len(joker_tokens())):
            trim = placement(index).trim
            cx, cy = trim.centre
            reach = trim.w / 2 - SAFE
            for glyph in glyphs_on(printed, trim):
                box = glyph.box
                corners = [(x, y) for x in (box.x, box.right) for y in (box.y, box.top)]
                assert all(math.dist((x, y), (cx, cy)) <= reach + 0.05 for x, y in corners), (
                    f"{glyph.char!r} of token {index + 1} at {box}")


def test_it_prints_each_players_number_and_joker_name_at_a_readable_size(print_pdf):
    smallest = smallest_glyph(print_pdf(GAME, "jokers"))

    assert smallest.size >= READABLE - 0.01


# --- the porte-carte ------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """A stroked line or outline as printed: where it lies (mm), dashed or not, its colour."""

    box: Rect
    dashed: bool
    black: bool

    @property
    def x(self) -> float:
        return self.box.centre[0]

    @property
    def y(self) -> float:
        return self.box.centre[1]

    @property
    def vertical(self) -> bool:
        return self.box.w < 1 and self.box.h > 1

    @property
    def horizontal(self) -> bool:
        return self.box.h < 1 and self.box.w > 1


def lines(pdf, page: int) -> list[Line]:
    """Return every stroked path of a page: cut lines are solid and black, folds dashed."""
    found = []
    for obj in pdf[page].get_objects(filter=[pdfium_raw.FPDF_PAGEOBJ_PATH], max_depth=3):
        fill, stroke = ctypes.c_int(), ctypes.c_int()
        pdfium_raw.FPDFPath_GetDrawMode(obj.raw, fill, stroke)
        if not stroke.value:
            continue
        rgba = [ctypes.c_uint() for _ in range(4)]
        pdfium_raw.FPDFPageObj_GetStrokeColor(obj.raw, *rgba)
        left, bottom, right, top = obj.get_bounds()
        width = ctypes.c_float()
        pdfium_raw.FPDFPageObj_GetStrokeWidth(obj.raw, width)
        half = width.value / 2  # the bounds take in half the stroke on every side
        found.append(Line(
            Rect((left + half) / mm, (bottom + half) / mm, (right - left - 2 * half) / mm,
                 (top - bottom - 2 * half) / mm),
            dashed=pdfium_raw.FPDFPageObj_GetDashCount(obj.raw) > 0,
            black=all(channel.value < 60 for channel in rgba[:3])))
    return found


@dataclass(frozen=True)
class Holder:
    """The porte-carte as measured on its sheet, folded in the mind's eye."""

    pocket: Rect  # between the tabs once folded in, from the bottom fold to the open top
    window: Rect
    back_height: float  # from the bottom fold to the back's free edge


def measure_holder(pdf) -> Holder:
    """Read the holder off the printed lines: folds, the tabs' free edges, the top, the window."""
    drawn = lines(pdf, 0)
    folds = [line for line in drawn if line.dashed and max(line.box.w, line.box.h) > 30]
    left_fold, right_fold = sorted(line.x for line in folds if line.vertical)
    [bottom_fold] = [line.y for line in folds if line.horizontal]
    cuts = [line for line in drawn if line.black and not line.dashed
            and line.box.x > left_fold - 20 and line.box.right < right_fold + 20]
    left_tab = max(line.x for line in cuts if line.vertical and line.x < left_fold - 1)
    right_tab = min(line.x for line in cuts if line.vertical and line.x > right_fold + 1)
    top = max(line.y for line in cuts if line.horizontal)
    free_edge = min(line.y for line in cuts if line.horizontal)
    [window] = [line.box for line in cuts if line.box.w > 10 and line.box.h > 10]
    # Folded in, each tab lies along the inside of its side: the card goes between them.
    inner_left = left_fold + (left_fold - left_tab)
    inner_right = right_fold - (right_tab - right_fold)
    return Holder(Rect(inner_left, bottom_fold, inner_right - inner_left, top - bottom_fold),
                  window, bottom_fold - free_edge)


@pytest.mark.parametrize("paper", sorted(PAPERS.keys() - {"a3"}))
@pytest.mark.parametrize("card", sorted(CARD_SIZES))
def test_the_porte_carte_holds_a_card_of_the_chosen_size(print_pdf, card, paper):
    card_w, card_h = CARD_SIZES[card]

    holder = measure_holder(open_pdf(print_pdf(GAME, "porte-carte", card=card, paper=paper)))

    assert card_w + 0.5 <= holder.pocket.w <= card_w + 3
    assert card_h <= holder.pocket.h <= card_h + 3
    assert holder.back_height == pytest.approx(holder.pocket.h, abs=0.3)


@pytest.mark.parametrize("card", sorted(CARD_SIZES))
def test_the_porte_carte_window_shows_all_of_the_questions_text_and_keeps_the_card_in(
        print_pdf, card):
    card_w, card_h = CARD_SIZES[card]
    holder = measure_holder(open_pdf(print_pdf(GAME, "porte-carte", card=card)))
    pocket, window = holder.pocket, holder.window
    play = pocket.w - card_w

    # Smaller than the card both ways, the window cannot let it through.
    assert window.w <= card_w - 3 and window.h <= card_h - 3
    # The card rests on the fold, pushed to either side of the pocket: its text shows, its
    # edges stay behind the frame.
    for x in (pocket.x, pocket.x + play):
        placed = Rect(x, pocket.y, card_w, card_h)
        assert window.contains(placed.inset(SAFE), tolerance=0.05)
        assert placed.inset(0.75).contains(window)


def test_the_porte_carte_tells_how_to_cut_fold_glue_and_use_it(print_pdf):
    text = document_text(print_pdf(GAME, "porte-carte"))

    assert "Pour les cartes de 63 × 88 mm" in text
    for verb in ("Découpez", "Pliez", "Encollez", "glisse la carte"):
        assert verb in text
    assert text.count("colle") >= 2  # one on each tab


def test_the_porte_carte_is_one_sided_and_inside_the_page_margins(print_pdf):
    path = print_pdf(GAME, "porte-carte")
    pdf = open_pdf(path)

    [page] = printed_pages(path)
    w, h = (v / mm for v in pdf[page].get_size())
    margin = Rect(0, 0, w, h).inset(10)
    assert all(margin.contains(line.box, tolerance=0.3) for line in lines(pdf, page))


# --- every product, every option ---------------------------------------------------------------


def expected_pages(deck, count: int, options: PrintOptions) -> int:
    sheet = options.sheet_for(deck)
    sheets = pages_needed(count, sheet.per_page)
    return sheets if sheet.backs == "fold" else 2 * sheets


# Every back mode with every card size; the paper alternates, so every pair of options is
# printed at least once (as in test_print_fidelity; tests/printing/test_sheets.py checks
# every sheet of every combination).
@pytest.mark.parametrize(("card", "backs", "paper"), [
    (card, backs, ("a4", "letter")[(i + j) % 2])
    for i, card in enumerate(sorted(CARD_SIZES))
    for j, backs in enumerate(BACKS)
])
def test_it_prints_the_card_decks_on_every_paper_card_size_and_back(demo, print_pdf, paper,
                                                                     card, backs):
    demo(GAME)
    options = dict(paper=paper, card=card, backs=backs, bleed=3)
    counts = {QUESTION_CARDS: len(ladder_items()), ANSWER_CARDS: len(answer_cards())}

    for deck, count in counts.items():
        path = print_pdf(GAME, deck.slug, **options)
        assert page_count(path) == expected_pages(deck, count, PrintOptions(**options))


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("backs", BACKS)
@pytest.mark.parametrize("bleed", [0, 3])
def test_it_prints_the_joker_tokens_on_every_paper_and_back(print_pdf, paper, backs, bleed):
    options = dict(paper=paper, backs=backs, bleed=bleed)

    path = print_pdf(GAME, "jokers", **options)

    assert page_count(path) == expected_pages(JOKER_TOKENS, len(joker_tokens()),
                                              PrintOptions(**options))


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("slug", SHEETS)
def test_it_prints_the_sheets_on_every_paper(print_pdf, paper, slug):
    assert len(printed_pages(print_pdf(GAME, slug, paper=paper, bleed=3))) == 1


def test_it_prints_every_product_in_one_pdf(demo, print_pdf):
    demo(GAME)

    text = document_text(print_pdf(GAME, *(product.slug for product in OURS)))

    assert "Carte réponse" in text and "UTILISÉ" in text
    assert "Bloc réponse" in text and "L’échelle des gains" in text


def first_pages(slug: str) -> list[int]:
    """Return the pages a person looks at: a sheet's only page, a deck's front and back."""
    return [0] if slug in SHEETS else [0, 1]


@pytest.mark.parametrize("slug", [product.slug for product in OURS])
def test_it_prints_more_than_two_colours_on_the_first_pages_of_every_product(demo, print_pdf,
                                                                             slug):
    demo(GAME)
    pdf = open_pdf(print_pdf(GAME, slug))

    for page in first_pages(slug):
        image = pdf[page].render(scale=1.5).to_pil()
        assert len(image.convert("RGB").getcolors(maxcolors=1 << 20)) > 2


@pytest.mark.renders
@pytest.mark.parametrize("slug", [product.slug for product in OURS])
def test_it_renders_a_png_of_every_product_to_look_at(demo, print_pdf, slug):
    demo(GAME)
    path = print_pdf(GAME, slug)

    for page in first_pages(slug):
        save_png(path, page, f"{GAME}-{slug}-{page + 1}")
