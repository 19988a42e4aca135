"""Flow and grid placement: pieces of text set left to right and wrapped, or in columns.

Two ways to place short pieces of text (the propositions of a question, an answer and its
variants) in a band of a given width:

- `flow` sets them one after the other on a line, with a space between, and starts a new
  line when the next one does not fit; consecutive pieces of one font and one label on a
  line become one run of text;
- `grid` puts them in columns of one width, as many columns as keep every piece on one
  line, and wraps a piece inside its cell otherwise; each row is as tall as its tallest
  cell.

Both return where each piece's text goes (a `Placed` box) and draw nothing. Lengths are
millimetres from the top-left corner of the face's body, `top` downwards, as a page is
read; the caller turns them into the Pen's bottom-up coordinates when it draws. Text is
measured and wrapped by functions the caller gives, so the same placement serves any font,
size and typography.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

# (text, font) -> the text's width in mm, at the size the caller lays out at.
Measure = Callable[[str, str], float]
# (text, font, width in mm) -> the text's lines in that width.
Wrap = Callable[[str, str, float], list[str]]

# Column counts a grid tries, in order, each with the narrowest column it accepts (mm).
TWO_COLUMNS: Mapping[int, float] = {2: 0.0}
SLACK = 0.3  # mm a flowed run's box is wider than its text, so rounding never wraps it


@dataclass(frozen=True)
class Piece:
    """A piece of text to place: its text, its font and the name a report gives it.

    `tail` is the room in mm a grid keeps free after the piece's last line, for a mark
    the caller draws there (a tag, a pill); `flow` sets pieces edge to edge and ignores it.
    """

    text: str
    font: str
    label: object  # names the piece in a report: its str() is shown
    tail: float = 0.0


@dataclass(frozen=True)
class Placed:
    """A piece of text placed: its box in mm from the body's top-left corner, top downwards.

    The box is as tall as the text's lines, so drawing the text in it at the size it was
    laid out at fills it exactly.
    """

    text: str
    x: float
    top: float
    w: float
    h: float
    font: str
    label: object  # names the piece in a report: its str() is shown


@dataclass(frozen=True)
class Cell:
    """A piece in a grid: the cell's left edge, where the piece's text goes, and its lines.

    The text starts `indent` mm into the cell (see `grid`), after room for a bullet.
    """

    x: float
    placed: Placed
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Grid:
    """Pieces placed in `columns` columns of `column_w` mm, row by row, and the height used."""

    columns: int
    column_w: float
    cells: tuple[Cell, ...]
    height: float


def column_width(width: float, gap: float, columns: int) -> float:
    """The width of each of `columns` columns `gap` mm apart across `width` mm."""
    return (width + gap) / columns - gap


def grid_columns(pieces: Sequence[Piece], *, width: float, gap: float, indent: float,
                 measure: Measure, choices: Mapping[int, float] = TWO_COLUMNS) -> int:
    """Return how many columns `grid` puts `pieces` in: see `grid`; no wrapping done."""

    def one_line_each(columns: int) -> bool:
        text_w = column_width(width, gap, columns) - indent
        return all(measure(p.text, p.font) + p.tail <= text_w for p in pieces)

    return next((count for count, narrowest in choices.items()
                 if count <= len(pieces) and column_width(width, gap, count) >= narrowest
                 and one_line_each(count)), 1)


def grid(pieces: Sequence[Piece], *, x: float, top: float, width: float, gap: float,
         indent: float, line_h: float, measure: Measure, wrap: Wrap,
         choices: Mapping[int, float] = TWO_COLUMNS) -> Grid:
    """Place `pieces` in rows of equal columns, `gap` mm apart, across `width` mm from `x`.

    `choices` maps each column count to try, in order, to the narrowest column it accepts:
    the first count whose columns hold every piece (and its tail) on one line, after the
    `indent` each cell keeps at its left, wins; with none, one piece a row. A piece still
    too wide for its cell wraps, narrower by its tail when the tail no longer fits after
    its last line. Rows are `line_h` mm a line, as tall as their tallest cell.
    """
    if not pieces:
        return Grid(1, width, (), 0.0)
    columns = grid_columns(pieces, width=width, gap=gap, indent=indent, measure=measure,
                           choices=choices)
    column_w = column_width(width, gap, columns)
    cells = []
    y = top
    for start in range(0, len(pieces), columns):
        tallest = 1
        for column, piece in enumerate(pieces[start:start + columns]):
            left = x + column * (column_w + gap)
            text_w = column_w - indent
            lines = wrap(piece.text, piece.font, text_w)
            if piece.tail and measure(lines[-1], piece.font) + piece.tail > text_w:
                text_w -= piece.tail
                lines = wrap(piece.text, piece.font, text_w)
            cells.append(Cell(left, Placed(piece.text, left + indent, y, text_w,
                                           len(lines) * line_h, piece.font, piece.label),
                              tuple(lines)))
            tallest = max(tallest, len(lines))
        y += tallest * line_h
    return Grid(columns, column_w, tuple(cells), y - top)


@dataclass(frozen=True)
class Flow:
    """Pieces flowed into lines: the runs of text placed, how many lines, whether all fit.

    `fits` is False when a piece is wider than a whole line: it was placed anyway, and
    drawing it reports the overflow.
    """

    placed: tuple[Placed, ...]
    lines: int
    fits: bool


@dataclass
class _Run:
    x: float
    text: str
    font: str
    label: object  # names the piece in a report: its str() is shown


def flow(pieces: Sequence[Piece], *, x: float, top: float, width: float, line_h: float,
         measure: Measure, slack: float = SLACK) -> Flow:
    """Set `pieces` left to right from `x`, a space apart, wrapping at `width` mm.

    A piece starts a new line when it does not fit after the one before; it is never
    broken (split a long one into words first). On a line, consecutive pieces of the same
    font and label make one run, so the PDF's text reads as one. Each run's box is as wide
    as its text and `slack`, within the line.
    """
    lines: list[list[_Run]] = [[]]
    cursor = 0.0
    fits = True
    for piece in pieces:
        w = measure(piece.text, piece.font)
        space = measure(" ", piece.font) if cursor else 0.0
        if cursor and cursor + space + w > width:
            lines.append([])
            cursor, space = 0.0, 0.0
        if w > width:
            fits = False
        runs = lines[-1]
        if runs and runs[-1].font == piece.font and runs[-1].label == piece.label:
            runs[-1].text += " " + piece.text
        else:
            runs.append(_Run(cursor + space, piece.text, piece.font, piece.label))
        cursor += space + w
    placed = tuple(
        Placed(run.text, x + run.x, top + number * line_h,
               min(measure(run.text, run.font) + slack, width - run.x), line_h, run.font,
               run.label)
        for number, runs in enumerate(lines) for run in runs)
    return Flow(placed, len(lines), fits)
