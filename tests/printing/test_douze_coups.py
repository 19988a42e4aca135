"""Les 12 Coups de Midi on paper: every part of the box, as a maker prints and cuts it."""

from __future__ import annotations

import re
from collections import Counter

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from PIL import Image
from reportlab.lib.units import mm

from cms.games.douze_coups import DUEL_COLOURS, SPEC
from cms.games.spec import PALETTE
from cms.models import Card, Status
from cms.rules import check_game
from cms.selectors import load_game
from printing.products import PRODUCTS
from printing.products import douze_coups as dc
from printing.render import PrintOptions, PrintRefused
from printing.sheets import PAPERS, Rect
from printing.text import MIN_SIZE
from tests.builders import make_card, make_duel_pair, make_question

from .conftest import flat, page_text, save_png, text_in
from .physical import is_blank

GAME = "douze-coups"
CARD_DECKS = ("coups-d-envoi", "duels", "coups-fatals", "coups-de-maitre")
ALL = tuple(product.slug for product in dc.PRODUCTS)
CONTENT = tuple(product.slug for product in dc.PRODUCTS if product.kind)
PARTS = tuple(product.slug for product in dc.PRODUCTS if not product.kind)


def deck(slug: str):
    return PRODUCTS[GAME][slug]


def page_size_mm(pdf: pdfium.PdfDocument, page: int) -> tuple[float, float]:
    w, h = pdf[page].get_size()
    return round(w / mm, 1), round(h / mm, 1)


def text_top(pdf: pdfium.PdfDocument, page: int, needle: str) -> float:
    """Return the height in mm of the top of `needle`'s first character on the page."""
    textpage = pdf[page].get_textpage()
    searcher = textpage.search(needle)
    found = searcher.get_next()
    assert found is not None, f"{needle!r} is not on page {page}"
    _left, _bottom, _right, top = textpage.get_charbox(found[0])
    return top / mm


def colours_at(pdf: pdfium.PdfDocument, page: int, spots) -> list[str]:
    """Return the colours printed at each (x, y) mm from the page's bottom-left corner."""
    scale = 4.0
    image = pdf[page].render(scale=scale).to_pil().convert("RGB")
    _w, h = pdf[page].get_size()
    return ["#{:02x}{:02x}{:02x}".format(*image.getpixel(
        (round(x * mm * scale), round((h - y * mm) * scale)))) for x, y in spots]


def colour_at(pdf: pdfium.PdfDocument, page: int, x: float, y: float) -> str:
    """Return the colour printed at (x, y) mm from the page's bottom-left corner."""
    return colours_at(pdf, page, [(x, y)])[0]


def near(colour: str, expected: str, tolerance: int = 6) -> bool:
    pairs = zip((colour[1:3], colour[3:5], colour[5:7]),
                (expected[1:3], expected[3:5], expected[5:7]), strict=True)
    return all(abs(int(a, 16) - int(b, 16)) <= tolerance for a, b in pairs)


def publish_envoi(first_text: str) -> Card:
    """A published coup d'envoi whose first question says `first_text`."""
    questions = [make_question("coup-d-envoi", status=Status.PUBLISHED, text=first_text)]
    questions += [make_question("coup-d-envoi", status=Status.PUBLISHED) for _ in range(3)]
    return make_card("coup-d-envoi", status=Status.PUBLISHED, questions=questions)


# --- every product prints ------------------------------------------------------------------


def assert_prints_on(path, paper: str) -> None:
    pdf = pdfium.PdfDocument(str(path))
    assert len(pdf) >= 1
    assert sorted(page_size_mm(pdf, 0)) == sorted(round(v, 1) for v in PAPERS[paper])


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("product", CONTENT)
def test_it_prints_every_content_product_on_the_makers_paper(demo, print_pdf, product, paper):
    demo(GAME)
    assert_prints_on(print_pdf(GAME, product, paper=paper), paper)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("product", PARTS)
def test_it_prints_every_fixed_part_on_the_makers_paper(print_pdf, product, paper):
    assert_prints_on(print_pdf(GAME, product, paper=paper), paper)


