"""Sheet geometry, checked against a model of the paper: where a back lands is computed
here from the sheet and the way it is turned over, never from `printing/sheets.py`."""

import itertools

import pytest

from printing.sheets import (
    BACKS,
    CARD_SIZES,
    DECK_PAPERS,
    PAPERS,
    Rect,
    SheetError,
    SheetSpec,
    TileSpec,
)

EDGE = 4.0  # mm a home printer leaves unprinted: nothing of ours goes there
FIXED_SIZES = {"fiche": (128.0, 190.0), "billet": (120.0, 60.0), "compet": (120.0, 180.0),
               "defi": (95.0, 128.0), "etoile": (80.0, 80.0), "jeton": (30.0, 30.0)}
SIZES = {**CARD_SIZES, **FIXED_SIZES}
OFFSETS = ((0.0, 0.0), (1.5, -2.0))
LAYOUTS = [(paper, size, bleed, backs, offset)
           for paper, size, bleed, backs, offset in itertools.product(
               DECK_PAPERS, SIZES, (0.0, 1.5, 3.0), BACKS, OFFSETS)]


def spec(paper, size, bleed=0.0, backs="long", offset=(0.0, 0.0), **kwargs):
    try:
        return SheetSpec(paper, *SIZES[size], bleed=bleed, backs=backs, offset_x=offset[0],
                         offset_y=offset[1], **kwargs)
    except SheetError:
        return None


def where_it_lands(backs, paper, point, offset):
    """Return the point of the recto that a point drawn on the verso lies behind.

    The model of a home printer: a portrait sheet turned over around its long (vertical)
    edge, or its short (horizontal) one; "separate" stacks are turned by hand around the
    long edge; a gutterfold page is folded along its horizontal middle. The offsets moved
    the verso's drawing; undo them first.
    """
    w, h = PAPERS[paper]
    x, y = point[0] - offset[0], point[1] - offset[1]
    if backs in ("long", "separate"):
        return (w - x, y)
    return (x, h - y)


FITTING = [layout for layout in LAYOUTS if spec(*layout) is not None]


def on_page(placement, u, v):
    return placement.matrix(u, v)


def test_every_size_fits_every_paper_in_every_mode_without_bleed_or_offset():
    missing = [layout for layout in LAYOUTS
               if layout[2] == 0 and layout[4] == (0, 0) and layout not in FITTING]
    assert missing == []


@pytest.mark.parametrize("paper,size,bleed,backs,offset", FITTING)
def test_every_point_of_a_back_lies_behind_the_same_point_of_its_front(
        paper, size, bleed, backs, offset):
    sheet = spec(paper, size, bleed, backs, offset)
    w, h = SIZES[size]
    for index in range(sheet.per_page):
        front, back = sheet.front(index), sheet.back(index)
        # A card turned over like a book page: its back's left is behind its front's right.
        for u, v in ((0, 0), (w, 0), (0, h), (w / 3, h * 0.8)):
            recto = on_page(front, u, v)
            verso = on_page(back, w - u, v)
            assert where_it_lands(backs, paper, verso, offset) == pytest.approx(recto, abs=1e-6)


@pytest.mark.parametrize("paper,size,bleed,backs,offset", FITTING)
def test_faces_bleeds_marks_and_label_stay_apart_and_on_the_printable_area(
        paper, size, bleed, backs, offset):
    sheet = spec(paper, size, bleed, backs, offset)
    page_w, page_h = sheet.page_size
    assert page_w < page_h, "pages of cards are portrait: the printer never turns them"
    printable = Rect(EDGE, EDGE, page_w - 2 * EDGE, page_h - 2 * EDGE)
    for backs_side in (False, True):
        faces = [p.bleed for p in sheet.placed(sheet.per_page, backs=backs_side)]
        for face in faces:
            assert printable.contains(face)
            assert not face.overlaps(sheet.label_box)
        for a, b in itertools.combinations(faces, 2):
            assert not a.overlaps(b)
        for mark in sheet.crop_marks(backs=backs_side):
            line = Rect(min(mark.x1, mark.x2), min(mark.y1, mark.y2), abs(mark.x2 - mark.x1),
                        abs(mark.y2 - mark.y1))
            assert printable.contains(line)
            assert not any(line.overlaps(face) for face in faces)
            assert not line.overlaps(sheet.label_box)
    assert printable.contains(sheet.label_box)


