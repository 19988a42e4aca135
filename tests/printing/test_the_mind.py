"""The Mind's printed cards: 100 numbers, 12 levels, 5 lives, 3 shurikens, one shared back."""

from __future__ import annotations

from functools import partial
from unittest.mock import MagicMock

import pypdfium2 as pdfium
import pytest
from reportlab.lib.units import mm

from printing.draw import CanvasPen
from printing.products.the_mind import (
    LEVEL_CARDS,
    LIFE_CARDS,
    NUMBER_CARDS,
    SHURIKEN_CARDS,
    NumberCard,
    colour_for,
    level_cards,
    needs_underline,
)
from printing.render import PrintOptions, face_issues
from printing.sheets import BACKS, CARD_SIZES, DECK_PAPERS, pages_needed
from printing.text import MIN_SIZE

from .conftest import flat, page_text, save_png, text_in
from .test_text import draw_face, draw_faces, outside, printed_chars, shifted

GAME = "the-mind"
DECKS = (NUMBER_CARDS, LEVEL_CARDS, LIFE_CARDS, SHURIKEN_CARDS)
ALL = tuple(deck.slug for deck in DECKS)


def open_pdf(path) -> pdfium.PdfDocument:
    return pdfium.PdfDocument(str(path))


def card_text(pdf, options: PrintOptions, deck, number: int) -> str:
    """Return the whole text of the front of the deck's card `number` (1-based), duplex."""
    sheet = options.sheet_for(deck)
    page, index = divmod(number - 1, sheet.per_page)
    trim = sheet.front(index).trim
    return flat(text_in(pdf, 2 * page, (trim.x, trim.y, trim.w, trim.h)))


def middle_text(pdf, options: PrintOptions, deck, number: int) -> str:
    """Return the text in the middle of a card's front, away from its corners."""
    sheet = options.sheet_for(deck)
    page, index = divmod(number - 1, sheet.per_page)
    trim = sheet.front(index).trim
    box = (trim.x + trim.w * 0.2, trim.y + trim.h * 0.35, trim.w * 0.6, trim.h * 0.3)
    return flat(text_in(pdf, 2 * page, box))


def faces_on_fronts(pdf, options: PrintOptions, deck) -> int:
    """Count the places on the front pages (duplex: every other page) that carry a card."""
    sheet = options.sheet_for(deck)
    count = 0
    for page in range(0, len(pdf), 2):
        for index in range(sheet.per_page):
            trim = sheet.front(index).trim
            if flat(text_in(pdf, page, (trim.x, trim.y, trim.w, trim.h))):
                count += 1
    return count


# --- the numbers --------------------------------------------------------------------------


def test_it_underlines_exactly_the_numbers_that_read_as_another_card_upside_down():
    underlined = [n for n in range(1, 101) if needs_underline(n)]

    assert underlined == [6, 9, 16, 18, 19, 61, 66, 68, 81, 86, 89, 91, 98, 99]


def draw_lines(value: int) -> int:
    canvas = MagicMock()
    NUMBER_CARDS.front(CanvasPen(canvas, *CARD_SIZES["poker"]), NumberCard(value))
    return canvas.line.call_count


def test_it_draws_a_line_under_the_big_number_and_both_corners_of_a_six():
    assert draw_lines(6) == 3


def test_it_draws_no_line_on_a_seven():
    assert draw_lines(7) == 0


def test_it_colours_the_low_cards_cool_and_the_high_cards_warm():
    def rgb(colour):
        return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))

    low, high = rgb(colour_for(1)), rgb(colour_for(100))

    assert low[2] > low[0]
    assert high[0] > high[2]


def test_it_gives_every_number_card_its_own_colour():
    assert len({colour_for(n) for n in range(1, 101)}) == 100


def test_it_prints_the_hundred_number_cards_on_two_sided_pages(print_pdf):
    options = PrintOptions()
    per_page = options.sheet_for(NUMBER_CARDS).per_page
    pdf = open_pdf(print_pdf(GAME, "nombres"))

    assert len(pdf) == 2 * pages_needed(100, per_page)
    assert faces_on_fronts(pdf, options, NUMBER_CARDS) == 100