@pytest.mark.parametrize("card", ["poker", "tarot"])
@pytest.mark.parametrize("product", CARD_DECKS)
def test_it_prints_every_card_deck_with_long_edge_backs_and_bleed(demo, print_pdf, product,
                                                                   card):
    demo(GAME)
    pdf = pdfium.PdfDocument(str(print_pdf(GAME, product, card=card, backs="long", bleed=3)))
    assert len(pdf) % 2 == 0  # every page of fronts has its page of backs


def test_it_prints_the_duels_on_mini_cards(demo, print_pdf):
    demo(GAME)
    pdf = pdfium.PdfDocument(str(print_pdf(GAME, "duels", card="mini", bleed=3)))
    assert "Les fleuves" in flat(page_text(pdf, 0))


def test_it_refuses_coups_fatals_on_mini_cards_naming_each_card(demo, print_pdf):
    demo(GAME)
    with pytest.raises(PrintRefused) as refused:
        print_pdf(GAME, "coups-fatals", card="mini")
    fatal_cards = set(Card.objects.filter(kind="coup-fatal", status=Status.PUBLISHED))
    assert {problem.target for problem in refused.value.problems} == fatal_cards
    assert {problem.args["product"] for problem in refused.value.problems} == {"coups-fatals"}


@pytest.mark.parametrize("backs", ["short", "separate", "fold"])
def test_it_prints_the_coups_d_envoi_with_any_kind_of_backs(demo, print_pdf, backs):
    demo(GAME)
    assert print_pdf(GAME, "coups-d-envoi", backs=backs, bleed=3).stat().st_size > 0


# --- what the cards say --------------------------------------------------------------------


def test_it_prints_a_coup_de_maitres_five_questions_in_order_from_top_to_bottom(db, print_pdf):
    questions = [make_question("coup-de-maitre", status=Status.PUBLISHED, difficulty=n,
                               text=f"Question de rang {n} sur la difficulté ?")
                 for n in range(1, 6)]
    card = make_card("coup-de-maitre", status=Status.PUBLISHED, questions=questions)
    pdf = pdfium.PdfDocument(str(print_pdf(GAME, "coups-de-maitre", refs=[card.ref])))
    tops = [text_top(pdf, 0, f"rang {n}") for n in range(1, 6)]
    assert tops == sorted(tops, reverse=True)


def test_it_numbers_a_coup_de_maitres_questions_from_one_to_five(db, print_pdf):
    questions = [make_question("coup-de-maitre", status=Status.PUBLISHED, difficulty=n,
                               text=f"Question de rang {n} sur la difficulté ?")
                 for n in range(1, 6)]
    card = make_card("coup-de-maitre", status=Status.PUBLISHED, questions=questions)
    pdf = pdfium.PdfDocument(str(print_pdf(GAME, "coups-de-maitre", refs=[card.ref])))
    trim = PrintOptions().sheet_for(deck("coups-de-maitre")).front(0).trim
    for n in range(1, 6):
        # The disc left of the question's first line.
        top = text_top(pdf, 0, f"rang {n}")
        assert flat(text_in(pdf, 0, (trim.x, top - 3, 7.5, 3))) == str(n)


def boxes_of(pdf: pdfium.PdfDocument, page: int, needle: str) -> list[Rect]:
    """Return the box (mm) of every occurrence of `needle` on the page, from its letters."""
    textpage = pdf[page].get_textpage()
    searcher = textpage.search(needle, match_case=True)
    found = []
    while (hit := searcher.get_next()) is not None:
        start, count = hit
        boxes = [textpage.get_charbox(i) for i in range(start, start + count)]
        left, bottom = min(b[0] for b in boxes) / mm, min(b[1] for b in boxes) / mm
        right, top = max(b[2] for b in boxes) / mm, max(b[3] for b in boxes) / mm
        found.append(Rect(left, bottom, right - left, top - bottom))
    return found


