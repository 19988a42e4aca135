"""What a maker who prints at home must be able to trust, read back from the PDF alone:
each back behind its front on the paper, one-sided pages never back to back, page boxes
that fit what each page holds, marks on the printable area, no text too small to read."""

import io
import itertools
import re

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from pypdf import PdfReader
from reportlab.lib.units import mm

from cms.models import Question, Status
from printing.products import PRODUCTS, Deck
from printing.render import PrintOptions, PrintRefused, products_for, render

from .conftest import flat
from .physical import identifiers, is_blank, misplaced_backs, page_sizes

GAMES = list(PRODUCTS)
NUMBERED = {game: [slug for slug, p in products.items() if isinstance(p, Deck) and p.numbered]
            for game, products in PRODUCTS.items()}
EDGE = 4.0


@pytest.fixture
def game_pdf(demo_print):
    """Print a game's products from its demo library alone: each print once for the module."""

    def run(game, products=(), **options):
        print_options = PrintOptions(**options)

        def draw(path):
            try:
                render(game, products, print_options, out=str(path))
            except PrintRefused as refused:
                # The densest cards do not fit smaller cards: the refusal says which sizes
                # to choose instead, and the other products still print.
                if print_options.card == "poker":
                    raise
                for problem in refused.problems:
                    assert problem.code == "text_overflow", problem.message
                    assert "format poker" in problem.message or "tarot" in problem.message
                left_out = {problem.args["product"] for problem in refused.problems}
                render(game, [p.slug for p in products_for(game, products, print_options)
                              if p.slug not in left_out], print_options, out=str(path))

        return demo_print((game, tuple(products), print_options), game, draw)

    return run


def test_every_deck_whose_backs_differ_is_numbered():
    numbered = {(game, slug) for game, slugs in NUMBERED.items() for slug in slugs}
    assert {("millionnaire", "questions"), ("millionnaire", "jokers"), ("douze-coups", "duels"),
            ("douze-coups", "billets")} <= numbered
    codes = [PRODUCTS[game][slug].code for game, slug in numbered]
    assert len(codes) == len(set(codes))
    for game, products in PRODUCTS.items():
        for product in products.values():
            if isinstance(product, Deck) and product.back is not None and product.has_backs:
                assert product.numbered, f"{game} {product.slug}: its backs differ"


# Every flip with every card size; the game with numbered decks, the paper and the bleed
# take each of their values in turn, so that every pair of options (every game with every
# flip, every game with every card size...) is printed at least once. Where a back lands is
# the sheet's geometry, the same for every game's deck: test_sheets.py checks it for every
# combination, and this test that each game's printed decks follow it.
PAPER_BLEED = [("a4", 0), ("letter", 3), ("letter", 0), ("a4", 3)]
NUMBERED_GAMES = [game for game in GAMES if NUMBERED[game]]


@pytest.mark.parametrize("game,backs,card,paper,bleed", [
    # With three games, i + 2j meets every game with every flip and every card size.
    (NUMBERED_GAMES[(i + 2 * j) % len(NUMBERED_GAMES)], backs, card,
     PAPER_BLEED[(i + j) % 4][0],
     # A fiche folded with its bleed is too large for half a sheet (refused, tested there).
     0 if backs == "fold" else PAPER_BLEED[(i + j) % 4][1])
    for i, backs in enumerate(("long", "short", "separate", "fold"))
    for j, card in enumerate(("poker", "mini", "tarot"))
])
def test_every_back_lies_behind_its_own_front(game_pdf, game, backs, card, paper, bleed):
    path = game_pdf(game, NUMBERED[game], backs=backs, card=card, bleed=bleed, paper=paper)
    seen = identifiers(path)
    assert len(seen) >= 10
    assert misplaced_backs(path) == []


