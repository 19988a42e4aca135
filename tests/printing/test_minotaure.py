"""Le jeu du Minotaure: the labyrinth's geometry, and the board, cards and chart on paper."""

from __future__ import annotations

import math
from dataclasses import replace
from itertools import pairwise

import pypdfium2 as pdfium
import pytest

from cms.games.labyrinth import (
    Arc,
    Ring,
    Segment,
    angular_distance,
    arc_points,
    build_labyrinth,
    chord,
    standard_labyrinth,
)
from cms.games.minotaure import COLOURS, SPEC
from cms.games.spec import SpecError
from printing.draw import MeasurePen
from printing.products import PRODUCTS
from printing.products.minotaure import (
    ARIANE,
    THESEE,
    THESEE_VARIANT,
    ariane_front,
    board_size,
    colour_label,
    thesee_cards,
    thesee_front,
    thesee_variant_front,
)
from printing.products.minotaure import PRODUCTS as OURS
from printing.render import PrintOptions
from printing.sheets import BACKS, CARD_SIZES, PAPERS, TileSpec

from .conftest import flat, page_text, save_png, text_in
from .test_millionnaire import (
    READABLE,
    SAFE,
    glyphs,
    glyphs_on,
    printed_pages,
    smallest_glyph,
)

GAME = "minotaure"
PAPERS_OF_MAKERS = ("a4", "letter")
POINTS_PER_MM = 72 / 25.4


@pytest.fixture(scope="module")
def lab():
    return standard_labyrinth()


def open_pdf(path) -> pdfium.PdfDocument:
    return pdfium.PdfDocument(str(path))


def page_size_mm(pdf, page: int) -> tuple[float, float]:
    w, h = pdf[page].get_size()
    return round(w / POINTS_PER_MM, 1), round(h / POINTS_PER_MM, 1)


# --- the labyrinth --------------------------------------------------------------------------


def test_it_builds_the_same_labyrinth_every_time(lab):
    assert build_labyrinth() == build_labyrinth() == lab


def test_it_builds_another_labyrinth_from_another_seed(lab):
    assert build_labyrinth(seed=lab.seed + 1).radials != lab.radials


def test_it_leaves_every_corridor_wider_than_the_widest_marble(lab):
    widest = max(lab.marble_diameter, lab.minotaur_diameter)
    for inner, outer in lab.corridors:
        assert outer - inner - lab.wall_thickness > widest


def test_it_leaves_every_doorway_wider_than_the_widest_marble(lab):
    widest = max(lab.marble_diameter, lab.minotaur_diameter)
    for ring in lab.rings:
        for opening in ring.openings:
            assert chord(ring.radius, opening.sweep) - lab.wall_thickness > widest


def test_it_keeps_radial_walls_a_marble_away_from_every_doorway(lab):
    widest = max(lab.marble_diameter, lab.minotaur_diameter)
    rings = {ring.radius: ring for ring in lab.rings}
    for radial in lab.radials:
        for radius in (radial.inner, radial.outer):
            for opening in rings[radius].openings:
                nearest = min(angular_distance(radial.angle, opening.start),
                              angular_distance(radial.angle, opening.end))
                assert not opening.covers(radial.angle)
                assert chord(radius, nearest) - lab.wall_thickness > widest


def test_it_keeps_every_wall_within_the_board(lab):
    half = lab.wall_thickness / 2
    for wall in lab.walls():
        if isinstance(wall, Arc):
            assert math.hypot(wall.cx, wall.cy) + wall.radius + half <= lab.board_radius
        else:
            for x, y in ((wall.x1, wall.y1), (wall.x2, wall.y2)):
                assert math.hypot(x, y) + half <= lab.board_radius


def test_it_builds_concentric_rings_radial_walls_and_a_central_room(lab):
    assert len(lab.rings) >= 4
    assert len(lab.radials) >= len(lab.corridors)
    assert lab.room_radius == lab.rings[0].radius
    assert lab.doorways


def test_it_closes_the_outer_circle_and_opens_every_ring_inside_it(lab):
    assert lab.rings[-1].openings == ()
    assert all(ring.openings for ring in lab.rings[:-1])


def test_it_starts_every_prisoner_inside_the_central_room(lab):
    for start in lab.prisoner_starts:
        assert lab.in_room(start.x, start.y)
        assert math.hypot(start.x, start.y) + lab.marble_diameter / 2 <= lab.room_inner_radius


def test_it_starts_one_prisoner_of_each_colour_of_the_game(lab):
    assert [s.colour for s in lab.prisoner_starts] == list(COLOURS)
    assert len(lab.prisoner_starts) == SPEC.rules.prisoners


def test_it_starts_no_two_prisoners_on_top_of_each_other(lab):
    starts = lab.prisoner_starts
    for i, a in enumerate(starts):
        for b in starts[i + 1:]:
            assert math.hypot(a.x - b.x, a.y - b.y) >= lab.marble_diameter