@pytest.mark.parametrize("paper,size", list(itertools.product(DECK_PAPERS, SIZES)))
def test_neighbouring_cards_have_the_gutter_of_white_paper_between_their_bleeds(paper, size):
    for bleed, gutter in ((0.0, 2.0), (3.0, 2.0), (1.0, 5.0)):
        sheet = spec(paper, size, bleed, gutter=gutter)
        if sheet is None:
            continue
        faces = [p.bleed for p in sheet.fronts]
        for a, b in itertools.combinations(faces, 2):
            apart = max(b.x - a.right, a.x - b.right, b.y - a.top, a.y - b.top)
            assert apart >= gutter - 1e-6


def test_nine_poker_cards_fit_an_a4_sheet_with_a_gutter_and_room_for_the_marks():
    sheet = spec("a4", "poker")
    assert (sheet.columns, sheet.rows, sheet.is_turned) == (3, 3, False)


@pytest.mark.parametrize("size", ["billet", "compet"])
def test_wide_faces_are_turned_on_a_portrait_page_rather_than_turning_the_page(size):
    sheet = spec("a4", size)
    assert sheet.is_turned
    assert sheet.page_size == (210.0, 297.0)
    assert sheet.per_page >= 2


def test_mini_cards_are_a_size_sleeves_are_sold_for():
    assert CARD_SIZES["mini"] in ((44.0, 68.0), (41.0, 63.0))
    assert CARD_SIZES["poker"] == (63.0, 88.0)
    assert CARD_SIZES["tarot"] == (70.0, 120.0)


def test_crop_marks_reach_the_paper_edge_when_asked():
    sheet = spec("a4", "poker", marks_to_edge=True)
    ends = {round(v, 6) for mark in sheet.crop_marks() for v in (mark.x2, mark.y2)}
    assert 0.0 in ends and 210.0 in ends


def test_a_partial_sheet_marks_and_boxes_only_the_cards_it_holds():
    sheet = spec("a4", "poker")
    trim, _bleed = sheet.boxes(2)
    first, second = sheet.front(0).trim, sheet.front(1).trim
    assert trim == Rect(first.x, first.y, second.right - first.x, first.h)
    xs = {mark.x1 for mark in sheet.crop_marks(count=2) if mark.x1 == mark.x2}
    assert xs == {first.x, first.right, second.x, second.right}


def test_a_face_too_large_for_the_paper_is_refused_with_what_to_change():
    with pytest.raises(SheetError) as error:
        SheetSpec("letter", 128, 190, bleed=3, backs="fold", name="« Fiches »")
    message = str(error.value)
    assert "« Fiches »" in message and "128 × 190" in message
    assert "fond perdu" in message and "pliage" in message


def test_it_refuses_impossible_options():
    with pytest.raises(SheetError):
        SheetSpec("a4", 63, 88, bleed=5)
    with pytest.raises(SheetError):
        SheetSpec("a4", 63, 88, gutter=-1)
    with pytest.raises(SheetError):
        SheetSpec("a4", 63, 88, offset_x=11)
    with pytest.raises(SheetError):
        SheetSpec("a4", 63, 88, backs="sideways")
    with pytest.raises(SheetError):
        SheetSpec("a5", 63, 88)


def test_a_large_board_is_tiled_with_overlap_and_every_part_printed_once_at_least():
    spec_ = TileSpec("a4", 500)
    tiles = spec_.tiles()
    assert len(tiles) == spec_.columns * spec_.rows > 1
    for x in range(0, 500, 5):
        for y in range(0, 500, 5):
            assert any(t.window.x <= x <= t.window.right and t.window.y <= y <= t.window.top
                       for t in tiles)
