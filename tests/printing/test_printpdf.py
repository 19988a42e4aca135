"""The printpdf command, and what every print checks before it writes a page."""

import gc
import io

import pypdfium2 as pdfium
import pytest
from django.core.management import CommandError, call_command
from pypdf import PdfReader

from cms.games.millionnaire import LADDER
from cms.models import Status
from cms.rules import validate_game
from printing.products import PRODUCTS
from printing.render import PrintOptions, PrintRefused, render
from printing.sheets import SheetError
from tests.builders import make_question

from .conftest import flat, page_text

HOSTILE = '<b>Gras ?</b> & </para> <img src="/etc/hostname"/> &amp; <font size=40>'


def ladder(text, *, step=1, status=Status.PUBLISHED, right="Paris"):
    difficulty = LADDER[step - 1].difficulty_band[0]
    return make_question("echelle", text=text, step=step, difficulty=difficulty, status=status,
                         propositions=[(right, True, False), ("Lyon", False, False),
                                       ("Nice", False, False), ("Brest", False, False)])


def printpdf(*args, **kwargs):
    out, err = io.StringIO(), io.StringIO()
    call_command("printpdf", *args, stdout=out, stderr=err, **kwargs)
    return out.getvalue(), err.getvalue()


def test_list_names_every_games_products(db):
    out, _err = printpdf("--list")
    for game, products in PRODUCTS.items():
        assert game in out
        for slug in products:
            assert slug in out
    assert "calibrage" in out


def test_it_writes_the_named_products_to_the_chosen_path(db, tmp_path):
    ladder("Quelle est la capitale de la France ?")
    path = tmp_path / "questions.pdf"
    out, _err = printpdf("millionnaire", "questions", "--out", str(path), "--paper", "letter")
    reader = PdfReader(path)
    assert len(reader.pages) == 2  # one front sheet, one back sheet
    assert [round(float(v)) for v in reader.pages[0].mediabox[2:]] == [612, 792]
    assert "2 page(s)" in out


def test_hostile_text_is_printed_literally(db, tmp_path):
    ladder(HOSTILE)
    path = tmp_path / "hostile.pdf"
    printpdf("millionnaire", "questions", "--out", str(path))
    printed = flat(page_text(pdfium.PdfDocument(str(path)), 0))
    assert flat('<b>Gras ?</b> & </para> <img src="/etc/hostname"/> &amp; <font') in printed


def test_a_question_too_long_for_its_card_stops_the_print_and_names_it(db, tmp_path):
    question = ladder("Une question interminable sur un sujet très vaste " * 30)
    path = tmp_path / "long.pdf"
    with pytest.raises(CommandError) as refused:
        printpdf("millionnaire", "questions", "--out", str(path))
    assert question.ref in str(refused.value)
    assert "ne tient pas sur la carte" in str(refused.value).lower()
    assert not path.exists()
    assert list(tmp_path.iterdir()) == []  # no temporary file left behind either


def test_a_long_question_fits_a_tarot_card(db, tmp_path):
    ladder("Une question longue sur un sujet très vaste, qui demande de la place " * 6)
    with pytest.raises(CommandError):
        printpdf("millionnaire", "questions", "--card", "mini", "--out", str(tmp_path / "a"))
    printpdf("millionnaire", "questions", "--card", "tarot", "--out", str(tmp_path / "b.pdf"))
    assert (tmp_path / "b.pdf").exists()


def test_a_word_longer_than_the_card_is_refused_not_cut(db, tmp_path):
    question = ladder("Quel est le sens de " + "Anticonstitutionnellement" * 4 + " ?")
    with pytest.raises(CommandError, match=question.ref):
        printpdf("millionnaire", "questions", "--out", str(tmp_path / "word.pdf"))


def test_an_emoji_is_refused_with_the_card_named(db, tmp_path):
    question = ladder("Quel animal est 🐘 ?")
    with pytest.raises(CommandError) as refused:
        printpdf("millionnaire", "questions", "--out", str(tmp_path / "emoji.pdf"))
    assert question.ref in str(refused.value)
    assert "🐘" in str(refused.value)


