"""The look of Les 12 Coups de Midi on paper: its colours, a card's header, ticks, backs.

What every face of the game shares; `printing.products.style` has what every game shares.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext as _

from cms.games import kind_of
from cms.games.spec import PALETTE

from ...draw import WHITE, Pen
from ...layout.rows import fitting_size
from ...sheets import Rect
from ...text import BOLD, LEADING, MIN_SIZE, NNBSP, width
from ...units import to_mm
from ..style import (
    ACCENT_RISE,
    DESCENT_SINK,
    GOLD,
    PAPER,
    SIDE_BEARING,
    back_pattern,
    framed,
    ink_box,
    ink_on,
    title_size,
    top_inset,
)

COLOUR = "#c8102e"  # the game's signature red: headers, backs, discs
TINT = "#fbe7ea"  # the signature red, pale: behind an answer
RIGHT_INK = PALETTE["vert"]
RIGHT_TINT = "#e2f3e5"
WRONG_INK = PALETTE["rouge"]
HIDDEN_TINT = "#ececec"
EMBLEM = "12"  # on every back, banknote and star

HAIR = 0.1  # mm added to a box measured for its text, so rounding never overflows it
MAX_BODY_SIZE = 10.0  # pt: the largest text a card's body starts from (a duel's question)


def pt(base: float, k: float, floor: float = MIN_SIZE) -> float:
    """Return a text size that follows the face's scale but never drops below `floor`."""
    return max(base * k, floor)


def ink_height(lines: int, size: float) -> float:
    """Return the height in mm `lines` lines of `size` pt take, strokes included."""
    return to_mm(size) * (LEADING * (lines - 1) + 1 + ACCENT_RISE + DESCENT_SINK)


def grouped(number: int) -> str:
    """Return a whole number the French way, thousands apart: « 1 200 »."""
    return f"{number:,}".replace(",", NNBSP)


def kind_name(kind: str) -> str:
    """Return the name of a content kind as a card prints it: « Coup d’envoi »."""
    return str(kind_of(kind).label)


# --- a card's header -----------------------------------------------------------------------

KIND_RATIO = 0.8  # the kind's size next to the title's
BAND_UNDER = 1.3  # mm of band under the title's line
HEADER_GAP = 1.3  # mm between the band and the body
TITLE_GAP = 2.0  # mm between the title and the kind on its right


@dataclass(frozen=True)
class Header:
    """A card's header band: its height and the title's lines and size."""

    band: float  # mm under the top edge
    size: float
    lines: int
    kind_w: float  # mm the kind takes on the right, 0 when the title is the kind


def header_of(pen: Pen, title: str, kind: str) -> Header:
    """Lay the title (or, with none, the kind) out on one line, two if it must, the kind
    on the right.

    The title's line starts where the safe zone does; the band holds it and a little
    more under it, so a long title makes its own card's band taller, not every card's.
    """
    size = title_size(pen)
    safe = pen.safe
    kind_w = 0.0
    if title:
        kind_w = to_mm(width(kind, BOLD, max(size * KIND_RATIO, MIN_SIZE)))
    # As wide as the title's ink box will be (see `ink_box`) at the largest size.
    title_w = (safe.w - (kind_w + TITLE_GAP if kind_w else 0.0)
               - 2 * SIDE_BEARING * to_mm(size))
    shown = title or kind
    lines, fitted = 1, fitting_size(shown, BOLD, size, title_w, 1)
    if fitted is None:
        lines, fitted = 2, fitting_size(shown, BOLD, size, title_w, 2)
    # Too long even on two lines: the band is laid out for two and the pen reports it.
    fitted = fitted or MIN_SIZE
    band = top_inset(pen) + ink_height(lines, fitted) + HAIR + BAND_UNDER
    return Header(band, fitted, lines, kind_w)


def frame(pen: Pen, title: str, kind: str, *, colour: str = COLOUR) -> Rect:
    """Draw a card's paper and header: its title (or kind) left, the kind right.

    Return the body: the safe zone under the band.
    """
    header = header_of(pen, title, kind)
    pen.background(PAPER)
    pen.rect(Rect(-pen.bleed, pen.h - header.band, pen.w + 2 * pen.bleed,
                  header.band + pen.bleed), fill=colour)
    safe = pen.safe
    line = Rect(safe.x, pen.h - header.band + BAND_UNDER, safe.w,
                ink_height(header.lines, header.size) + HAIR)
    text = ink_on(colour)
    if header.kind_w:
        kind_size = max(header.size * KIND_RATIO, MIN_SIZE)
        pen.text(kind, ink_box(line, kind_size), size=kind_size, font=BOLD, fill=text,
                 align="right", valign="middle", max_lines=1, french=False, label=_("type"))
        line = Rect(line.x, line.y, line.w - header.kind_w - TITLE_GAP, line.h)
    pen.text(title or kind, ink_box(line, header.size), size=header.size, font=BOLD,
             fill=text, valign="middle", max_lines=header.lines, label=_("titre"))
    # The last line's tails (g, p, q) may reach under its box: they stay in the safe zone.
    bottom = safe.y + DESCENT_SINK * to_mm(MAX_BODY_SIZE)
    return Rect(safe.x, bottom, safe.w, pen.h - header.band - HEADER_GAP - bottom)


# --- marks ---------------------------------------------------------------------------------


def tick(pen: Pen, x: float, y: float, size: float, *, colour: str = RIGHT_INK) -> None:
    """Draw a check mark in a `size` mm square whose bottom-left corner is (x, y)."""
    stroke = max(0.35, size * 0.16)
    pen.line(x + size * 0.05, y + size * 0.5, x + size * 0.38, y + size * 0.12,
             stroke=colour, width=stroke)
    pen.line(x + size * 0.38, y + size * 0.12, x + size * 0.98, y + size * 0.9,
             stroke=colour, width=stroke)


# --- backs ---------------------------------------------------------------------------------

BACK_FRAME = 0.07  # of the face's width: the white frame of a back, as the game's backs have


def back_frame(pen: Pen) -> Rect:
    """Draw a back's white and gold frames, above the face's identifier if it has one.

    Return the inside of the gold frame.
    """
    outer = framed(pen, pen.w * BACK_FRAME)
    pen.rect(outer, stroke=WHITE, width=0.6, radius=2.5)
    gold = outer.inset(1.4)
    pen.rect(gold, stroke=GOLD, width=0.3, radius=2)
    return gold


def kind_back(kind: str) -> Callable[[Pen], None]:
    """Return the back of a card or fiche of `kind`: the game's red pattern, the kind's
    name on it (in the language of the print, not of the import)."""

    def draw(pen: Pen) -> None:
        back_pattern(pen, colour=COLOUR, title=kind_name(kind), emblem=EMBLEM)

    return draw
