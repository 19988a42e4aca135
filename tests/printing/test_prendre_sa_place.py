"""Tout le monde veut prendre sa place on paper: cards, answer sheets, board, armchair, pawns."""

import ctypes

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
import pytest
from reportlab.lib.units import mm

from cms.games.prendre_sa_place import COMPET_SLOTS, FORMATS, SPEC, SUPER_CASH_POINTS
from cms.models import Card, Status
from printing.products.prendre_sa_place import COMPET_CARDS, DEFI_CARDS, QUALIFS_CARDS
from printing.render import PrintOptions, PrintRefused
from printing.sheets import BACKS, PAPERS
from printing.text import french
from tests.builders import make_card, make_question

from .conftest import flat, page_text, save_png, text_in

GAME = "prendre-sa-place"
DECKS = ("qualifs", "compet", "defi")
SHEETS = ("feuille-compet", "feuille-defi", "plateau", "fauteuil", "pions")


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


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("backs", BACKS)
@pytest.mark.parametrize("card", ["poker", "tarot"])
def test_it_prints_the_card_decks_with_every_back_mode_and_full_bleed(
        demo, print_pdf, pdf_of, paper, backs, card):
    demo(GAME)
    pdf = pdf_of(print_pdf(GAME, *DECKS, paper=paper, card=card, backs=backs, bleed=3))
    text = flat(" ".join(page_text(pdf, i) for i in range(len(pdf))))
    for title in ("Gourmandises", "Tour du monde", "Le cinéma français"):
        assert title in text


def test_it_prints_the_board_on_a_landscape_page(demo, print_pdf, pdf_of):
    pdf = pdf_of(print_pdf(GAME, "plateau", paper="letter"))
    assert len(pdf) == 1
    w, h = pdf[0].get_size()
    assert w > h


# --- the cards -----------------------------------------------------------------------------


def test_it_prints_the_right_answer_in_bold_and_the_wrong_ones_in_regular(demo, print_pdf, pdf_of):
    demo(GAME)
    pdf = pdf_of(print_pdf(GAME, "qualifs", refs=["psp-qualifs-01"]))
    assert "Bold" in font_name(pdf, 0, "Le reblochon")
    assert "Bold" not in font_name(pdf, 0, "Le beaufort")
    assert "Bold" not in font_name(pdf, 0, "Le comté")


def test_it_tags_the_first_wrong_proposition_as_the_duo_partner(demo, print_pdf, pdf_of):
    demo(GAME)
    pdf = pdf_of(print_pdf(GAME, "qualifs", refs=["psp-qualifs-01"]))
    text = flat(page_text(pdf, 0))
    assert "DUO Le beaufort Le reblochon Le comté Le cantal" in text


def test_it_prints_the_cash_answer_with_its_variants(demo, print_pdf, pdf_of):
    demo(GAME)
    pdf = pdf_of(print_pdf(GAME, "qualifs", refs=["psp-qualifs-01"]))
    assert "CASH Le paris-brest (Paris-Brest / Paris Brest)" in flat(page_text(pdf, 0))


def test_it_shows_the_points_of_each_format_on_a_qualifs_card(demo, print_pdf, pdf_of):
    demo(GAME)
    pdf = pdf_of(print_pdf(GAME, "qualifs", refs=["psp-qualifs-01"]))
    legend = " ".join(f"{f.label} {f.points} pt{'s' if f.points > 1 else ''}"
                      for f in FORMATS.values())
    assert legend in flat(page_text(pdf, 0))


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
    assert "Quelle est la capitale de l’Espagne ? Madrid Barcelone 2" in text
    assert "Séville" not in text


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
    assert (trim.w, trim.h) == COMPET_CARDS.size
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


def test_it_prints_the_kind_on_the_back_behind_each_card(demo, print_pdf, pdf_of):
    demo(GAME)
    pdf = pdf_of(print_pdf(GAME, "defi", refs=["psp-defi-01"], backs="long"))
    back = PrintOptions(backs="long").sheet_for(DEFI_CARDS).back(0).trim
    assert "Le Défi" in flat(text_in(pdf, 1, (back.x, back.y, back.w, back.h)))


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
    assert len(pdf) == 1
    assert flat(page_text(pdf, 0)).count("Feuille La Compet’") == 2


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
    for start in SPEC.scoring["compet_starts"]:
        assert f"−{-start} (" in text


def test_it_prints_a_defi_sheet_with_six_questions_the_formats_and_the_bluff(print_pdf, pdf_of):
    pdf = pdf_of(print_pdf(GAME, "feuille-defi"))
    text = flat(page_text(pdf, 0))
    assert text.count("Feuille Le Défi") == 2
    assert "DUO 1 pt CARRÉ 3 pts CASH 5 pts" in text
    assert "1 2 3 4 5 6 Total" in text
    assert text.count("COUP DE BLUFF") == 2
    assert "Score annoncé" in text


# --- the board, the armchair, the pawns ----------------------------------------------------


def test_it_runs_the_compet_track_from_a_missed_super_cash_to_the_best_score(print_pdf, pdf_of):
    starts = SPEC.scoring["compet_starts"]
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
    low, high = SPEC.scoring["qualifs_track"]
    numbers = " ".join(str(n) for n in range(low, high + 1))
    assert f"LES QUALIFS 0 départ {numbers}" in flat(page_text(pdf, 0))


def test_it_draws_the_armchair_on_both_faces_of_its_folded_marker(print_pdf, pdf_of):
    pdf = pdf_of(print_pdf(GAME, "fauteuil"))
    assert flat(page_text(pdf, 0)).count("Le Champion") == 2


def test_it_prints_a_numbered_pawn_per_colour(print_pdf, pdf_of):
    pdf = pdf_of(print_pdf(GAME, "pions"))
    squares = flat(page_text(pdf, 0)).split()
    for number in range(1, 9):
        assert squares.count(str(number)) == 2


# --- looking at it -------------------------------------------------------------------------


def test_it_saves_a_render_of_every_product_to_look_at(demo, print_pdf):
    demo(GAME)
    for product in DECKS + SHEETS:
        path = print_pdf(GAME, product, paper="a4")
        save_png(path, 0, f"prendre-sa-place-{product}")
