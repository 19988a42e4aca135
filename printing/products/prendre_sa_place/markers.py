"""What stands on the table: the Champion's red armchair and the candidates' pawns.

Both fold into a triangle that stands up (`prism`): a base, a front, a back drawn upside
down so both faces stand upright, and a tab to glue under the base.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cms.games.spec import PALETTE

from ...draw import WHITE, Pen
from ...sheets import Rect
from ...text import BOLD
from ...units import to_points
from ..base import Page, Sheets
from ..style import GREY, INK, LIGHT, PAGE_MARGIN
from .look import COLOUR, RED, armchair, words

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ...render import PrintOptions

PAWN_WIDTH = 10.0  # mm
PAWN_COLOURS = ("orange", "jaune", "vert", "turquoise", "bleu", "violet", "rose", "marron")


def prism(pen: Pen, x: float, y: float, w: float, face_h: float, base_h: float, tab_h: float,
          face: Callable[[Pen], None]) -> Rect:
    """A marker that stands as a triangle: base, front, back, glue tab, from the bottom.

    Return its outline. The back is drawn upside down so both faces stand upright.
    """
    base = Rect(x, y, w, base_h)
    front = Rect(x, base.top, w, face_h)
    back = Rect(x, front.top, w, face_h)
    glue = Rect(x + w * 0.08, back.top, w * 0.84, tab_h)
    pen.rect(base, fill=LIGHT)
    pen.polygon([(x, glue.y), (x + w, glue.y), (glue.right, glue.top), (glue.x, glue.top)],
                fill=LIGHT, stroke=INK, width=0.3)
    with pen.sub(front) as sub:
        face(sub)
    with pen.sub(back, upside_down=True) as sub:
        face(sub)
    outline = Rect(x, y, w, back.top - y)
    pen.rect(outline, stroke=INK, width=0.3)
    for fold in (base.top, front.top, back.top):
        pen.line(x, fold, x + w, fold, stroke=GREY, width=0.3, dash=(1.5, 1))
    return Rect(x, y, w, glue.top - y)


# --- the red armchair ----------------------------------------------------------------------


def armchair_face(pen: Pen) -> None:
    """A face of the standing armchair: the armchair over « Le Champion »."""
    pen.background(WHITE)
    pen.rect(pen.box.inset(2), stroke=RED, width=0.6, radius=3)
    armchair(pen, pen.w / 2, pen.h * 0.3, pen.w * 0.5)
    words(pen, _("Le Champion"), Rect(3, pen.h * 0.08, pen.w - 6, pen.h * 0.16), size=16,
          font=BOLD, fill=RED, align="centre")


def fauteuil(pen: Pen) -> None:
    """The red armchair to cut, fold into a triangle and glue: it stands by the Champion."""
    m = PAGE_MARGIN
    words(pen, _("Le fauteuil rouge"), Rect(m, pen.h - m - 9, pen.w - 2 * m, 9), size=16,
          font=BOLD, fill=RED)
    words(pen, _("Découpez le contour, pliez sur les pointillés, collez la languette sous la "
                 "base : le fauteuil tient debout à côté du Champion."),
          Rect(m, pen.h - m - 18, pen.w - 2 * m, 8), size=9, valign="top")
    w, face_h, base_h, tab_h = 90.0, 80.0, 40.0, 12.0
    height = base_h + 2 * face_h + tab_h
    y = (pen.h - 18 - m - height) / 2 + m
    x = (pen.w - w) / 2
    prism(pen, x, y, w, face_h, base_h, tab_h, armchair_face)
    words(pen, _("base"), Rect(x, y, w, base_h), size=9, fill=GREY, align="centre")
    words(pen, _("colle"), Rect(x, y + base_h + 2 * face_h, w, tab_h), size=8, fill=GREY,
          align="centre")


def fauteuil_pages(options: PrintOptions, items: Iterable[object]) -> list[Page]:
    """One page: the armchair to fold."""
    return [Page(fauteuil)]


# --- the pawns -----------------------------------------------------------------------------


def pawn_face(number: int, colour: str) -> Callable[[Pen], None]:
    """Return a face of pawn `number`: its number on a white disc, on its colour."""

    def draw(pen: Pen) -> None:
        pen.background(colour)
        radius = min(pen.w, pen.h) * 0.34
        pen.circle(pen.w / 2, pen.h * 0.55, radius, fill=WHITE)
        pen.centred(str(number), pen.w / 2, pen.h * 0.55, size=to_points(radius * 1.3),
                    font=BOLD, fill=colour)

    return draw


def pions(pen: Pen) -> None:
    """A pawn per colour, numbered too, folded like the armchair to stand on the board."""
    m = PAGE_MARGIN
    words(pen, _("Les pions"), Rect(m, pen.h - m - 9, pen.w - 2 * m, 9), size=16, font=BOLD,
          fill=COLOUR)
    words(pen, _("Découpez, pliez sur les pointillés, collez la languette sous la base. "
                 "Chaque candidat garde son pion des Qualifs à La Compet’."),
          Rect(m, pen.h - m - 18, pen.w - 2 * m, 8), size=9, valign="top")
    # Narrow enough that four pawns share a Qualifs square, two across and two deep.
    w, face_h, base_h, tab_h = PAWN_WIDTH, 14.0, 9.0, 5.0
    count = len(PAWN_COLOURS)
    gap = (pen.w - 2 * m - count * w) / (count - 1)
    y = pen.h - m - 30 - (base_h + 2 * face_h + tab_h)
    for index, name in enumerate(PAWN_COLOURS):
        prism(pen, m + index * (w + gap), y, w, face_h, base_h, tab_h,
              pawn_face(index + 1, PALETTE[name]))


def pions_pages(options: PrintOptions, items: Iterable[object]) -> list[Page]:
    """One page: the eight pawns to fold."""
    return [Page(pions)]


ARMCHAIR = Sheets(
    slug="fauteuil",
    label=gettext_lazy("Fauteuil rouge"),
    description=gettext_lazy("Le fauteuil du Champion, à plier en chevalet."),
    pages=fauteuil_pages,
)

PAWNS = Sheets(
    slug="pions",
    label=gettext_lazy("Pions"),
    description=gettext_lazy("Huit pions de couleur, numérotés, à plier en "
                             "chevalet."),
    pages=pions_pages,
)