def test_validation_reports_text_that_does_not_fit_before_anyone_prints(db):
    question = ladder("Une question interminable sur un sujet très vaste " * 30,
                      status=Status.DRAFT)
    report = validate_game("millionnaire")
    fit = [p for p in report.about(question) if p.code == "text_overflow"]
    assert fit and fit[0].is_error
    assert fit[0].args["product"] == "questions"


def test_drafts_are_printed_only_when_asked(db, tmp_path):
    ladder("Question publiée ?", right="Publiée")
    ladder("Question en brouillon ?", status=Status.DRAFT, right="Brouillon")
    printpdf("millionnaire", "questions", "--out", str(tmp_path / "a.pdf"))
    printpdf("millionnaire", "questions", "--include-drafts", "--out", str(tmp_path / "b.pdf"))
    published = flat(page_text(pdfium.PdfDocument(str(tmp_path / "a.pdf")), 0))
    everything = flat(page_text(pdfium.PdfDocument(str(tmp_path / "b.pdf")), 0))
    assert "Question publiée" in published and "brouillon" not in published
    assert "Question en brouillon" in everything


def test_nothing_published_is_a_clear_refusal(db, tmp_path):
    with pytest.raises(CommandError, match="Rien à imprimer"):
        printpdf("millionnaire", "questions", "--out", str(tmp_path / "none.pdf"))


@pytest.mark.parametrize("args,message", [
    (["nope"], "Jeu inconnu"),
    (["millionnaire", "nope"], "Produit inconnu"),
    (["millionnaire", "--bleed", "4"], "fond perdu"),
    (["millionnaire", "--offset-x", "20", "--backs", "separate"], "décalage"),
    ([], "Nommez un jeu"),
])
def test_bad_arguments_get_a_clear_error(db, tmp_path, args, message):
    with pytest.raises(CommandError, match=message):
        printpdf(*args, "--out", str(tmp_path / "x.pdf"))


def test_a_long_deck_shows_a_progress_bar(db, tmp_path):
    for n in range(60):
        ladder(f"Question de progression numéro {n} ?", step=1 + n % 15)
    _out, err = printpdf("millionnaire", "questions", "--out", str(tmp_path / "p.pdf"))
    assert "100 % (60/60)" in err
    assert "[" + "#" * 30 + "]" in err


def test_the_pdf_says_how_to_print_it(db, tmp_path):
    ladder("Quelle est la capitale de la France ?")
    path = tmp_path / "hints.pdf"
    printpdf("millionnaire", "questions", "--backs", "short", "--bleed", "2", "--out",
             str(path))
    reader = PdfReader(path)
    prefs = reader.trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/Duplex"] == "/DuplexFlipShortEdge"
    assert prefs["/PrintScaling"] == "/None"
    assert "Qui veut gagner des millions" in reader.metadata.title
    page = reader.pages[0]
    trim, bleed = page.trimbox, page.bleedbox
    assert float(bleed.left) < float(trim.left) and float(bleed.top) > float(trim.top)


def test_the_same_content_prints_the_same_bytes(db, tmp_path):
    ladder("Quelle est la capitale de la France ?")
    first, second = tmp_path / "1.pdf", tmp_path / "2.pdf"
    render("millionnaire", (), PrintOptions(), out=str(first))
    render("millionnaire", (), PrintOptions(), out=str(second))
    assert first.read_bytes() == second.read_bytes()


def test_an_invalid_question_stops_the_print_even_when_it_fits(db):
    question = make_question("echelle", text="Deux bonnes réponses ?", step=1, difficulty=1,
                             status=Status.PUBLISHED,
                             propositions=[("A", True, False), ("B", True, False),
                                           ("C", False, False), ("D", False, False)])
    with pytest.raises(PrintRefused) as refused:
        render("millionnaire", ("questions",), out=io.BytesIO())
    assert question in [p.target for p in refused.value.problems]


def test_the_progress_bar_ends_at_one_hundred_percent_with_pages_among_the_cards(db, tmp_path):
    ladder("Quelle est la capitale de la France ?")
    _out, err = printpdf("millionnaire", "--out", str(tmp_path / "all.pdf"))
    last = err.strip().split("\r")[-1]
    assert last.startswith("[" + "#" * 30 + "] 100 %")
    assert "101 %" not in err


