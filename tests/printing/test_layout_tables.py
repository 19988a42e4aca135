"""Ruled tables: columns that fill the table's width, rules that fall on the cells' edges."""

import itertools

import pytest

from printing.draw import MeasurePen
from printing.layout.tables import Column, blank, column_edges, rule_table, table, tick_cell
from printing.sheets import Rect

COLUMNS = [Column("N°", 9.0), Column("Réponse"), Column("✓", 9.0), Column("Points", 16.0)]


class RecordingPen(MeasurePen):
    """Measures as the printer does and keeps every rectangle, line and text box drawn."""

    def __init__(self, w: float, h: float):
        super().__init__(w, h)
        self.rects: list[Rect] = []
        self.lines: list[tuple[float, float, float, float]] = []
        self.texts: list[tuple[str, Rect]] = []

    def rect(self, rect, **style):
        self.rects.append(rect)

    def line(self, x1, y1, x2, y2, **style):
        self.lines.append((x1, y1, x2, y2))

    def draw_fitted(self, fitted, rect, **style):
        self.texts.append((" ".join(fitted.lines), rect))


def inside(inner: Rect, outer: Rect) -> bool:
    eps = 1e-9
    return (inner.x >= outer.x - eps and inner.right <= outer.right + eps
            and inner.y >= outer.y - eps and inner.top <= outer.top + eps)


# --- the plan ------------------------------------------------------------------------------


@pytest.mark.parametrize("width", [120.0, 180.0, 257.5])
def test_the_columns_fill_the_tables_width(width):
    edges = column_edges(COLUMNS, 10.0, width)

    assert edges[0] == 10.0
    assert edges[-1] == pytest.approx(10.0 + width)
    assert edges == sorted(edges)


def test_fixed_columns_keep_their_width_and_flexible_ones_share_the_rest():
    columns = [Column("A", 20.0), Column("B"), Column("C", 10.0), Column("D")]

    edges = column_edges(columns, 0.0, 100.0)

    widths = [right - left for left, right in itertools.pairwise(edges)]
    assert widths == pytest.approx([20.0, 35.0, 10.0, 35.0])


def test_the_cells_tile_the_table_under_its_header_row():
    ruling = rule_table(COLUMNS, 3, x=10.0, top=200.0, w=150.0, row_h=8.0, head_h=5.0)

    cells = [ruling.cell(row, column) for row in range(3) for column in range(len(COLUMNS))]
    assert sum(cell.w * cell.h for cell in cells) == pytest.approx(150.0 * 3 * 8.0)
    assert all(inside(cell, ruling.frame) for cell in cells)
    assert max(cell.top for cell in cells) == pytest.approx(ruling.head.y)
    assert ruling.bottom == pytest.approx(200.0 - 5.0 - 3 * 8.0)
    assert ruling.frame == Rect(10.0, ruling.bottom, 150.0, 200.0 - ruling.bottom)


def test_the_rules_land_on_the_cells_edges():
    ruling = rule_table(COLUMNS, 4, x=0.0, top=100.0, w=180.0, row_h=7.0, head_h=5.0)

    cell_bottoms = {ruling.cell(row, 0).y for row in range(4)}
    assert {y1 for _x1, y1, _x2, y2 in ruling.row_rules() if y1 == y2} == cell_bottoms
    inner_edges = {ruling.cell(0, column).x for column in range(1, len(COLUMNS))}
    assert {x1 for x1, _y1, x2, _y2 in ruling.column_rules() if x1 == x2} == inner_edges
    for _x, y1, _x2, y2 in ruling.column_rules():
        assert (y1, y2) == (ruling.head.y, ruling.bottom)


def test_each_title_stays_inside_its_column_in_the_header_row():
    ruling = rule_table(COLUMNS, 1, x=0.0, top=50.0, w=100.0, row_h=7.0, head_h=5.0)

    for index in range(len(COLUMNS)):
        column = Rect(ruling.edges[index], ruling.head.y, ruling.edges[index + 1]
                      - ruling.edges[index], ruling.head.h)
        assert inside(ruling.title_box(index), column)


# --- the drawing ---------------------------------------------------------------------------


def drawn_table(rows, *, top=150.0):
    pen = RecordingPen(210.0, 297.0)
    bottom = table(pen, 10.0, top, 190.0, COLUMNS, rows, row_h=8.0, colour="#e4572e")
    return pen, bottom


def test_a_table_draws_its_rules_where_its_plan_puts_them():
    rows = [["1", blank, tick_cell, blank], ["2", blank, tick_cell, blank]]

    pen, bottom = drawn_table(rows)

    ruling = rule_table(COLUMNS, 2, x=10.0, top=150.0, w=190.0, row_h=8.0, head_h=5.0)
    assert set(pen.lines) == set(ruling.row_rules()) | set(ruling.column_rules())
    assert ruling.frame in pen.rects
    assert bottom == ruling.bottom


def test_a_cell_function_draws_in_its_own_cell():
    seen = []

    def remember(pen, box):
        seen.append(box)

    drawn_table([[remember, "écrit", remember, remember]])

    ruling = rule_table(COLUMNS, 1, x=10.0, top=150.0, w=190.0, row_h=8.0, head_h=5.0)
    assert seen == [ruling.cell(0, 0), ruling.cell(0, 2), ruling.cell(0, 3)]


def test_a_tables_texts_stay_in_their_cells_and_titles_in_the_header():
    pen, _bottom = drawn_table([["1", "Paris", blank, "5"]])

    ruling = rule_table(COLUMNS, 1, x=10.0, top=150.0, w=190.0, row_h=8.0, head_h=5.0)
    boxes = dict(pen.texts)
    for index, column in enumerate(COLUMNS):
        assert inside(boxes[column.title], ruling.title_box(index))
    assert inside(boxes["Paris"], ruling.cell(0, 1))
    assert inside(boxes["5"], ruling.cell(0, 3))
    assert pen.issues == []


def test_a_box_to_tick_sits_inside_its_cell():
    pen, _bottom = drawn_table([[blank, blank, tick_cell, blank]])

    ruling = rule_table(COLUMNS, 1, x=10.0, top=150.0, w=190.0, row_h=8.0, head_h=5.0)
    ticks = [rect for rect in pen.rects if rect.w == rect.h and rect.w < 5.0]
    assert len(ticks) == 1 and inside(ticks[0], ruling.cell(0, 2))