@pytest.mark.parametrize("backs", ["long", "short", "separate", "fold"])
def test_the_makers_offsets_move_every_back_on_the_papers_axes(game_pdf, backs):
    path = game_pdf("douze-coups", ("billets", "duels"), backs=backs, offset_x=1.5,
                    offset_y=-2)
    assert misplaced_backs(path, (1.5, -2.0)) == []
    assert misplaced_backs(path) != []  # without the offsets, the backs would not be there


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("backs", ["long", "short"])
def test_a_duplex_pdf_gives_every_one_sided_page_a_blank_verso_of_its_size(
        game_pdf, game, backs):
    path = game_pdf(game, backs=backs)
    sizes = page_sizes(path)
    assert len(sizes) % 2 == 0
    pdf = pdfium.PdfDocument(str(path))
    for recto in range(0, len(sizes), 2):
        assert sizes[recto] == sizes[recto + 1]
        text = pdf[recto].get_textpage().get_text_range()
        verso_text = pdf[recto + 1].get_textpage().get_text_range()
        assert "recto" in text, f"page {recto + 1} is not a recto"
        assert "verso" in verso_text or is_blank(path, recto + 1)
        if "verso" not in verso_text:
            assert is_blank(path, recto + 1)


@pytest.mark.parametrize("game", GAMES)
def test_every_page_is_of_the_chosen_paper(game_pdf, game):
    for paper, size in (("a4", (210, 297)), ("letter", (215.9, 279.4))):
        path = game_pdf(game, paper=paper)
        for w, h in page_sizes(path):
            assert sorted((round(w, 1), round(h, 1))) == sorted(size)


def test_the_a3_board_prints_alone_on_a3(game_pdf):
    path = game_pdf("minotaure", ("plateau-a3",))
    assert {(round(w), round(h)) for w, h in page_sizes(path)} <= {(297, 420), (420, 297)}


def _boxes(page):
    return {name: [float(v) / mm for v in getattr(page, name)]
            for name in ("mediabox", "bleedbox", "trimbox")}


@pytest.mark.parametrize("game", GAMES)
def test_page_boxes_fit_what_each_page_holds(game_pdf, game):
    path = game_pdf(game, bleed=2)
    seen = identifiers(path)
    reader = PdfReader(str(path))
    for number, page in enumerate(reader.pages):
        boxes = _boxes(page)
        media, bleed, trim = boxes["mediabox"], boxes["bleedbox"], boxes["trimbox"]
        assert media[0] <= bleed[0] <= trim[0] and trim[2] <= bleed[2] <= media[2]
        assert media[1] <= bleed[1] <= trim[1] and trim[3] <= bleed[3] <= media[3]
        for spots in seen.values():
            for spot in spots:
                if spot.page == number:
                    assert trim[0] < spot.x < trim[2] and trim[1] < spot.y < trim[3]


def _lines(page):
    """Return the thin straight strokes of a page (crop marks), in mm."""
    found = []
    for obj in page.get_objects(max_depth=1):
        if obj.type != pdfium_c.FPDF_PAGEOBJ_PATH:
            continue
        left, bottom, right, top = (v / mm for v in obj.get_bounds())
        if min(right - left, top - bottom) < 0.2 and max(right - left, top - bottom) > 2:
            found.append((left, bottom, right, top))
    return found


@pytest.mark.parametrize("card,paper,bleed", list(itertools.product(
    ("poker", "mini", "tarot"), ("a4", "letter"), (0, 3))))
def test_crop_marks_stay_on_the_printable_area_outside_every_card(game_pdf, card, paper,
                                                                  bleed):
    path = game_pdf("millionnaire", ("questions", "jokers"), card=card, paper=paper,
                    bleed=bleed)
    pdf = pdfium.PdfDocument(str(path))
    reader = PdfReader(str(path))
    for number in range(len(pdf)):
        w, h = (float(v) / mm for v in reader.pages[number].mediabox[2:])
        trim = _boxes(reader.pages[number])["trimbox"]
        marks = _lines(pdf[number])
        assert marks, f"page {number + 1} has no crop marks"
        for left, bottom, right, top in marks:
            assert left >= EDGE - 0.2 and bottom >= EDGE - 0.2
            assert right <= w - EDGE + 0.2 and top <= h - EDGE + 0.2
            inside = (left > trim[0] + 0.1 and right < trim[2] - 0.1
                      and bottom > trim[1] + 0.1 and top < trim[3] - 0.1)
            assert not inside


