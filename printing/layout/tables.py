"""Ruled tables: a coloured row of column titles, then rows of cells between grey rules.

Score sheets and pads are tables a player writes in. A table is planned first, as pure
geometry (`rule_table`: each column's edges, each row's cells, where every rule runs), then
drawn with the Pen (`table`): the titles in white on the header row, a cell's text in bold
in its middle, or whatever a cell function draws in its box (a box to tick, a tag).

Lengths are millimetres in the Pen's coordinates: from the face's bottom-left corner, y
upwards; a table hangs from its `top` edge.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..draw import BLACK, WHITE, Pen
from ..sheets import Rect
from ..text import BOLD

RULE_COLOUR = "#8a8a8a"  # the grey of the rules between rows and columns
HEAD_SIZE = 6.5  # pt: a column's title
CELL_SIZE = 8.0  # pt: a cell's own text
PADDING = 0.8  # mm between a column's edge and the text in it
TICK_SIDE = 3.2  # mm: a box to tick


@dataclass(frozen=True)
class Column:
    """A table's column: its title and its width in mm (0: it shares what is left)."""

    title: str
    width: float = 0.0


# What a cell holds: its own text, or a function that draws in the cell's box.
CellFn = Callable[[Pen, Rect], None]
CellContent = str | CellFn


def column_edges(columns: Sequence[Column], x: float, w: float) -> list[float]:
    """Return the x of every column's edges, left to right (one more than the columns).

    Fixed columns take their width; the flexible ones share the rest of `w` equally.
    """
    fixed = sum(c.width for c in columns)
    flexible = [c for c in columns if not c.width]
    spare = (w - fixed) / len(flexible) if flexible else 0.0
    edges = [x]
    for column in columns:
        edges.append(edges[-1] + (column.width or spare))
    return edges


@dataclass(frozen=True)
class Ruling:
    """Where a table's parts go: its columns' edges, its header row and its rows' bottoms."""

    edges: tuple[float, ...]
    top: float
    head: Rect
    bottoms: tuple[float, ...]  # each row's bottom edge, top row first
    row_h: float

    @property
    def bottom(self) -> float:
        """The y of the table's bottom edge: its last row's, or its header's."""
        return self.bottoms[-1] if self.bottoms else self.head.y

    @property
    def frame(self) -> Rect:
        """The table's outline, header included."""
        return Rect(self.head.x, self.bottom, self.head.w, self.top - self.bottom)

    def title_box(self, column: int) -> Rect:
        """Where a column's title goes in the header row, `PADDING` inside its edges."""
        left, right = self.edges[column], self.edges[column + 1]
        return Rect(left + PADDING, self.head.y, right - left - 2 * PADDING, self.head.h)

    def cell(self, row: int, column: int) -> Rect:
        """The box of a cell, between its column's edges and its row's rules."""
        left, right = self.edges[column], self.edges[column + 1]
        return Rect(left, self.bottoms[row], right - left, self.row_h)

    def row_rules(self) -> list[tuple[float, float, float, float]]:
        """The rule under each row, across the table, as (x1, y1, x2, y2)."""
        return [(self.head.x, y, self.head.right, y) for y in self.bottoms]

    def column_rules(self) -> list[tuple[float, float, float, float]]:
        """The rule between two columns, from under the header to the table's bottom."""
        return [(x, self.head.y, x, self.bottom) for x in self.edges[1:-1]]


def rule_table(columns: Sequence[Column], rows: int, *, x: float, top: float, w: float,
               row_h: float, head_h: float) -> Ruling:
    """Plan a table `w` mm wide hanging from `top`: a header row `head_h` mm tall, then
    `rows` rows of `row_h` mm."""
    head = Rect(x, top - head_h, w, head_h)
    bottoms = []
    y = head.y
    for _row in range(rows):
        y -= row_h
        bottoms.append(y)
    return Ruling(tuple(column_edges(columns, x, w)), top, head, tuple(bottoms), row_h)


def table(pen: Pen, x: float, top: float, w: float, columns: Sequence[Column],
          rows: Sequence[Sequence[CellContent]], *, row_h: float, head_h: float = 5.0,
          colour: str, rule_colour: str = RULE_COLOUR) -> float:
    """Draw a ruled table: the titles on a header row of `colour`, then `rows` of cells.

    A text cell is set in bold in the middle of its box; a cell function draws in its box;
    an empty text leaves the cell blank. Return the y of the table's bottom edge.
    """
    ruling = rule_table(columns, len(rows), x=x, top=top, w=w, row_h=row_h, head_h=head_h)
    pen.rect(ruling.head, fill=colour)
    for index, column in enumerate(columns):
        pen.text(column.title, ruling.title_box(index), size=HEAD_SIZE, font=BOLD,
                 fill=WHITE, align="centre", valign="middle", label=column.title)
    for number, (row, rule) in enumerate(zip(rows, ruling.row_rules(), strict=True)):
        for index, cell in enumerate(row[:len(columns)]):
            box = ruling.cell(number, index)
            if callable(cell):
                cell(pen, box)
            elif cell:
                pen.text(cell, box.inset(PADDING, 0.5), size=CELL_SIZE, font=BOLD,
                         fill=BLACK, align="centre", valign="middle", label=cell)
        pen.line(*rule, stroke=rule_colour, width=0.2)
    for rule in ruling.column_rules():
        pen.line(*rule, stroke=rule_colour, width=0.2)
    pen.rect(ruling.frame, stroke=colour, width=0.4)
    return ruling.bottom


def checkbox(pen: Pen, x: float, y: float, side: float = TICK_SIDE) -> None:
    """Draw an empty square to tick, its bottom-left corner at (x, y)."""
    pen.rect(Rect(x, y, side, side), fill=WHITE, stroke=BLACK, width=0.25, radius=0.4)


def tick_cell(pen: Pen, box: Rect) -> None:
    """A cell function: a box to tick in the middle of the cell."""
    checkbox(pen, box.x + box.w / 2 - TICK_SIDE / 2, box.y + box.h / 2 - TICK_SIDE / 2)


def blank(pen: Pen, box: Rect) -> None:
    """A cell function: the cell stays empty, for the player to write in."""