def test_it_lays_the_number_cards_out_in_order_from_the_top_left_of_page_one(print_pdf):
    options = PrintOptions()
    pdf = open_pdf(print_pdf(GAME, "nombres"))

    found = [middle_text(pdf, options, NUMBER_CARDS, n) for n in range(1, 101)]

    assert found == [str(n) for n in range(1, 101)]


def test_it_repeats_the_number_in_the_top_left_and_bottom_right_corners(print_pdf):
    options = PrintOptions()
    sheet = options.sheet_for(NUMBER_CARDS)
    pdf = open_pdf(print_pdf(GAME, "nombres"))
    index = 99 % sheet.per_page
    page = 2 * (99 // sheet.per_page)
    trim = sheet.front(index).trim
    corner = (trim.w * 0.4, trim.h * 0.15)

    top_left = text_in(pdf, page, (trim.x, trim.top - corner[1], *corner))
    bottom_right = text_in(pdf, page, (trim.right - corner[0], trim.y, *corner))

    assert (flat(top_left), flat(bottom_right)) == ("100", "100")


def test_it_paints_a_number_card_to_the_edge_of_its_bleed(print_pdf):
    options = PrintOptions(bleed=3)
    sheet = options.sheet_for(NUMBER_CARDS)
    path = print_pdf(GAME, "nombres", bleed=3)
    image = open_pdf(path)[0].render(scale=2).to_pil().convert("RGB")
    trim = sheet.front(0).trim
    page_h = sheet.page_size[1]
    in_bleed = ((trim.x - 1.5) * mm * 2, (page_h - trim.y - trim.h / 2) * mm * 2)

    red, _, blue = image.getpixel(tuple(round(v) for v in in_bleed))

    assert blue > 150 and red < 120


# --- the backs ----------------------------------------------------------------------------


@pytest.mark.parametrize("backs", ["long", "short"])
def test_it_prints_the_game_back_behind_every_card_and_nowhere_else(print_pdf, backs):
    options = PrintOptions(backs=backs)
    sheet = options.sheet_for(NUMBER_CARDS)
    pdf = open_pdf(print_pdf(GAME, "nombres", backs=backs))
    last_back_page = len(pdf) - 1
    on_last_page = 100 - (len(pdf) // 2 - 1) * sheet.per_page

    found = []
    for index in range(sheet.per_page):
        trim = sheet.back(index).trim
        found.append(flat(text_in(pdf, last_back_page, (trim.x, trim.y, trim.w, trim.h))))

    expected = ["The Mind"] * on_last_page + [""] * (sheet.per_page - on_last_page)
    assert found == expected


def test_it_prints_the_backs_on_pages_of_their_own_when_asked(print_pdf):
    options = PrintOptions(backs="separate")
    per_page = options.sheet_for(LIFE_CARDS).per_page
    pdf = open_pdf(print_pdf(GAME, "vies", backs="separate"))

    assert len(pdf) == 2 * pages_needed(5, per_page)
    assert "The Mind" in flat(text_in(pdf, len(pdf) - 1, (0, 0, 300, 300)))


# --- the levels ---------------------------------------------------------------------------


def test_it_prints_the_twelve_levels_in_order(print_pdf):
    options = PrintOptions()
    pdf = open_pdf(print_pdf(GAME, "niveaux"))

    titles = [card_text(pdf, options, LEVEL_CARDS, n).split(" ")[:2] for n in range(1, 13)]

    assert titles == [["Niveau", str(n)] for n in range(1, 13)]
    assert faces_on_fronts(pdf, options, LEVEL_CARDS) == 12


def test_it_tells_how_many_cards_each_player_gets_at_a_level(print_pdf):
    options = PrintOptions()
    pdf = open_pdf(print_pdf(GAME, "niveaux"))

    assert "1 carte par joueur" in card_text(pdf, options, LEVEL_CARDS, 1)
    assert "7 cartes par joueur" in card_text(pdf, options, LEVEL_CARDS, 7)


def test_it_shows_the_reward_on_the_levels_that_earn_one(print_pdf):
    options = PrintOptions()
    pdf = open_pdf(print_pdf(GAME, "niveaux"))
    expected = {2: "1 shuriken", 3: "1 vie", 5: "1 shuriken", 6: "1 vie", 8: "1 shuriken",
                9: "1 vie"}

    found = {}
    for level in range(1, 13):
        text = card_text(pdf, options, LEVEL_CARDS, level)
        if "Récompense" in text:
            found[level] = text.split("Récompense : ")[1].split(" Pour")[0]

    assert found == expected


def test_it_tells_which_tables_play_each_level(print_pdf):
    options = PrintOptions()
    pdf = open_pdf(print_pdf(GAME, "niveaux"))

    def text(level):
        return card_text(pdf, options, LEVEL_CARDS, level)

    assert "Pour 2, 3 ou 4 joueurs" in text(8)
    assert "Pour 2 ou 3 joueurs" in text(9)
    assert "Pour 2 joueurs" in text(11)


def test_it_marks_the_last_level_of_each_table(print_pdf):
    options = PrintOptions()
    pdf = open_pdf(print_pdf(GAME, "niveaux"))

    last = {level: "Dernier niveau" in card_text(pdf, options, LEVEL_CARDS, level)
            for level in range(1, 13)}

    assert [level for level, marked in last.items() if marked] == [8, 10, 12]
    assert "Dernier niveau à 4 joueurs" in card_text(pdf, options, LEVEL_CARDS, 8)
    assert "Dernier niveau à 2 joueurs" in card_text(pdf, options, LEVEL_CARDS, 12)


# --- lives and shurikens ------------------------------------------------------------------


def test_it_prints_five_life_cards(print_pdf):
    options = PrintOptions()
    pdf = open_pdf(print_pdf(GAME, "vies"))

    names = [card_text(pdf, options, LIFE_CARDS, n) for n in range(1, 6)]

    assert names == ["Vie"] * 5
    assert faces_on_fronts(pdf, options, LIFE_CARDS) == 5


def test_it_prints_three_shuriken_cards(print_pdf):
    options = PrintOptions()
    pdf = open_pdf(print_pdf(GAME, "shurikens"))

    names = [card_text(pdf, options, SHURIKEN_CARDS, n) for n in range(1, 4)]

    assert names == ["Shuriken"] * 3
    assert faces_on_fronts(pdf, options, SHURIKEN_CARDS) == 3


# --- every size, paper and way of printing backs ------------------------------------------


@pytest.mark.parametrize("card", list(CARD_SIZES))
def test_it_fits_every_face_on_every_card_size(card):
    w, h = CARD_SIZES[card]

    issues = {deck.slug: [i for item in deck.items() for i in face_issues(deck, item, w, h)]
              for deck in DECKS}

    assert issues == {deck.slug: [] for deck in DECKS}


# Every back mode with every card size; the paper alternates, so every pair of options is
# printed at least once (tests/printing/test_sheets.py checks every sheet of every
# combination).
@pytest.mark.parametrize(("card", "backs", "paper"), [
    (card, backs, DECK_PAPERS[(i + j) % len(DECK_PAPERS)])
    for i, card in enumerate(CARD_SIZES)
    for j, backs in enumerate(BACKS)
])
def test_it_renders_every_deck(print_pdf, paper, card, backs):
    options = PrintOptions(paper=paper, card=card, backs=backs, bleed=3)
    sheet = options.sheet_for(NUMBER_CARDS)

    pdf = open_pdf(print_pdf(GAME, *ALL, paper=paper, card=card, backs=backs, bleed=3))
    words = " ".join(flat(page_text(pdf, p)) for p in range(len(pdf))).split()

    width, height = pdf[0].get_size()
    assert (round(width / mm), round(height / mm)) == tuple(round(v) for v in sheet.page_size)
    # The decks share one back, so they may share sheets: every card is somewhere.
    assert (words.count("Niveau"), words.count("Vie"), words.count("Shuriken")) == (12, 5, 3)
    assert all(words.count(str(n)) == 3 for n in range(13, 101))  # the middle and 2 corners


@pytest.mark.parametrize("bleed", [0, 1, 2, 3])
def test_it_renders_with_any_bleed(print_pdf, bleed):
    pdf = open_pdf(print_pdf(GAME, *ALL, bleed=bleed, backs="fold"))

    assert "Niveau 12" in flat(" ".join(flat(text_in(pdf, p, (0, 0, 300, 300)))
                                        for p in range(len(pdf))))


def first_page_with(pdf, word: str) -> int:
    return next(p for p in range(len(pdf)) if word in page_text(pdf, p).split())


@pytest.mark.renders
def test_it_saves_pictures_of_the_cards_to_look_at(print_pdf):
    path = print_pdf(GAME, *ALL, bleed=3)
    pdf = open_pdf(path)

    save_png(path, 0, "the-mind-nombres")
    save_png(path, 1, "the-mind-dos")
    save_png(path, first_page_with(pdf, "Niveau"), "the-mind-niveaux")
    save_png(path, first_page_with(pdf, "Vie"), "the-mind-vies")


# --- what a player can read: sizes and the safe zone, read back from the PDF ---------------

def every_face():
    """Yield (what it is, how to draw it) for every front of every deck and the back."""
    for deck in DECKS:
        for number, item in enumerate(deck.items(), start=1):
            yield f"{deck.slug} {number}", partial(deck.front, card=item)
    yield "dos", NUMBER_CARDS.back_form


@pytest.mark.parametrize("numbered", [False, True], ids=["plain", "numbered"])
@pytest.mark.parametrize("card", list(CARD_SIZES))
def test_every_text_is_readable_and_inside_the_safe_zone(tmp_path, card, numbered):
    # A numbered face keeps a strip at its foot for the identifier: the layout must follow
    # whatever safe zone the pen gives, not assume 3 mm.
    path = tmp_path / "faces.pdf"
    w, h = CARD_SIZES[card]
    names, draws = zip(*every_face(), strict=True)
    pens = draw_faces(path, w, h, draws, numbered=numbered)

    too_small, out_of_safe, blank = {}, {}, []
    for page, (name, pen) in enumerate(zip(names, pens, strict=True)):
        chars = printed_chars(path, page)
        if not chars:
            blank.append(name)
        small = sorted({round(c.size, 2) for c in chars if c.size < MIN_SIZE - 1e-6})
        if small:
            too_small[name] = small
        outside_safe = "".join(c.char for c in outside(chars, shifted(pen.safe, 3.0)))
        if outside_safe:
            out_of_safe[name] = outside_safe

    assert (too_small, out_of_safe, blank) == ({}, {}, [])


def test_it_keeps_one_and_the_reward_on_the_same_line_of_a_mini_card(tmp_path):
    path = tmp_path / "mini.pdf"
    draw_face(path, *CARD_SIZES["mini"], lambda pen: LEVEL_CARDS.front(pen, level_cards()[1]))
    chars = printed_chars(path)

    lines = {}
    for c in chars:
        lines.setdefault(round(c.bottom), []).append(c.char)
    words = ["".join(line) for line in lines.values()]

    assert "1shuriken" in words or any("1shuriken" in w for w in words)
    assert all(w != "1" for w in words)


@pytest.mark.parametrize("card", list(CARD_SIZES))
def test_it_draws_each_fronts_frame_two_millimetres_inside_the_cut(card):
    w, h = CARD_SIZES[card]
    canvas = MagicMock()

    NUMBER_CARDS.front(CanvasPen(canvas, w, h), NumberCard(42))

    x, y, width, height, _ = canvas.roundRect.call_args.args
    assert (x / mm, y / mm) == pytest.approx((2.0, 2.0))
    assert ((x + width) / mm, (y + height) / mm) == pytest.approx((w - 2.0, h - 2.0))


def test_it_writes_a_level_card_in_the_order_it_is_read(tmp_path):
    # Text extraction, copy and paste and screen readers follow the order text is written.
    path = tmp_path / "level.pdf"
    draw_face(path, *CARD_SIZES["poker"], lambda pen: LEVEL_CARDS.front(pen, level_cards()[7]))

    assert flat(page_text(open_pdf(path), 0)) == (
        "Niveau 8 8 cartes par joueur Récompense : 1 shuriken Pour 2, 3 ou 4 joueurs "
        "Dernier niveau à 4 joueurs")