def test_it_tags_each_hidden_proposition_cachee_just_above_it(db, print_pdf):
    card = publish_envoi("Quelle ville est la préfecture du Gers ?")
    pdf = pdfium.PdfDocument(str(print_pdf(GAME, "coups-d-envoi", refs=[card.ref])))
    tags = boxes_of(pdf, 0, "CACHÉE")
    hidden = boxes_of(pdf, 0, "Proposition 2")  # the builder hides each question's second
    assert len(tags) == len(hidden) == 4
    for tag, proposition in zip(sorted(tags, key=lambda r: -r.y),
                                sorted(hidden, key=lambda r: -r.y), strict=True):
        assert abs(tag.x - proposition.x) < 1.5
        assert 0 < tag.y - proposition.top < 2.5


def test_it_leaves_a_visible_proposition_untagged(db, print_pdf):
    card = publish_envoi("Quelle ville est la préfecture du Gers ?")
    pdf = pdfium.PdfDocument(str(print_pdf(GAME, "coups-d-envoi", refs=[card.ref])))
    assert "VISIBLE" not in flat(page_text(pdf, 0)).upper()


def test_it_gives_both_cards_of_a_duel_pair_the_same_title_and_colour(db):
    first, second = make_duel_pair(status=Status.PUBLISHED, title="Les volcans",
                                   colour="violet")
    content = load_game(GAME)
    items = [dc.printed_card(content, card) for card in (first, second)]
    assert {(item.title, item.colour) for item in items} == {
        ("Les volcans", DUEL_COLOURS["violet"])}


def test_it_prints_a_duel_pairs_title_in_its_colour_on_both_cards(db, print_pdf):
    first, second = make_duel_pair(status=Status.PUBLISHED, title="Les volcans",
                                   colour="violet")
    pdf = pdfium.PdfDocument(str(print_pdf(GAME, "duels", refs=[first.ref, second.ref])))
    sheet = PrintOptions().sheet_for(deck("duels"))
    trims = [sheet.front(index).trim for index in (0, 1)]
    for trim in trims:
        header = (trim.x, trim.top - 8, trim.w, 8)
        assert "Les volcans" in flat(text_in(pdf, 0, header))
    for colour in colours_at(pdf, 0, [(trim.x + 1, trim.top - 1) for trim in trims]):
        assert near(colour, DUEL_COLOURS["violet"])


def test_it_prints_a_duels_title_on_its_back_to_choose_a_card_face_down(db, print_pdf):
    first, _second = make_duel_pair(status=Status.PUBLISHED, title="Les volcans")
    pdf = pdfium.PdfDocument(str(print_pdf(GAME, "duels", refs=[first.ref])))
    back = PrintOptions().sheet_for(deck("duels")).back(0).trim
    assert "Les volcans" in flat(text_in(pdf, 1, (back.x, back.y, back.w, back.h)))


def test_it_prints_a_coup_fatals_answers_and_variants(db, print_pdf):
    questions = [make_question("coup-fatal", status=Status.PUBLISHED, answer="Ljubljana",
                               variants="Lioubliana")]
    questions += [make_question("coup-fatal", status=Status.PUBLISHED) for _ in range(9)]
    card = make_card("coup-fatal", status=Status.PUBLISHED, questions=questions)
    pdf = pdfium.PdfDocument(str(print_pdf(GAME, "coups-fatals", refs=[card.ref])))
    text = flat(page_text(pdf, 0))
    assert "Ljubljana" in text
    assert "Lioubliana" in text


def test_it_names_the_one_question_too_long_for_a_coup_fatal(db, print_pdf):
    long_text = " ".join(["Quelle est la plus longue question du monde ?"] * 40)
    questions = [make_question("coup-fatal", status=Status.PUBLISHED,
                               text=long_text if n == 3 else None) for n in range(1, 11)]
    card = make_card("coup-fatal", status=Status.PUBLISHED, questions=questions)
    with pytest.raises(PrintRefused) as refused:
        print_pdf(GAME, "coups-fatals", refs=[card.ref])
    assert [(p.target, p.code) for p in refused.value.problems] == [(card, "text_overflow")]
    assert refused.value.problems[0].args["box"] == "question 3"


def test_it_prints_hostile_text_literally(db, print_pdf):
    card = publish_envoi("<b>&</para> quelle balise ?")
    pdf = pdfium.PdfDocument(str(print_pdf(GAME, "coups-d-envoi", refs=[card.ref])))
    assert "<b>&</para> quelle balise ?" in flat(page_text(pdf, 0))