def test_it_starts_the_minotaur_in_the_outer_corridor(lab):
    inner, outer = lab.corridors[-1]
    assert inner < lab.minotaur_start.radius < outer
    assert not lab.in_room(lab.minotaur_start.x, lab.minotaur_start.y)


def test_it_starts_the_minotaur_between_two_neighbouring_intersections_of_the_outer_circle(lab):
    angles = sorted(point.angle for point in lab.intersections)
    minotaur = lab.minotaur_start.angle
    before = max((a for a in angles if a < minotaur), default=angles[-1])
    after = min((a for a in angles if a > minotaur), default=angles[0])
    assert len(angles) >= 2
    # No intersection lies between the two the Minotaur sits between.
    assert all(not 0 < (a - before) % 360 < (after - before) % 360 for a in angles)
    for point in lab.intersections:
        assert math.hypot(point.x, point.y) == pytest.approx(lab.outer_radius)


def test_it_refuses_marbles_too_big_for_its_passages():
    with pytest.raises(SpecError):
        build_labyrinth(marble_diameter=40)


def test_it_refuses_a_wall_that_runs_off_the_board(lab):
    with pytest.raises(SpecError):
        replace(lab, board_radius=lab.outer_radius)


def test_it_refuses_a_central_room_without_a_doorway(lab):
    with pytest.raises(SpecError):
        replace(lab, rings=(Ring(lab.room_radius), *lab.rings[1:]))


def test_it_refuses_a_prisoner_outside_the_central_room(lab):
    far = replace(lab.prisoner_starts[0], x=lab.room_radius + 20, y=0.0)
    with pytest.raises(SpecError):
        replace(lab, prisoner_starts=(far, *lab.prisoner_starts[1:]))


def test_it_flattens_an_arc_into_points_no_further_apart_than_the_step():
    arc = Arc(0.0, 0.0, 100.0, 10.0, 100.0)
    points = arc_points(arc, 5.0)
    assert points[0].angle == pytest.approx(10.0)
    assert points[-1].angle == pytest.approx(100.0)
    for a, b in pairwise(points):
        assert math.hypot(a.x - b.x, a.y - b.y) <= 5.0
        assert math.hypot(a.x, a.y) == pytest.approx(100.0)


def test_it_gives_the_physics_straight_segments_for_every_wall(lab):
    segments = lab.segments(step_mm=5.0)
    assert all(isinstance(s, Segment) for s in segments)
    assert len(segments) > len(lab.walls())


# --- the tiled board ------------------------------------------------------------------------


@pytest.mark.parametrize("paper", PAPERS_OF_MAKERS)
def test_it_tiles_the_board_over_columns_times_rows_sheets(print_pdf, lab, paper):
    spec = TileSpec(paper, board_size(lab))
    path = print_pdf(GAME, "plateau", paper=paper)
    pdf = open_pdf(path)
    assert len(printed_pages(path)) == spec.columns * spec.rows > 1
    for page in range(len(pdf)):
        assert page_size_mm(pdf, page) == pytest.approx(PAPERS[paper], abs=0.2)


@pytest.mark.parametrize("paper", PAPERS_OF_MAKERS)
def test_it_labels_every_sheet_with_its_column_and_row_above_the_board(print_pdf, lab, paper):
    spec = TileSpec(paper, board_size(lab))
    path = print_pdf(GAME, "plateau", paper=paper)
    pdf = open_pdf(path)
    for page, tile in zip(printed_pages(path), spec.tiles(), strict=True):
        w, h = spec.page_size
        above = flat(text_in(pdf, page, (0, tile.area.top, w, h - tile.area.top)))
        name = f"{'ABCDEFGH'[tile.column]}{tile.row + 1}"
        assert f"Feuille {name} — colonne {tile.column + 1}, rangée {tile.row + 1}" in above


def test_it_prints_the_board_at_full_size_fifty_centimetres_across(lab):
    assert board_size(lab) == pytest.approx(500, abs=20)


def test_it_marks_a_glue_zone_on_every_sheet_but_the_last(print_pdf):
    path = print_pdf(GAME, "plateau", paper="a4")
    pdf = open_pdf(path)
    glued = ["coller ici" in flat(page_text(pdf, page)) for page in printed_pages(path)]
    assert glued[:-1] == [True] * (len(glued) - 1)
    assert glued[-1] is False


def test_it_tells_the_maker_to_print_the_sheets_at_full_size(print_pdf):
    pdf = open_pdf(print_pdf(GAME, "plateau", paper="letter"))
    assert "imprimer à 100 %" in flat(page_text(pdf, 0))


# --- the A3 board ---------------------------------------------------------------------------


