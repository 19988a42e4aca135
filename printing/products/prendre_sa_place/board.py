"""The board: the Qualifs track and the Compet’ track on one landscape page.

Les Qualifs run from a double starting square to the last square of the registry's track;
La Compet’ snakes from the lowest square a pawn can reach to the highest, its starting
squares in the game's colour.
"""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from cms.games.prendre_sa_place import COMPET_SLOTS, FORMATS, RULES, SPEC, SUPER_CASH_POINTS

from ...draw import WHITE, Pen
from ...sheets import Rect
from ...text import BOLD
from ...units import to_mm
from ..base import Page, Sheets
from ..style import GOLD, GREY, INK, LIGHT, PAGE_MARGIN
from .look import COLOUR, TRAIL, armchair, signed, start_label, tag, words

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ...render import PrintOptions


def compet_track() -> range:
    """Every square a pawn can reach in La Compet’, from the registry.

    The lowest start minus a missed Super Cash, up to the best start plus every Compet’
    point and a Super Cash.
    """
    starts = RULES.compet_starts
    most = sum(FORMATS[slot].points for slot in COMPET_SLOTS if slot in FORMATS)
    return range(min(starts) - SUPER_CASH_POINTS, max(starts) + most + SUPER_CASH_POINTS + 1)


def snake(count: int, columns: int) -> list[tuple[int, int]]:
    """Return (column, row) for each square of a track that turns back at each row's end."""
    cells = []
    for index in range(count):
        row, col = divmod(index, columns)
        cells.append((col if row % 2 == 0 else columns - 1 - col, row))
    return cells


def square(pen: Pen, box: Rect, number: int, *, fill: str = WHITE, stroke: str = COLOUR,
           ink: str = INK, caption: str = "", dashed: bool = False) -> None:
    """One square of a track: its number near the top, room for pawns below."""
    if dashed:
        pen.rect(box, fill=fill)
        pen.dashed_rect(box, stroke=stroke, width=0.35)
    else:
        pen.rect(box, fill=fill, stroke=stroke, width=0.5, radius=1.5)
    label = signed(number) if number < 0 else str(number)
    size = min(box.h * 0.6, 15.0)
    pen.centred(label, box.centre[0], box.top - to_mm(size) * 0.9, size=size, font=BOLD,
                fill=ink)
    if caption:
        words(pen, caption, Rect(box.x + 0.5, box.y + 0.8, box.w - 1, 3.5), size=6.5,
              font=BOLD, fill=ink, align="centre")


def compet_caption() -> str:
    """The Compet’ track's caption: who starts where, what a Super Cash is worth."""
    starts = RULES.compet_starts
    return _("Départ selon Les Qualifs : %(starts)s. Super Cash : %(plus)s ou %(minus)s. "
             "Cases grises : seulement après un Super Cash raté.") % {
        "starts": ", ".join(f"{start_label(i, len(starts))} {signed(s)}"
                            for i, s in enumerate(starts)),
        "plus": signed(SUPER_CASH_POINTS), "minus": signed(-SUPER_CASH_POINTS)}


def board(pen: Pen) -> None:
    """Both tracks on one landscape page: Les Qualifs on top, La Compet’ below."""
    m = PAGE_MARGIN
    gap = 1.6
    title = Rect(m, pen.h - m - 11, pen.w - 2 * m, 11)
    pen.rect(title, fill=COLOUR, radius=2)
    armchair(pen, title.x + 9, title.y + 1.3, 9.5)
    words(pen, SPEC.name, Rect(title.x + 17, title.y, title.w - 20, title.h), size=15,
          font=BOLD, fill=WHITE)

    low, high = RULES.qualifs_track
    label_w = 30.0
    count = high - low + 1
    qualifs_side = min(22.0, (title.w - label_w - gap * (count + 1)) / (count + 2))
    track = compet_track()
    columns = 10
    rows = math.ceil(len(track) / columns)
    heading = 8.0
    room_h = title.y - m - qualifs_side - heading
    side = min((title.w - gap * (columns - 1)) / columns,
               (room_h - 12 - gap * (rows - 1)) / rows)
    spare = (room_h - rows * side - (rows - 1) * gap) / 3

    # Les Qualifs: a double square where every pawn starts, then 1 to 10.
    row = Rect(m, title.y - spare - qualifs_side, title.w, qualifs_side)
    tag(pen, _("LES QUALIFS"), row.x, row.y + qualifs_side / 2, size=9, colour=COLOUR)
    x = row.x + label_w
    start = Rect(x, row.y, qualifs_side * 2 + gap, qualifs_side)
    square(pen, start, 0, fill=LIGHT, caption=_("départ"))
    x = start.right + gap
    for number in range(low, high + 1):
        square(pen, Rect(x, row.y, qualifs_side, qualifs_side), number)
        x += qualifs_side + gap

    # La Compet’: a snake from the lowest reachable square to the highest.
    starts = RULES.compet_starts
    width = columns * side + (columns - 1) * gap
    left = m + (title.w - width) / 2
    top = row.y - spare
    tag(pen, _("LA COMPET’"), left, top - 3, size=9, colour=COLOUR)
    words(pen, compet_caption(), Rect(left + 30, top - 6, width - 30, 6), size=8, fill=GREY)
    top -= heading
    boxes = []
    for col, line in snake(len(track), columns):
        boxes.append(Rect(left + col * (side + gap), top - (line + 1) * side - line * gap,
                          side, side))
    for before, after in itertools.pairwise(boxes):
        pen.line(*before.centre, *after.centre, stroke=TRAIL, width=side * 0.3)
    for number, box in zip(track, boxes, strict=True):
        if number in starts:
            index = starts.index(number)
            square(pen, box, number, fill=COLOUR, stroke=COLOUR, ink=WHITE,
                   caption=_("départ %(who)s") % {"who": start_label(index, len(starts))})
        elif number < min(starts):
            square(pen, box, number, fill=LIGHT, stroke=GREY, ink=GREY, dashed=True)
        elif number == 0:
            square(pen, box, number, fill=GOLD, stroke=GOLD)
        else:
            square(pen, box, number)


def board_pages(options: PrintOptions, items: Iterable[object]) -> list[Page]:
    """One landscape page: the board."""
    return [Page(board, landscape=True)]


BOARD = Sheets(
    slug="plateau",
    label=pgettext_lazy("produit à imprimer", "Plateau"),
    description=gettext_lazy("Les pistes des Qualifs (1 à 10) et de La Compet’ (de la case "
                             "de départ à la plus haute atteignable), sur une page à "
                             "l’italienne."),
    pages=board_pages,
)