def test_it_refuses_an_emoji_in_a_question_and_names_its_card(db, print_pdf):
    card = publish_envoi("Quel fruit est 🍓 ?")
    with pytest.raises(PrintRefused) as refused:
        print_pdf(GAME, "coups-d-envoi", refs=[card.ref])
    glyphs = [p for p in refused.value.problems if p.code == "glyph_missing"]
    assert glyphs
    assert all(problem.target == card for problem in glyphs)
    assert all("🍓" in problem.args["chars"] for problem in glyphs)


# --- fiches and the tableau révélateur -----------------------------------------------------


def test_it_prints_the_fiches_and_the_tableau_at_one_size(db):
    sizes = {deck(slug).size for slug in ("coups-par-coup", "etoiles", "tableau-revelateur")}
    assert sizes == {dc.FICHE_SIZE}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_it_fits_two_fiches_on_a_sheet_even_with_bleed(paper):
    assert PrintOptions(paper=paper, bleed=3).sheet_for(deck("etoiles")).per_page == 2


def test_it_cuts_the_image_area_into_seven_large_flaps_left_and_seven_small_right():
    areas = dc.fiche_areas()
    assert len(areas.large) == SPEC.rules.large_panels
    assert len(areas.small) == SPEC.rules.small_panels
    assert all(large.right <= small.x + 1e-6 and large.w > small.w
               for large, small in zip(areas.large, areas.small, strict=True))
    assert all(areas.image.contains(flap) for flap in areas.large + areas.small)
    assert not areas.image.overlaps(areas.answer)


