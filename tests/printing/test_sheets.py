"""Sheet geometry: grids that fit the paper, backs exactly behind fronts, marks outside."""

import itertools

import pytest

from printing.sheets import (
    BACKS,
    CARD_SIZES,
    DECK_PAPERS,
    MIN_MARGIN,
    Rect,
    SheetError,
    SheetSpec,
    TileSpec,
    paper_size,
)

ALL_LAYOUTS = list(itertools.product(DECK_PAPERS, CARD_SIZES, (0.0, 1.5, 3.0), BACKS))


def test_nine_poker_cards_fit_a_portrait_a4_sheet():
    sheet = SheetSpec("a4", *CARD_SIZES["poker"])
    assert (sheet.columns, sheet.rows, sheet.is_landscape) == (3, 3, False)


def test_nine_poker_cards_fit_a_portrait_letter_sheet():
    sheet = SheetSpec("letter", *CARD_SIZES["poker"])
    assert sheet.page_size == (215.9, 279.4)
    assert sheet.per_page == 9


def test_mini_cards_turn_the_page_when_more_fit_in_landscape():
    sheet = SheetSpec("a4", *CARD_SIZES["mini"])
    assert sheet.is_landscape
    assert sheet.per_page == 18


@pytest.mark.parametrize("paper,card,bleed,backs", ALL_LAYOUTS)
def test_every_face_and_its_bleed_stay_inside_the_margins_without_overlapping(
        paper, card, bleed, backs):
    sheet = SheetSpec(paper, *CARD_SIZES[card], bleed=bleed, backs=backs)
    page = Rect(0, 0, *sheet.page_size).inset(MIN_MARGIN)
    faces = [sheet.front(i).bleed for i in range(sheet.per_page)]
    faces += [sheet.back(i).bleed for i in range(sheet.per_page)] if backs == "fold" else []
    for face in faces:
        assert page.contains(face)
    for a, b in itertools.combinations(faces, 2):
        assert not a.overlaps(b)


@pytest.mark.parametrize("paper,card", list(itertools.product(DECK_PAPERS, CARD_SIZES)))
def test_a_long_edge_back_is_the_front_mirrored_left_to_right(paper, card):
    sheet = SheetSpec(paper, *CARD_SIZES[card], backs="long")
    page_w, _h = sheet.page_size
    for i in range(sheet.per_page):
        front, back = sheet.front(i).trim, sheet.back(i).trim
        assert back.x == pytest.approx(page_w - front.right)
        assert back.y == pytest.approx(front.y)
        assert sheet.back(i).rotation == 0


@pytest.mark.parametrize("paper,card", list(itertools.product(DECK_PAPERS, CARD_SIZES)))
def test_a_short_edge_back_is_the_front_mirrored_top_to_bottom(paper, card):
    sheet = SheetSpec(paper, *CARD_SIZES[card], backs="short")
    _w, page_h = sheet.page_size
    for i in range(sheet.per_page):
        front, back = sheet.front(i).trim, sheet.back(i).trim
        assert back.x == pytest.approx(front.x)
        assert back.y == pytest.approx(page_h - front.top)


def test_separate_backs_move_by_the_makers_offset():
    plain = SheetSpec("a4", 63, 88, backs="separate")
    shifted = SheetSpec("a4", 63, 88, backs="separate", offset_x=1.5, offset_y=-2)
    assert shifted.back(0).trim == plain.back(0).trim.moved(1.5, -2)


def test_an_offset_only_moves_separate_backs():
    assert SheetSpec("a4", 63, 88, offset_x=2).back(0) == SheetSpec("a4", 63, 88).back(0)


def test_a_fold_sheet_mirrors_each_back_across_the_fold_line():
    sheet = SheetSpec("a4", 63, 88, backs="fold")
    x1, _y1, x2, _y2 = sheet.fold_line
    assert x1 == x2  # a vertical fold on a landscape page
    for i in range(sheet.per_page):
        front, back = sheet.front(i).trim, sheet.back(i).trim
        assert front.right <= x1 <= back.x
        assert (front.x + back.right) / 2 == pytest.approx(x1)
        assert back.y == pytest.approx(front.y)


def test_a_horizontal_fold_turns_the_backs_upside_down():
    sheet = SheetSpec("a4", 70, 120, backs="fold")
    _x1, y1, _x2, y2 = sheet.fold_line
    assert y1 == y2
    assert sheet.back(0).rotation == 180
    assert (sheet.front(0).trim.top + sheet.back(0).trim.y) / 2 == pytest.approx(y1)


@pytest.mark.parametrize("paper,card,bleed,backs", ALL_LAYOUTS)
def test_crop_marks_sit_on_the_cut_lines_and_never_over_a_face(paper, card, bleed, backs):
    sheet = SheetSpec(paper, *CARD_SIZES[card], bleed=bleed, backs=backs)
    faces = [sheet.front(i).bleed for i in range(sheet.per_page)]
    xs = {round(v, 4) for i in range(sheet.per_page)
          for v in (sheet.front(i).trim.x, sheet.front(i).trim.right)}
    marks = sheet.crop_marks()
    assert marks
    for mark in marks:
        if mark.x1 == mark.x2:
            assert round(mark.x1, 4) in xs
        segment = Rect(min(mark.x1, mark.x2), min(mark.y1, mark.y2),
                       abs(mark.x2 - mark.x1) or 1e-3, abs(mark.y2 - mark.y1) or 1e-3)
        assert not any(face.overlaps(segment) for face in faces)


def test_a_bleed_puts_twice_its_width_between_cards():
    sheet = SheetSpec("a4", 63, 88, bleed=2)
    assert sheet.front(1).trim.x - sheet.front(0).trim.right == pytest.approx(4)


@pytest.mark.parametrize("kwargs,message", [
    ({"bleed": 4}, "fond perdu"),
    ({"bleed": -1}, "fond perdu"),
    ({"backs": "both"}, "dos"),
    ({"paper": "a5"}, "Papier"),
    ({"face_w": 300, "face_h": 400}, "ne tient pas"),
    ({"offset_x": 11}, "décalage"),
])
def test_impossible_geometry_is_refused_when_the_spec_is_built(kwargs, message):
    with pytest.raises(SheetError, match=message):
        SheetSpec(**kwargs)


def test_the_a3_board_paper_is_a3():
    assert paper_size("a3") == (297.0, 420.0)


@pytest.mark.parametrize("paper", DECK_PAPERS)
def test_tiles_cover_the_whole_board_with_overlap(paper):
    spec = TileSpec(paper, 500)
    tiles = spec.tiles()
    assert len(tiles) == spec.columns * spec.rows > 1
    # Every point of the board is on some tile; neighbours share the overlap.
    for x in range(0, 500, 7):
        for y in range(0, 500, 7):
            assert any(t.window.x <= x <= t.window.right and t.window.y <= y <= t.window.top
                       for t in tiles)
    page = Rect(0, 0, *spec.page_size).inset(MIN_MARGIN)
    assert all(page.contains(t.area) for t in tiles)
    assert all(t.area.w == pytest.approx(t.window.w) and t.area.h == pytest.approx(t.window.h)
               for t in tiles)


def test_a_board_smaller_than_the_page_is_one_tile():
    assert len(TileSpec("a4", 150).tiles()) == 1
