"""The look of Tout le monde veut prendre sa place on paper: its colours and its marks.

The game's orange, the red of the armchair, a colour per answer format; the words every
product prints the same way (points, signed scores, who starts where); the pills and tags
that name a format, the legend of the formats, the header bands of cards and sheets, and
the red armchair itself.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from cms.games.prendre_sa_place import CARRE, CASH, DUO, FORMATS, SPEC
from cms.games.spec import PALETTE

from ... import text as typo
from ...draw import WHITE, Pen
from ...sheets import Rect
from ...text import BOLD, CONDENSED, CONDENSED_BOLD, REGULAR
from ...units import to_mm
from ..style import GREY, INK, scale

COLOUR = "#e4572e"  # the game's signature orange: headers, backs, the board
RED = PALETTE["rouge"]
DARK_RED = "#8e1b1b"
CUSHION = "#ea5b55"
TRAIL = "#f6c8b8"  # the path that links a track's squares
SUPER_CASH = "super-cash"  # the slot of COMPET_SLOTS that is not an answer format
FORMAT_COLOURS = {
    DUO.slug: PALETTE["vert"],
    CARRE.slug: PALETTE["bleu"],
    CASH.slug: PALETTE["violet"],
    SUPER_CASH: RED,
}


# --- words printed everywhere --------------------------------------------------------------


def points_label(points: int) -> str:
    """Return « 1 pt » or « 5 pts »."""
    return ngettext("%(n)s pt", "%(n)s pts", abs(points)) % {"n": points}


def signed(points: int) -> str:
    """Return +5 or −5, with a true minus sign."""
    return f"+{points}" if points >= 0 else f"\u2212{-points}"


def start_label(index: int, count: int) -> str:
    """Who starts on the index-th starting square: the best, the second, … the others."""
    if index == count - 1 and count > 1:
        return _("les autres")
    if index == 0:
        return _("1er")
    return _("%(n)se") % {"n": index + 1}


def words(pen: Pen, value: str, rect: Rect, *, size: float, font: str = REGULAR,
          fill: str = INK, align: str = "left", valign: str = "middle") -> None:
    """Draw our own fixed French text in a box."""
    pen.text(value, rect, size=size, font=font, fill=fill, align=align,
             valign=valign, label=value)


# --- pills and tags ------------------------------------------------------------------------


def pill(pen: Pen, label: str, box: Rect, *, size: float, colour: str) -> None:
    """A rounded coloured tag with its white label, our own text."""
    pen.rect(box, fill=colour, radius=box.h / 2)
    pen.centred(label, box.centre[0], box.centre[1], size=size, font=CONDENSED_BOLD,
                fill=WHITE)


def tag_width(label: str, size: float) -> float:
    """The width in mm of the tag `tag` draws for `label` at `size` pt."""
    return to_mm(typo.width(label, BOLD, size)) + to_mm(size) * 1.2


def tag(pen: Pen, label: str, x: float, middle: float, *, size: float, colour: str) -> float:
    """A rounded coloured tag with a white label; return its width."""
    w = tag_width(label, size)
    h = to_mm(size) * 1.6
    pen.rect(Rect(x, middle - h / 2, w, h), fill=colour, radius=h / 2)
    pen.centred(label, x + w / 2, middle, size=size, font=BOLD, fill=WHITE)
    return w


# --- the legend of the formats -------------------------------------------------------------


def legend_runs() -> list[tuple[str, str, str]]:
    """The legend as runs of text: (text, font, colour), each format in its colour."""
    runs: list[tuple[str, str, str]] = []
    for answer_format in FORMATS.values():
        if runs:
            runs.append((" · ", CONDENSED, GREY))
        runs.append((answer_format.label, CONDENSED_BOLD, FORMAT_COLOURS[answer_format.slug]))
        runs.append((" " + points_label(answer_format.points), CONDENSED, INK))
    return runs


def legend_width(size: float) -> float:
    """The width in mm of the legend at `size` pt."""
    return sum(to_mm(typo.width(typo.printable(text), font, size))
               for text, font, _colour in legend_runs())


def legend(pen: Pen, x: float, baseline: float, size: float) -> None:
    """« DUO 1 pt · CARRÉ 3 pts · CASH 5 pts », each format in its colour."""
    for text, font, colour in legend_runs():
        text = typo.printable(text)
        pen.label(text, x, baseline, size=size, font=font, fill=colour)
        x += to_mm(typo.width(text, font, size))


# --- header bands --------------------------------------------------------------------------


def card_header(pen: Pen, title: str, subtitle: str) -> float:
    """Paint the header band to the bleed, its title and kind inside the safe zone.

    Return the y of the band's bottom edge.
    """
    safe = pen.safe
    size = 9 * min(scale(pen), 1.3)
    bottom = safe.top - to_mm(size) * 1.2 - 2.0
    pen.rect(Rect(-pen.bleed, bottom, pen.w + 2 * pen.bleed, pen.h + pen.bleed - bottom),
             fill=COLOUR)
    # Accents stand above the letters' top: the box ends a little under the safe edge.
    head = Rect(safe.x, bottom + 1.0, safe.w, safe.top - to_mm(size) * 0.15 - bottom - 1.0)
    if subtitle:
        sub_size = max(typo.MIN_SIZE, size * 0.8)
        sub_w = min(to_mm(typo.width(typo.french(subtitle), BOLD, sub_size)) + 0.3,
                    head.w * 0.45)
        pen.text(subtitle, Rect(head.right - sub_w, head.y, sub_w, head.h), size=sub_size,
                 font=BOLD, fill=WHITE, align="right", valign="middle",
                 label=_("type de carte"))
        head = Rect(head.x, head.y, head.w - sub_w - 2.0, head.h)
    pen.text(title, head, size=size, font=BOLD, fill=WHITE, valign="middle",
             label=_("titre"))
    return bottom


def sheet_header(pen: Pen, area: Rect, title: str) -> Rect:
    """The coloured band at the top of an answer sheet; return the area under it."""
    band = Rect(area.x, area.top - 10, area.w, 10)
    pen.rect(band, fill=COLOUR, radius=1.5)
    words(pen, title, Rect(band.x + 3, band.y, band.w * 0.55, band.h), size=13, font=BOLD,
          fill=WHITE)
    words(pen, SPEC.name, Rect(band.x + band.w * 0.5, band.y, band.w * 0.5 - 3, band.h),
          size=8, fill=WHITE, align="right")
    return Rect(area.x, area.y, area.w, band.y - 2 - area.y)


# --- the red armchair ----------------------------------------------------------------------


def armchair(pen: Pen, cx: float, y: float, w: float) -> None:
    """Draw the red armchair, `w` mm wide, standing on y, centred on cx."""
    outline = max(0.15, w * 0.012)

    def part(x0: float, y0: float, x1: float, y1: float, fill: str, radius: float = 0.0,
             stroke: str = DARK_RED) -> None:
        pen.rect(Rect(cx + x0 * w, y + y0 * w, (x1 - x0) * w, (y1 - y0) * w), fill=fill,
                 stroke=stroke, width=outline, radius=radius * w)

    part(-0.42, 0.0, -0.32, 0.14, DARK_RED)
    part(0.32, 0.0, 0.42, 0.14, DARK_RED)
    part(-0.38, 0.28, 0.38, 1.0, RED, 0.16)
    part(-0.27, 0.46, 0.27, 0.9, CUSHION, 0.1)
    part(-0.46, 0.1, 0.46, 0.34, RED, 0.05)
    part(-0.34, 0.3, 0.34, 0.44, CUSHION, 0.06)
    part(-0.55, 0.1, -0.33, 0.64, RED, 0.1)
    part(0.33, 0.1, 0.55, 0.64, RED, 0.1)