def on_page(placement, rect: Rect) -> tuple[float, float, float, float]:
    """Return where a rectangle of a face lies on its page, (x, y, w, h) in mm."""
    corners = [placement.matrix(x, y) for x in (rect.x, rect.right) for y in (rect.y, rect.top)]
    xs, ys = [x for x, _y in corners], [y for _x, y in corners]
    return (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def test_it_lays_the_tableaus_answer_flap_over_the_etoile_answer(demo, print_pdf):
    demo(GAME)
    fiche = pdfium.PdfDocument(str(print_pdf(GAME, "etoiles")))
    cover = pdfium.PdfDocument(str(print_pdf(GAME, "tableau-revelateur")))
    sheet = PrintOptions().sheet_for(deck("etoiles"))
    assert sheet.front(0) == PrintOptions().sheet_for(deck("tableau-revelateur")).front(0)
    box = on_page(sheet.front(0), dc.AREAS.answer)
    assert "La tour Eiffel" in flat(text_in(fiche, 0, box))
    assert "RÉPONSE" in flat(text_in(cover, 0, box))


def test_it_puts_each_coup_par_coup_proposition_under_its_numbered_large_flap(db, print_pdf):
    question = make_question("coup-par-coup", status=Status.PUBLISHED,
                             text="Ces villes sont des préfectures",
                             propositions=[(f"Ville {n}", n != 4, False) for n in range(1, 8)])
    card = make_card("coup-par-coup", status=Status.PUBLISHED, questions=[question])
    fiche = pdfium.PdfDocument(str(print_pdf(GAME, "coups-par-coup", refs=[card.ref])))
    cover = pdfium.PdfDocument(str(print_pdf(GAME, "tableau-revelateur")))
    front = PrintOptions().sheet_for(deck("coups-par-coup")).front(0)
    for number, large in enumerate(dc.AREAS.large, start=1):
        box = on_page(front, large)
        assert f"Ville {number}" in flat(text_in(fiche, 0, box))
        assert str(number) in flat(text_in(cover, 0, box))


def test_it_hides_faux_under_the_intruders_small_flap_only(db, print_pdf):
    question = make_question("coup-par-coup", status=Status.PUBLISHED,
                             propositions=[(f"Ville {n}", n != 4, False) for n in range(1, 8)])
    card = make_card("coup-par-coup", status=Status.PUBLISHED, questions=[question])
    pdf = pdfium.PdfDocument(str(print_pdf(GAME, "coups-par-coup", refs=[card.ref])))
    front = PrintOptions().sheet_for(deck("coups-par-coup")).front(0)
    words = [flat(text_in(pdf, 0, on_page(front, small))) for small in dc.AREAS.small]
    assert words == ["VRAI"] * 3 + ["FAUX"] + ["VRAI"] * 3


def test_it_draws_the_mystery_image_on_the_etoile_fiche(demo, print_pdf):
    demo(GAME)
    pdf = pdfium.PdfDocument(str(print_pdf(GAME, "etoiles")))
    images = list(pdf[0].get_objects(filter=[pdfium.raw.FPDF_PAGEOBJ_IMAGE]))
    assert len(images) == 2  # two fiches a sheet, each with its picture


# --- banknotes, stars, rules ---------------------------------------------------------------


def test_it_prints_the_boxs_thirty_banknotes(print_pdf):
    pdf = pdfium.PdfDocument(str(print_pdf(GAME, "billets")))
    fronts = " ".join(flat(page_text(pdf, page)) for page in range(0, len(pdf), 2))
    values = Counter(int(n) * 1000 for n in re.findall(r"\b(\d{1,2}) 000 €", fronts))
    assert values == Counter(SPEC.rules.banknotes)
    assert values.total() == 30


@pytest.mark.parametrize(("product", "front", "back"), [
    ("etoiles-pupitre", PALETTE["vert"], PALETTE["violet"]),
    ("jetons-etoile", PALETTE["orange"], PALETTE["rouge"]),
])
def test_it_prints_stars_with_one_colour_a_side_behind_each_other(print_pdf, product, front,
                                                                  back):
    pdf = pdfium.PdfDocument(str(print_pdf(GAME, product)))
    assert len(pdf) == 2
    sheet = PrintOptions().sheet_for(deck(product))
    for page, placement, colour in ((0, sheet.front(0), front), (1, sheet.back(0), back)):
        cx, cy = placement.trim.centre
        assert near(colour_at(pdf, page, cx + 6, cy - 4), colour)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_it_summarises_the_rules_on_one_page_with_the_games_numbers(print_pdf, paper):
    path = print_pdf(GAME, "regles", paper=paper)
    pdf = pdfium.PdfDocument(str(path))
    text = flat(page_text(pdf, 0))
    # A duplex PDF gives the one-sided page a blank verso of its own.
    assert [page for page in range(len(pdf)) if not is_blank(path, page)] == [0]
    assert "Maître de Midi" in text
    assert "3 000 €" in text
    assert "10 000 €" in text


def test_it_orders_the_products_as_a_maker_prints_them():
    assert ALL == ("coups-d-envoi", "duels", "coups-fatals", "coups-de-maitre",
                   "coups-par-coup", "etoiles", "tableau-revelateur", "fiche-cache", "billets",
                   "etoiles-pupitre", "jetons-etoile", "regles")


# --- what a maker can read -----------------------------------------------------------------


def printed_chars(pdf: pdfium.PdfDocument, page: int):
    """Yield each printed character of a page: the character, its size (pt), its box (mm)."""
    textpage = pdf[page].get_textpage()
    for index in range(textpage.count_chars()):
        char = chr(pdfium_c.FPDFText_GetUnicode(textpage, index))
        if char.isspace():
            continue
        left, bottom, right, top = textpage.get_charbox(index)
        yield (char, pdfium_c.FPDFText_GetFontSize(textpage, index),
               Rect(left / mm, bottom / mm, (right - left) / mm, (top - bottom) / mm))


def print_for_reading(demo, print_pdf, product: str, **options):
    """Print a product as a maker would: the demo library, drafts and all."""
    if product in CONTENT:
        demo(GAME)
    return print_pdf(GAME, product, include_drafts=True, **options)


@pytest.mark.parametrize("card", ["poker", "tarot"])
@pytest.mark.parametrize("product", ALL)
def test_it_prints_no_text_smaller_than_the_readable_size(demo, print_pdf, product, card):
    pdf = pdfium.PdfDocument(str(print_for_reading(demo, print_pdf, product, card=card)))
    small = {(char, round(size, 2)) for page in range(len(pdf))
             for char, size, _box in printed_chars(pdf, page) if size < MIN_SIZE - 0.01}
    assert not small


def face_rects(product: str, options: PrintOptions) -> list[Rect]:
    """Return where the product's fronts and backs are cut on a sheet, page millimetres."""
    sheet = options.sheet_for(deck(product))
    return [placement.trim for placement in (*sheet.fronts, *sheet.backs_)]


@pytest.mark.parametrize(("product", "card"), [
    *((slug, "poker") for slug in ALL if slug != "regles"),
    *((slug, "tarot") for slug in CARD_DECKS),
])
def test_it_keeps_every_letter_three_millimetres_inside_the_cut(demo, print_pdf, product, card):
    options = PrintOptions(card=card, bleed=3)
    pdf = pdfium.PdfDocument(str(print_for_reading(demo, print_pdf, product, card=card,
                                                   bleed=3)))
    faces = face_rects(product, options)
    outside = []
    for page in range(len(pdf)):
        for char, _size, box in printed_chars(pdf, page):
            centre = Rect(box.x + box.w / 2, box.y + box.h / 2, 0, 0)
            face = next((f for f in faces if f.contains(centre)), None)
            # Letters on no face are the sheet's own label, in its margin.
            if face is not None and not face.inset(3.0).contains(box, tolerance=0.05):
                outside.append((page, char))
    assert not outside


def test_it_gives_a_title_too_long_for_one_line_a_taller_band_inside_the_safe_zone(db,
                                                                                   print_pdf):
    title = "Les grands fleuves et les rivières navigables d’Europe de l’Ouest"
    first, _second = make_duel_pair(status=Status.PUBLISHED, title=title)
    pdf = pdfium.PdfDocument(str(print_pdf(GAME, "duels", refs=[first.ref])))
    front = PrintOptions().sheet_for(deck("duels")).front(0).trim
    header = text_in(pdf, 0, (front.x, front.top - 15, front.w, 15))
    assert title in flat(header)
    assert len(header.splitlines()) == 2
    # A glyph's ink may overhang where its text starts by a fraction of a millimetre (the
    # J of a question starting « Jarnac… »): the text itself starts 3 mm inside.
    outside = [(char, box) for char, _size, box in printed_chars(pdf, 0)
               if front.contains(box) and not front.inset(3.0).contains(box, tolerance=0.25)]
    assert outside == []


# --- the mystery pictures ------------------------------------------------------------------


def etoile_with_picture(settings, size: tuple[int, int] | None) -> Card:
    """A published étoile fiche whose picture is `size` pixels; None: its file is gone."""
    name = "questions/etoile-test.png"
    if size is not None:
        path = settings.MEDIA_ROOT / name
        path.parent.mkdir(parents=True, exist_ok=True)
        Image.new("RGB", size, (74, 144, 226)).save(path)
    question = make_question("etoile-mysterieuse", status=Status.PUBLISHED, image=name,
                             answer="La tour Eiffel")
    return make_card("etoile-mysterieuse", status=Status.PUBLISHED, questions=[question])


def test_it_prints_the_demo_pictures_at_200_dpi_at_least(demo, print_pdf):
    demo(GAME)
    pdf = pdfium.PdfDocument(str(print_pdf(GAME, "etoiles")))
    seen = 0
    for page in range(len(pdf)):
        for picture in pdf[page].get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE]):
            pixels_w, _pixels_h = picture.get_px_size()
            left, _bottom, right, _top = picture.get_bounds()
            assert pixels_w / ((right - left) / 72) >= 200
            seen += 1
    assert seen == Card.objects.filter(kind="etoile-mysterieuse").count()


