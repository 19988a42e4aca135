"""Row planning: a column cut into rows of different heights, each tall enough for its text.

A face with several texts one above the other (a card's questions, a list of steps) asks
`plan_rows` for the largest text size at which every row fits the column, and gets back
each row's rectangle. The caller says how tall its rows are at a given size; this module
knows nothing of what the rows hold. Lengths are millimetres, text sizes points.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from ..sheets import Rect
from ..text import MIN_SIZE, fit, french
from ..units import to_mm, to_points

SIZE_STEP = 0.5  # pt between two sizes tried, as `printing.text.fit` steps
TOLERANCE = 1e-6  # mm: rounding that never counts as an overflow
UNBOUNDED = 1e6  # a box height (pt) or a text height (mm) that nothing reaches


def text_height(value: str, font: str, size: float, box_w: float) -> float:
    """Return the height in mm that `value` needs at `size` pt, wrapped in `box_w` mm.

    That is the lines' boxes, each as tall as the size and a leading apart: room for
    accents that rise above them or tails that sink under them is the caller's. A word
    wider than the box makes it `UNBOUNDED`: no row can hold it, and the face that draws
    it reports it.
    """
    fitted = fit(french(value), font, size, to_points(box_w), UNBOUNDED, size)
    if fitted is None:
        return UNBOUNDED
    return to_mm(fitted.leading * (len(fitted.lines) - 1) + fitted.size)


def fitting_size(value: str, font: str, largest: float, box_w: float, lines: int,
                 smallest: float = MIN_SIZE) -> float | None:
    """Return the largest size from `largest` down to `smallest` pt at which `value` holds
    on at most `lines` lines of `box_w` mm, or None when even `smallest` does not."""
    fitted = fit(french(value), font, largest, to_points(box_w), UNBOUNDED, smallest, lines)
    return fitted.size if fitted is not None else None


def sizes_from(largest: float, smallest: float = MIN_SIZE) -> Iterator[float]:
    """Yield text sizes from `largest` down to `smallest` pt, `SIZE_STEP` apart.

    Always at least `smallest`, even when `largest` is below it.
    """
    size = max(largest, smallest)
    while size >= smallest - 1e-9:
        yield size
        size -= SIZE_STEP


@dataclass(frozen=True)
class Plan:
    """Rows of one column, top to bottom, and the text size they are drawn at."""

    size: float  # pt
    rows: tuple[Rect, ...]
    squeezed: tuple[bool, ...]  # rows given less than their text needs at `size`
    alone: tuple[bool, ...]  # rows that need more than the whole column on their own

    @property
    def fits(self) -> bool:
        """Whether every row got the height its text needs."""
        return not any(self.squeezed)

    def culprits(self) -> tuple[int, ...]:
        """Return the indexes of the rows to blame when the plan does not fit.

        The rows too long on their own if there are any, else every row: they are too
        long together. Empty when the plan fits.
        """
        if self.fits:
            return ()
        alone = tuple(index for index, too_long in enumerate(self.alone) if too_long)
        return alone or tuple(range(len(self.rows)))


def plan_rows(body: Rect, gap: float, largest: float,
              needs: Callable[[float], Sequence[float]], smallest: float = MIN_SIZE) -> Plan:
    """Cut `body` into rows `gap` mm apart, at the largest size where all rows fit.

    `needs(size)` returns each row's height in mm at `size` pt, top row first; sizes are
    tried from `largest` down to `smallest`. Room left over is shared out equally, so the
    rows fill the column. When even `smallest` does not fit, the rows are shrunk in
    proportion to fill the column and the plan says which are squeezed: the caller
    reports them rather than draw overlapping text.
    """
    size = smallest
    heights: list[float] = []
    for size in sizes_from(largest, smallest):
        heights = list(needs(size))
        if sum(heights) + gap * (len(heights) - 1) <= body.h + TOLERANCE:
            break
    if not heights:
        return Plan(size, (), (), ())
    room = body.h - gap * (len(heights) - 1)
    total = sum(heights) or 1.0
    needed = heights
    if total > room:
        heights = [h * room / total for h in heights]
    else:
        heights = [h + (room - total) / len(heights) for h in heights]
    rows, top = [], body.top
    for height in heights:
        rows.append(Rect(body.x, top - height, body.w, height))
        top -= height + gap
    squeezed = tuple(got < need - TOLERANCE for got, need in zip(heights, needed, strict=True))
    alone = tuple(need > room + TOLERANCE for need in needed)
    return Plan(size, tuple(rows), squeezed, alone)