def test_the_a3_board_is_printed_alone_and_left_out_of_the_whole_game(db, tmp_path):
    with pytest.raises(SheetError) as refused:
        render("minotaure", ("plateau-a3", "thesee"), PrintOptions(), out=io.BytesIO())
    assert "A3" in str(refused.value) and "seul" in str(refused.value)
    path = tmp_path / "minotaure.pdf"
    render("minotaure", (), PrintOptions(), out=str(path))
    sizes = {tuple(round(float(v)) for v in page.mediabox[2:]) for page in PdfReader(path).pages}
    assert sizes <= {(595, 842), (842, 595)}


def test_the_fonts_are_embedded_in_the_pdf(db, tmp_path):
    ladder("Où se trouve l’Œuvre « française » ?")
    path = tmp_path / "fonts.pdf"
    render("millionnaire", ("questions",), PrintOptions(), out=str(path))
    fonts = {}
    for page in PdfReader(path).pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descriptor = font["/FontDescriptor"].get_object()
            fonts[font["/BaseFont"]] = "/FontFile2" in descriptor
    assert fonts and all(fonts.values())
    assert all("DejaVu" in name for name in fonts)


def test_writing_leaves_the_process_garbage_collector_alone(db):
    # A web worker prints while it serves others: nothing process-wide may change meanwhile.
    ladder("Quelle est la capitale de la France ?")
    seen_while_writing = []

    def progress(done, total):
        seen_while_writing.append((gc.isenabled(), gc.get_freeze_count(), gc.get_threshold()))

    before = (gc.isenabled(), gc.get_freeze_count(), gc.get_threshold())
    render("millionnaire", ("questions",), PrintOptions(), out=io.BytesIO(), progress=progress)

    assert seen_while_writing and set(seen_while_writing) == {before}


def test_text_too_long_for_mini_cards_is_refused_with_a_larger_size_to_choose(db):
    # As long as a poker card takes, and no longer: a mini card is too small for it.
    words = "Quelle ville, capitale d’un pays européen célèbre pour ses monuments,"
    text = words
    question = ladder(text)
    while not validate_game("millionnaire").about(question):
        text += " " + words
        question.text = text
        question.save()
    question.text = text.rsplit(" ", len(words.split()))[0]
    question.save()
    assert validate_game("millionnaire").about(question) == []
    with pytest.raises(PrintRefused) as refused:
        render("millionnaire", ("questions",), PrintOptions(card="mini"), out=io.BytesIO())
    (problem,) = refused.value.problems
    assert problem.target == question
    assert "format poker ou tarot" in problem.message


def test_the_calibration_sheet_prints_alone_and_not_for_a_fold(db):
    with pytest.raises(SheetError) as refused:
        render("the-mind", ("calibrage", "nombres"), PrintOptions(), out=io.BytesIO())
    assert "à part" in str(refused.value)
    with pytest.raises(SheetError) as refused:
        render("the-mind", ("calibrage",), PrintOptions(backs="fold"), out=io.BytesIO())
    assert "recto verso" in str(refused.value)


@pytest.mark.parametrize("option", ["--offset-x", "--offset-y", "--bleed", "--gutter"])
def test_a_number_that_is_not_one_is_refused_in_french(db, option, tmp_path):
    with pytest.raises(CommandError) as refused:
        printpdf("the-mind", "nombres", option, "nan", "--out", str(tmp_path / "x.pdf"))
    assert " va de " in str(refused.value)


def test_an_output_folder_gets_the_usual_file_name(db, tmp_path):
    printpdf("the-mind", "vies", "--out", str(tmp_path))
    assert (tmp_path / "the-mind-a4-poker.pdf").exists()


def test_the_command_names_only_the_products_it_printed(db, tmp_path):
    ladder("Quelle est la capitale de la France ?")
    out, _err = printpdf("millionnaire", "questions", "reponses", "--out",
                         str(tmp_path / "m.pdf"))
    assert "(questions, reponses)" in out
    # No duel is published: only the banknotes print, and only they are named.
    out, _err = printpdf("douze-coups", "duels", "billets", "--out", str(tmp_path / "d.pdf"))
    assert "(billets)" in out