def test_it_refuses_a_picture_under_200_dpi_and_says_how_large_it_must_be(db, settings,
                                                                          print_pdf):
    card = etoile_with_picture(settings, (400, 300))
    with pytest.raises(PrintRefused) as refused:
        print_pdf(GAME, "etoiles", refs=[card.ref])
    [problem] = [p for p in refused.value.problems if p.code == "image_low_resolution"]
    assert problem.target == card
    message = flat(problem.message)
    # Drawn 110 × 82.5 mm, it needs 867 × 650 pixels.
    assert "400 × 300 px" in message
    assert "867 × 650" in message


def test_it_shows_a_picture_under_200_dpi_among_the_fiches_problems(db, settings):
    card = etoile_with_picture(settings, (400, 300))
    report = check_game(load_game(GAME))
    assert "image_low_resolution" in {p.code for p in report.about(card) if p.is_error}


def test_it_prints_a_picture_of_200_dpi(db, settings, print_pdf):
    card = etoile_with_picture(settings, (867, 867))
    pdf = pdfium.PdfDocument(str(print_pdf(GAME, "etoiles", refs=[card.ref])))
    assert len(list(pdf[0].get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE]))) == 1


def test_it_refuses_a_fiche_whose_picture_file_is_gone_and_names_it(db, settings, print_pdf):
    card = etoile_with_picture(settings, None)
    with pytest.raises(PrintRefused) as refused:
        print_pdf(GAME, "etoiles", refs=[card.ref])
    [problem] = [p for p in refused.value.problems if p.code == "image_file_missing"]
    assert problem.target == card
    assert "etoile-test.png" in problem.message