@pytest.mark.parametrize("paper", PAPERS_OF_MAKERS)
def test_it_prints_the_a3_board_on_one_a3_page_whatever_the_makers_paper(print_pdf, paper):
    path = print_pdf(GAME, "plateau-a3", paper=paper)
    pdf = open_pdf(path)
    assert printed_pages(path) == [0]
    assert page_size_mm(pdf, 0) == pytest.approx((297.0, 420.0), abs=0.2)


def test_it_prints_the_scale_of_the_reduced_board(print_pdf, lab):
    pdf = open_pdf(print_pdf(GAME, "plateau-a3"))
    percent = round((297 - 20) / board_size(lab) * 100)
    assert f"Échelle {percent} % : plateau de" in flat(page_text(pdf, 0))


# --- the cards ------------------------------------------------------------------------------


@pytest.mark.parametrize("card", CARD_SIZES)
@pytest.mark.parametrize("slug", ["thesee", "ariane"])
def test_it_prints_ten_cards_of_each_deck_on_every_card_size(print_pdf, slug, card):
    result_pdf = open_pdf(print_pdf(GAME, slug, card=card))
    per_page = PrintOptions(card=card).sheet_for(PRODUCTS[GAME][slug]).per_page
    sheets = -(-10 // per_page)
    assert len(result_pdf) == 2 * sheets  # fronts and their shared backs


@pytest.mark.parametrize("card", CARD_SIZES)
def test_it_fits_every_card_face_on_every_card_size(card):
    w, h = CARD_SIZES[card]
    pen = MeasurePen(w, h)
    for item in thesee_cards():
        thesee_front(pen, item)
    ariane_front(pen, 1)
    assert pen.issues == []


def test_it_names_each_thesee_card_after_the_colour_it_shows(print_pdf):
    pdf = open_pdf(print_pdf(GAME, "thesee"))
    sheet = PrintOptions().sheet_for(THESEE)
    for index, card in enumerate(thesee_cards()):
        page, slot = divmod(index, sheet.per_page)
        trim = sheet.front(slot).trim
        words = flat(text_in(pdf, 2 * page, (trim.x, trim.y, trim.w, trim.h)))
        assert f"Thésée — {colour_label(card.name)}" in words


def test_it_prints_one_thesee_card_per_colour_of_the_game():
    assert [card.hex for card in thesee_cards()] == list(COLOURS.values())


def test_it_reminds_the_ariane_rule_on_every_ariane_card(print_pdf):
    pdf = open_pdf(print_pdf(GAME, "ariane"))
    sheet = PrintOptions().sheet_for(ARIANE)
    for index in range(SPEC.rules.ariane_cards):
        page, slot = divmod(index, sheet.per_page)
        trim = sheet.front(slot).trim
        words = flat(text_in(pdf, 2 * page, (trim.x, trim.y, trim.w, trim.h)))
        assert "défaussez-la : une pichenette de plus" in words
        assert "sauf le Minotaure" in words
        assert "Qui élimine un joueur qui a encore la sienne la lui prend" in words


def test_it_prints_the_deck_name_behind_every_card(print_pdf):
    pdf = open_pdf(print_pdf(GAME, "ariane"))
    sheet = PrintOptions().sheet_for(ARIANE)
    trim = sheet.back(0).trim
    assert "Ariane" in flat(text_in(pdf, 1, (trim.x, trim.y, trim.w, trim.h)))


@pytest.mark.parametrize("backs", BACKS)
@pytest.mark.parametrize("bleed", [0, 3])
def test_it_renders_both_decks_with_any_backs_and_bleed(print_pdf, backs, bleed):
    path = print_pdf(GAME, "thesee", "ariane", backs=backs, bleed=bleed, paper="letter")
    assert len(open_pdf(path)) >= 2


# --- the colour chart -----------------------------------------------------------------------


@pytest.mark.parametrize("paper", PAPERS_OF_MAKERS)
def test_it_names_all_ten_colours_on_the_chart(print_pdf, paper):
    path = print_pdf(GAME, "couleurs", paper=paper)
    pdf = open_pdf(path)
    words = flat(page_text(pdf, 0))
    assert printed_pages(path) == [0]
    for name in COLOURS:
        assert colour_label(name) in words


# --- everything at once ---------------------------------------------------------------------


@pytest.mark.parametrize("paper", PAPERS_OF_MAKERS)
def test_it_prints_every_product_of_the_game_in_one_pdf(print_pdf, paper):
    pdf = open_pdf(print_pdf(GAME, paper=paper))
    assert len(pdf) > TileSpec(paper, board_size(standard_labyrinth())).columns


@pytest.mark.renders
def test_it_saves_pictures_of_the_board_cards_and_chart_to_look_at(print_pdf):
    renders = [
        (print_pdf(GAME, "plateau", paper="a4"), 1, "minotaure-plateau-b1"),
        (print_pdf(GAME, "plateau-a3"), 0, "minotaure-plateau-a3"),
        (print_pdf(GAME, "thesee"), 0, "minotaure-thesee"),
        (print_pdf(GAME, "ariane", card="mini"), 0, "minotaure-ariane-mini"),
        (print_pdf(GAME, "variante-thesee"), 0, "minotaure-variante-thesee"),
        (print_pdf(GAME, "couleurs"), 0, "minotaure-couleurs"),
    ]
    for path, nth, name in renders:
        page = printed_pages(path)[nth]
        save_png(path, page, name, scale=1.0)


# --- the Thésée marble variant -------------------------------------------------------------


def face_words(pdf, page: int, trim) -> str:
    return flat(text_in(pdf, page, (trim.x, trim.y, trim.w, trim.h)))


def test_it_prints_the_thesee_variant_among_the_games_products():
    assert THESEE_VARIANT in OURS
    assert PRODUCTS[GAME]["variante-thesee"] is THESEE_VARIANT


def test_it_sums_up_the_thesee_variant_on_its_card(print_pdf):
    sheet = PrintOptions().sheet_for(THESEE_VARIANT)

    pdf = open_pdf(print_pdf(GAME, "variante-thesee"))

    words = face_words(pdf, 0, sheet.front(0).trim)
    assert "Variante Thésée" in words
    assert "la bille Thésée part avec les prisonniers, dans la salle centrale" in words
    assert "Thésée touche le Minotaure : il est éliminé" in words
    assert "Le joueur qui a joué ce coup gagne, quel que soit le nombre de prisonniers" in words


def test_it_names_the_thesee_variant_behind_its_card(print_pdf):
    sheet = PrintOptions().sheet_for(THESEE_VARIANT)

    pdf = open_pdf(print_pdf(GAME, "variante-thesee"))

    assert "Variante Thésée" in face_words(pdf, 1, sheet.back(0).trim)


@pytest.mark.parametrize("card", CARD_SIZES)
def test_it_fits_the_thesee_variant_card_on_every_card_size(card):
    pen = MeasurePen(*CARD_SIZES[card])
    thesee_variant_front(pen, 1)
    assert pen.issues == []


def test_it_shows_which_marble_plays_thesee_on_the_colour_chart(print_pdf, lab):
    words = flat(page_text(open_pdf(print_pdf(GAME, "couleurs")), 0))

    assert "Variante Thésée : une bille de plus" in words
    assert "d’une couleur qu’aucun prisonnier n’a" in words
    assert f"de {lab.marble_diameter:g} mm" in words


# --- what a person can read: text size and the cut ---------------------------------------


DECKS = ("thesee", "ariane", "variante-thesee")  # printed at the maker's card size
SHEETS = ("plateau", "plateau-a3", "couleurs")  # printed on the maker's paper
SIZES_AND_PAPERS = ([(slug, {"card": card}) for slug in DECKS for card in CARD_SIZES]
                    + [(slug, {"paper": paper}) for slug in SHEETS for paper in PAPERS_OF_MAKERS])


def test_it_checks_the_size_of_the_text_of_every_product():
    assert {*DECKS, *SHEETS} == {product.slug for product in OURS}


@pytest.mark.parametrize(("slug", "options"), SIZES_AND_PAPERS)
def test_it_prints_no_text_smaller_than_6_5_points(print_pdf, slug, options):
    smallest = smallest_glyph(print_pdf(GAME, slug, **options))

    assert smallest is not None
    assert smallest.size >= READABLE - 0.01, (
        f"{smallest.char!r} at {smallest.size:.2f} pt, {smallest.box}")


@pytest.mark.parametrize("card", CARD_SIZES)
@pytest.mark.parametrize("deck", [THESEE, ARIANE, THESEE_VARIANT], ids=lambda deck: deck.slug)
def test_it_keeps_every_cards_text_3_mm_inside_its_cut(print_pdf, deck, card):
    sheet = PrintOptions(card=card).sheet_for(deck)
    count = len(list(deck.items()))

    pdf = open_pdf(print_pdf(GAME, deck.slug, card=card))
    printed = [glyphs(pdf, page) for page in range(len(pdf))]

    for index in range(count):
        sheet_index, slot = divmod(index, sheet.per_page)
        for page, placement in ((2 * sheet_index, sheet.front), (2 * sheet_index + 1,
                                                                  sheet.back)):
            trim = placement(slot).trim
            on_card = glyphs_on(printed[page], trim)
            assert on_card
            for glyph in on_card:
                assert trim.inset(SAFE).contains(glyph.box, tolerance=0.05), (
                    f"{glyph.char!r} of card {index + 1} at {glyph.box}, cut {trim}")