def _small_text(path, floor=6.5):
    pdf = pdfium.PdfDocument(str(path))
    small = []
    for number in range(len(pdf)):
        textpage = pdf[number].get_textpage()
        text = textpage.get_text_range()
        for index, char in enumerate(text):
            if char.isspace():
                continue
            size = pdfium_c.FPDFText_GetFontSize(textpage.raw, index)
            if size < floor - 0.05:
                small.append((number + 1, char, round(size, 2)))
    return small


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("card", ["poker", "mini"])
def test_no_text_prints_smaller_than_six_and_a_half_points(game_pdf, game, card):
    path = game_pdf(game, card=card)
    assert _small_text(path)[:20] == []


@pytest.mark.parametrize("backs", ["long", "short", "separate", "fold"])
@pytest.mark.parametrize("count", [1, 2, 7, 10])
def test_partial_last_sheets_and_odd_counts_keep_every_back_behind_its_front(
        demo, tmp_path, backs, count):
    demo("millionnaire")
    refs = [q.ref for q in Question.objects.filter(kind="echelle").order_by("ref")[:count]]
    path = tmp_path / "selection.pdf"
    render("millionnaire", ("questions",), PrintOptions(backs=backs), out=str(path), refs=refs)
    seen = identifiers(path)
    assert len(seen) == count
    assert misplaced_backs(path) == []
    sizes = page_sizes(path)
    if backs in ("long", "short"):
        assert len(sizes) % 2 == 0


@pytest.mark.parametrize("game,products", [("the-mind", ()), ("millionnaire", ("reponses",))])
def test_a_preview_is_one_sheet_and_its_label_says_so(game, products):
    # Decks of fixed cards, several sheets long: the preview shows the first sheet only,
    # labelled as the whole of what it shows, never « feuille 1/12 ».
    def labels(preview):
        out = io.BytesIO()
        render(game, products, PrintOptions(), out=out, preview=preview)
        pdf = pdfium.PdfDocument(out.getvalue())
        found = [re.search(r"feuille (\d+)/(\d+)", flat(pdf[page].get_textpage()
                                                         .get_text_range()))
                 for page in range(len(pdf))]
        return [(int(m[1]), int(m[2])) for m in found if m]

    assert labels(preview=True) == [(1, 1)]
    whole = labels(preview=False)
    assert whole[0][0] == 1 and whole[0][1] > 1  # the print itself has several sheets


def test_every_identifier_is_centred_on_its_card(demo, tmp_path):
    # Poker cards (63 mm wide) side by side, without gutter or bleed: the cards' columns
    # fill the page's trim box, and each identifier's middle is its card's middle.
    demo("millionnaire")
    path = tmp_path / "questions.pdf"
    render("millionnaire", ("questions",), PrintOptions(gutter=0, bleed=0), out=str(path))
    trims = [_boxes(page)["trimbox"] for page in PdfReader(str(path)).pages]
    seen = [spot for spots in identifiers(path).values() for spot in spots]
    assert len(seen) > 20
    for spot in seen:
        left, _bottom, right, _top = trims[spot.page]
        columns = round((right - left) / 63)
        middles = [left + 63 * (column + 0.5) for column in range(columns)]
        assert min(abs(spot.x - middle) for middle in middles) < 0.05, spot


def test_a_card_printed_again_alone_keeps_its_number(demo, tmp_path):
    demo("millionnaire")
    whole = tmp_path / "whole.pdf"
    render("millionnaire", ("questions",), PrintOptions(), out=str(whole))
    numbers = {}
    pdf = pdfium.PdfDocument(str(whole))
    for page in range(0, len(pdf), 2):  # rectos: each card's question and its number
        textpage = pdf[page].get_textpage()
        for ident, spots in identifiers(whole).items():
            for spot in spots:
                if spot.page == page:
                    left, right = (spot.x - 30) * mm, (spot.x + 30) * mm
                    numbers[ident] = textpage.get_text_bounded(
                        left=left, right=right, bottom=(spot.y + 2) * mm,
                        top=(spot.y + 80) * mm)
    chosen = list(Question.objects.filter(kind="echelle", status=Status.PUBLISHED)
                  .order_by("ref")[5:40:15])
    again = tmp_path / "again.pdf"
    render("millionnaire", ("questions",), PrintOptions(), out=str(again),
           refs=[q.ref for q in chosen])
    reprinted = identifiers(again)
    assert len(reprinted) == 3
    for ident in reprinted:
        # The same number is on the card with the same question.
        assert any(flat(q.text)[:25] in flat(numbers[ident]) for q in chosen)