# --- the fiche cache -----------------------------------------------------------------------


def test_it_prints_the_fiche_cache_at_the_size_of_the_fiches(print_pdf):
    pdf = pdfium.PdfDocument(str(print_pdf(GAME, "fiche-cache")))
    front = PrintOptions().sheet_for(deck("fiche-cache")).front(0).trim
    assert deck("fiche-cache").size == dc.FICHE_SIZE
    text = flat(text_in(pdf, 0, (front.x, front.y, front.w, front.h)))
    assert "Fiche cache" in text
    assert "Retirez délicatement la fiche cache" in text


def luminance(colour: str) -> float:
    red, green, blue = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * red + 0.587 * green + 0.114 * blue


@pytest.mark.parametrize("side", ["front", "back"])
def test_it_prints_the_fiche_cache_dark_around_its_instructions(print_pdf, side):
    pdf = pdfium.PdfDocument(str(print_pdf(GAME, "fiche-cache")))
    sheet = PrintOptions().sheet_for(deck("fiche-cache"))
    page, placement = (0, sheet.front(0)) if side == "front" else (1, sheet.back(0))
    w, h = dc.FICHE_SIZE
    # Above and under its instructions, where a fiche's questions and answers lie under it.
    spots = [placement.matrix(w * u, h * v) for u in (0.1, 0.5, 0.9) for v in (0.05, 0.1, 0.9)]
    assert all(luminance(colour) < 120 for colour in colours_at(pdf, page, spots))


# --- the duel's back -----------------------------------------------------------------------


def test_it_keeps_a_duels_title_and_colour_inside_the_frame_of_its_back(db, print_pdf):
    first, _second = make_duel_pair(status=Status.PUBLISHED, title="Les volcans",
                                    colour="violet")
    pdf = pdfium.PdfDocument(str(print_pdf(GAME, "duels", refs=[first.ref])))
    back = PrintOptions().sheet_for(deck("duels")).back(0)
    w, h = PrintOptions().face_size(deck("duels"))
    plate, *edges = colours_at(pdf, 1, [back.matrix(w / 2, h * 0.16),
                                        *(back.matrix(x, h * 0.3) for x in (1.5, w - 1.5))])
    # The plate of the pair's colour, under the title, within the frame.
    assert near(plate, DUEL_COLOURS["violet"])
    # The frame's edge at the same height: the game's red, no band running off the card.
    for edge in edges:
        assert near(edge, dc.COLOUR)
    title = boxes_of(pdf, 1, "Les volcans")
    frame = back.trim.inset(w * dc.BACK_FRAME)
    assert title and all(frame.contains(box) for box in title)


# --- for a person to look at ---------------------------------------------------------------


@pytest.mark.renders
@pytest.mark.parametrize("product", ALL)
def test_it_renders_each_products_first_pages_for_review(demo, print_pdf, product):
    if product in CONTENT:
        demo(GAME)
    path = print_pdf(GAME, product, bleed=3)
    pages = len(pdfium.PdfDocument(str(path)))
    for page in range(min(pages, 2)):
        save_png(path, page, f"douze-coups-{product}-{page}")
