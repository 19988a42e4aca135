"""The duplex calibration sheet: two pages that show a printer's front/back misalignment.

Page 1 carries crosshairs; page 2 carries rulers exactly behind them. Held against a
window, each crosshair falls on its ruler at the misalignment in mm, and that number is
the back offset to enter for "rectos puis versos" (separate backs). Printed with an
offset already entered, the crosshairs should fall on zero.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..draw import Pen
from ..sheets import BACKS_SEPARATE, BACKS_SHORT, Rect
from ..text import BOLD
from .base import Page, Sheets
from .style import GREY, INK, PAGE_MARGIN

RULER_HALF = 5  # mm either side of zero
CROSS_HALF = 14.0
RED = "#c8102e"


def targets(w: float, h: float) -> list[tuple[float, float]]:
    """Return the crosshair centres: the middle and near each corner of the page."""
    side, bottom, top = 35.0, 35.0, 95.0  # the instructions fill the top of the page
    return [(w / 2, (bottom + h - top) / 2), (side, bottom), (w - side, bottom),
            (side, h - top), (w - side, h - top)]


def behind(x: float, y: float, w: float, h: float, backs: str) -> tuple[float, float]:
    """Return where a point of the front page lies on the back page, as the back is read."""
    if backs == BACKS_SHORT:
        return (x, h - y)
    return (w - x, y)


def _title(pen: Pen, title: str, lines: list[str]) -> None:
    top = pen.h - PAGE_MARGIN
    pen.text(title, Rect(PAGE_MARGIN, top - 9, pen.w - 2 * PAGE_MARGIN, 9), size=15,
             font=BOLD, label="titre")
    pen.text("\n".join(lines), Rect(PAGE_MARGIN, top - 62, pen.w - 2 * PAGE_MARGIN, 50),
             size=10,
             min_size=7, label="mode d’emploi")


def front_page(pen: Pen) -> None:
    _title(pen, _("Calibrage recto verso — recto"), [
        _("1. Imprimez ces deux pages en recto verso, à 100 %, avec les réglages de vos "
          "cartes."),
        _("2. Regardez la feuille par transparence, recto face à vous."),
        _("3. Chaque croix tombe sur une règle du verso : lisez la graduation sous le trait "
          "vertical (décalage X) et sous le trait horizontal (décalage Y), en mm."),
        _("4. Une lecture de 0 partout : l’imprimante est alignée. Sinon, imprimez en "
          "« rectos puis versos » avec ces décalages."),
    ])
    for x, y in targets(pen.w, pen.h):
        pen.line(x - CROSS_HALF, y, x + CROSS_HALF, y, stroke=RED, width=0.35)
        pen.line(x, y - CROSS_HALF, x, y + CROSS_HALF, stroke=RED, width=0.35)
        pen.circle(x, y, 1.2, stroke=RED, width=0.25)


def ruler(pen: Pen, x: float, y: float, *, vertical: bool) -> None:
    """A scale from −RULER_HALF to +RULER_HALF mm, zero on (x, y), ticks every half mm."""
    if vertical:
        pen.line(x, y - RULER_HALF, x, y + RULER_HALF, stroke=INK, width=0.15)
    else:
        pen.line(x - RULER_HALF, y, x + RULER_HALF, y, stroke=INK, width=0.15)
    for half_mm in range(-2 * RULER_HALF, 2 * RULER_HALF + 1):
        value = half_mm / 2
        length = 5.0 if half_mm == 0 else 3.0 if half_mm % 2 == 0 else 1.6
        label = f"{value:g}".replace("-", "−")
        # Labels every 2 mm, staggered so that neighbours never touch.
        stagger = 2.6 if half_mm % 8 else 0.0
        if vertical:
            pen.line(x, y + value, x + length, y + value, stroke=INK, width=0.1)
            if half_mm % 4 == 0:
                pen.centred(label, x + 7 + stagger, y + value, size=4.5, fill=INK)
        else:
            pen.line(x + value, y, x + value, y - length, stroke=INK, width=0.1)
            if half_mm % 4 == 0:
                pen.centred(label, x + value, y - 6.5 - stagger, size=4.5, fill=INK)


def back_page(pen: Pen, options) -> None:
    w, h = pen.w, pen.h
    backs = options.backs
    _title(pen, _("Calibrage recto verso — verso"), [
        _("Les règles sont en mm ; + vers la droite et vers le haut, vu de ce côté."),
        _("Décalage lu = décalage X / Y à saisir pour « rectos puis versos »."),
    ])
    dx, dy = (options.offset_x, options.offset_y) if backs == BACKS_SEPARATE else (0.0, 0.0)
    for x, y in targets(w, h):
        bx, by = behind(x, y, w, h, backs)
        bx, by = bx + dx, by + dy
        # The horizontal ruler reads the front's vertical stroke, a little above the centre.
        ruler(pen, bx, by + CROSS_HALF * 0.75, vertical=False)
        ruler(pen, bx + CROSS_HALF * 0.75, by, vertical=True)
        pen.circle(bx, by, 0.6, fill=GREY)


def calibration_pages(options, items) -> list[Page]:
    return [Page(front_page), Page(lambda pen: back_page(pen, options))]


CALIBRATION = Sheets(
    slug="calibrage",
    label=gettext_lazy("Feuille de calibrage recto verso"),
    description=gettext_lazy("Deux pages qui mesurent en mm le décalage entre recto et verso "
                             "de votre imprimante."),
    pages=calibration_pages,
    duplex=True,
)

__all__ = ["CALIBRATION", "behind", "targets"]
