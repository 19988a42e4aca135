"""The duplex calibration sheet: one sheet that tells a maker how their printer prints.

The recto carries a 100 mm gauge (a printer that scales the page shows it at once), a
flip cue, and five targets made of two rulers each; the verso carries a cross behind each
target, placed for the flip and offsets chosen. Held against a window, recto facing the
maker, each cross shows through on its rulers: the value read is what to *add* to the
offsets entered (0 everywhere: the printer is aligned). The rulers' numbers are computed
from the flip, so that reading is the same for every mode, and the offsets it gives are
what every mode takes.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..draw import Pen
from ..sheets import (
    BACKS_FOLD,
    BACKS_SEPARATE,
    BACKS_SHORT,
    Matrix,
    Rect,
    SheetError,
    flip_map,
    translate,
)
from ..text import BOLD, MIN_SIZE
from .base import Page, Sheets
from .style import GREY, INK, PAGE_MARGIN

RULER_HALF = 5  # mm either side of zero
ARM = 7.0  # from a target's centre to its rulers
CROSS_HALF = ARM + RULER_HALF + 1.5  # a cross reaches its rulers however far off it lands
GAUGE = 100.0  # mm: the scale check
CUE_WIDTH = 80.0  # mm: the flip cue's messages on the verso
RED = "#c8102e"
GREEN = "#1e7b34"


def targets(w: float, h: float) -> list[tuple[float, float]]:
    """Return the target centres: the middle of the page and near its four corners."""
    side, bottom, top = 32.0, 30.0, 114.0  # instructions, gauge and cue fill the top
    return [(w / 2, (bottom + h - top) / 2), (side, bottom), (w - side, bottom),
            (side, h - top), (w - side, h - top)]


def _flip(options, w: float, h: float) -> Matrix:
    backs = BACKS_SHORT if options.backs == BACKS_SHORT else "long"
    return flip_map(backs, w, h).then(translate(options.offset_x, options.offset_y))


def reading_signs(backs: str) -> tuple[int, int]:
    """Return how a ruler's numbers run (+1: growing right or up) for the offset to add.

    A verso drawn `d` mm further right on its own page shows through the recto `d` mm to
    the left after a long-edge flip (to the right after a short-edge one); up stays up
    after a long-edge flip and turns down after a short-edge one. The number read must be
    what to add to the offset, so the ruler runs against the shift it measures.
    """
    if backs == BACKS_SHORT:
        return (-1, 1)
    return (1, -1)


def _title(pen: Pen, title: str, lines: list[str]) -> float:
    top = pen.h - PAGE_MARGIN
    pen.text(title, Rect(PAGE_MARGIN, top - 9, pen.w - 2 * PAGE_MARGIN, 9), size=15,
             font=BOLD, label=_("titre"))
    pen.text("\n".join(lines), Rect(PAGE_MARGIN, top - 52, pen.w - 2 * PAGE_MARGIN, 42),
             size=9, min_size=MIN_SIZE, label=_("mode d’emploi"))
    return top - 52


def gauge(pen: Pen, x: float, y: float) -> None:
    """A 100 mm scale, ticks every 10 mm and every mm, to measure with a ruler."""
    pen.line(x, y, x + GAUGE, y, stroke=INK, width=0.3)
    for step in range(0, int(GAUGE) + 1):
        length = 4.0 if step % 10 == 0 else 2.5 if step % 5 == 0 else 1.4
        pen.line(x + step, y, x + step, y + length, stroke=INK, width=0.12)
        if step % 10 == 0:
            pen.centred(str(step), x + step, y - 2.6, size=MIN_SIZE, fill=INK)
    pen.text(_("Ce trait mesure exactement 100 mm. Plus court ou plus long : l’impression a "
               "été mise à l’échelle ; imprimez en « taille réelle » (100 %), jamais « ajuster "
               "à la page »."), Rect(x + GAUGE + 4, y - 4, pen.w - PAGE_MARGIN - x - GAUGE - 4,
                                     12), size=7.5, min_size=MIN_SIZE, label=_("jauge"))


def cue_box(w: float, h: float) -> Rect:
    return Rect(PAGE_MARGIN, h - 90, w - 2 * PAGE_MARGIN, 14)


def ruler(pen: Pen, x: float, y: float, *, vertical: bool, sign: int) -> None:
    """A scale from −RULER_HALF to +RULER_HALF mm, zero on (x, y), ticks every half mm.

    `sign` −1 numbers it against the axis (positive to the left, or downwards).
    """
    if vertical:
        pen.line(x, y - RULER_HALF, x, y + RULER_HALF, stroke=INK, width=0.15)
    else:
        pen.line(x - RULER_HALF, y, x + RULER_HALF, y, stroke=INK, width=0.15)
    for half_mm in range(-2 * RULER_HALF, 2 * RULER_HALF + 1):
        at = half_mm / 2
        length = 4.0 if half_mm == 0 else 2.6 if half_mm % 2 == 0 else 1.4
        if vertical:
            pen.line(x, y + at, x + length, y + at, stroke=INK, width=0.1)
        else:
            pen.line(x + at, y, x + at, y + length, stroke=INK, width=0.1)
        if half_mm % 4:
            continue
        value = sign * at
        label = f"{value:+g}".replace("-", "−") if value else "0"
        # Labels every 2 mm, alternately nearer and farther, so that they never touch.
        stagger = 3.0 if half_mm % 8 else 0.0
        if vertical:
            pen.centred(label, x + 7 + stagger, y + at, size=MIN_SIZE, fill=INK)
        else:
            pen.centred(label, x + at, y + 6.5 + stagger, size=MIN_SIZE, fill=INK)


def millimetres(value: float) -> str:
    """Return « 1,5 » or « −1 »: a number of mm as French writes it."""
    return f"{value:g}".replace(".", ",").replace("-", "−")


def front_page(pen: Pen, options) -> None:
    offsets = {"x": millimetres(options.offset_x), "y": millimetres(options.offset_y)}
    if options.backs == BACKS_SEPARATE:
        first = _("1. Imprimez la page 1 à 100 %, remettez la feuille dans le bac en la "
                  "retournant autour de son grand bord, imprimez la page 2 : comme vos "
                  "cartes en « tous les rectos, puis tous les versos », avec leurs décalages.")
    else:
        first = _("1. Imprimez cette feuille recto verso, à 100 %, avec les réglages de vos "
                  "cartes : même bord de retournement, mêmes décalages.")
    bottom = _title(pen, _("Calibrage recto verso — recto"), [
        first,
        _("2. Mesurez le trait de 100 mm ci-dessous."),
        _("3. Lisez le cadre « Bord de retournement » par transparence."),
        _("4. Regardez la feuille devant une fenêtre, ce côté face à vous : chaque croix du "
          "verso se voit à travers le papier. Lisez sur la règle horizontale le chiffre où "
          "passe son trait vertical (X), sur la règle verticale celui où passe son trait "
          "horizontal (Y)."),
        _("5. Ajoutez ces nombres aux décalages déjà saisis (ici X = %(x)s mm, Y = %(y)s mm) "
          "et saisissez le résultat pour ce mode de dos ; un autre mode se mesure sur sa "
          "propre feuille. 0 partout : l’imprimante est alignée.") % offsets,
    ])
    gauge(pen, PAGE_MARGIN, bottom - 9)
    box = cue_box(pen.w, pen.h)
    pen.dashed_rect(box, stroke=INK)
    pen.text(_("Bord de retournement : derrière ce cadre, le verso doit dire « bon bord », "
               "à l’endroit."), box.inset(3, 2), size=8, min_size=MIN_SIZE,
             valign="middle", label=_("retournement"))
    sign_x, sign_y = reading_signs(options.backs)
    for x, y in targets(pen.w, pen.h):
        ruler(pen, x, y + ARM, vertical=False, sign=sign_x)
        ruler(pen, x + ARM, y, vertical=True, sign=sign_y)
        pen.circle(x, y, 0.5, fill=GREY)


def back_page(pen: Pen, options) -> None:
    w, h = pen.w, pen.h
    # Between the crosses, whichever way the sheet turns: they must show through clearly.
    pen.text(_("Calibrage recto verso — verso. Ce côté ne se lit pas : regardez le recto "
               "par transparence."), Rect(PAGE_MARGIN, h - 66, w - 2 * PAGE_MARGIN, 6),
             size=9, font=BOLD, fill=GREY, align="centre", valign="middle", label=_("titre"))
    flip = _flip(options, w, h)
    box = cue_box(w, h)
    # Behind the recto's cue as the chosen flip puts it; where the other flip would put it,
    # drawn upside down, so that a wrong flip reads upright there instead.
    # Behind the frame's left part: turned the wrong way, the message lands clear of the
    # middle target's cross.
    cx, cy = flip(box.x + CUE_WIDTH / 2 + 5, box.centre[1])
    pen.text(_("✓ bon bord"), Rect(cx - CUE_WIDTH / 2, cy - 5, CUE_WIDTH, 10), size=14,
             font=BOLD, fill=GREEN, align="centre", valign="middle", label=_("bon bord"))
    wx, wy = w - cx, h - cy
    with pen.transformed(wx, wy, rotate=180):
        pen.text(_("✗ mauvais bord : choisissez l’autre bord de retournement"),
                 Rect(-CUE_WIDTH / 2, -6, CUE_WIDTH, 12), size=10, min_size=10, font=BOLD,
                 fill=RED, align="centre", valign="middle", label=_("mauvais bord"))
    for x, y in targets(w, h):
        bx, by = flip(x, y)
        pen.line(bx - CROSS_HALF, by, bx + CROSS_HALF, by, stroke=RED, width=0.3)
        pen.line(bx, by - CROSS_HALF, bx, by + CROSS_HALF, stroke=RED, width=0.3)


def calibration_pages(options, items) -> list[Page]:
    if options.backs == BACKS_FOLD:
        raise SheetError(_("La feuille de calibrage mesure un recto verso : choisissez un "
                           "retournement bord long ou bord court, ou « tous les rectos, puis "
                           "tous les versos ». Le pliage n’a pas de décalage à mesurer."))
    return [Page(lambda pen: front_page(pen, options)),
            Page(lambda pen: back_page(pen, options))]


CALIBRATION = Sheets(
    slug="calibrage",
    label=gettext_lazy("Feuille de calibrage recto verso"),
    description=gettext_lazy("Une feuille qui vérifie l’échelle et le bord de retournement, "
                             "et mesure en mm le décalage entre recto et verso de votre "
                             "imprimante."),
    pages=calibration_pages,
    duplex=True,
    alone=True,
)

__all__ = ["CALIBRATION", "reading_signs", "targets"]
