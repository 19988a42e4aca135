"""The look every product shares: colours, a card's frame, its header and footer.

Sizes are relative to the face, so the same face function works on poker, mini and
tarot cards.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from ..draw import BLACK, WHITE, Pen
from ..sheets import Rect
from ..text import BOLD, MIN_SIZE, width
from ..units import to_mm

INK = BLACK
PAPER = WHITE
GREY = "#8a8a8a"
LIGHT = "#efece6"

GOLD = "#d4a017"

PAGE_MARGIN = 10.0  # mm around a full page's content

# The pen sets a line in a box as tall as its size, the baseline 0.8 em under the top.
# In DejaVu, accented capitals (É) rise 0.13 em above that box, descenders and brackets
# sink 0.04 em under it, and a few letters (J) reach 0.06 em past their advance on either
# side: `ink_box` keeps room for them, so every stroke stays where the box was asked.
ACCENT_RISE = 0.13
DESCENT_SINK = 0.05
SIDE_BEARING = 0.06

TITLE_POINTS = 9.0  # a header's title on a poker card
FOOTER_SIZE = MIN_SIZE  # a card's reference: small print, never below the readable size
SAFE_GAP = 2.0  # between the header band and the body


def ink_on(background: str, *, dark: str = INK) -> str:
    """The text colour that reads on `background`: `dark` on a light colour, white on a
    dark one (by its luma, the lightness the eye sees)."""
    red, green, blue = (int(background[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return dark if 0.299 * red + 0.587 * green + 0.114 * blue > 0.6 else WHITE


def scale(pen: Pen) -> float:
    """How big this face is next to a poker card's width: text sizes follow it."""
    return pen.w / 63.0


def ink_box(rect: Rect, size: float) -> Rect:
    """Return `rect` shrunk so text of `size` pt set in it keeps every stroke inside it."""
    em = to_mm(size)
    return Rect(rect.x + SIDE_BEARING * em, rect.y + DESCENT_SINK * em,
                rect.w - 2 * SIDE_BEARING * em, rect.h - (ACCENT_RISE + DESCENT_SINK) * em)


def line_height(size: float) -> float:
    """Return the mm a single line of `size` pt takes in an `ink_box`."""
    return to_mm(size) * (1 + ACCENT_RISE + DESCENT_SINK)


def top_inset(pen: Pen) -> float:
    """Return how far the safe zone starts under the face's top edge."""
    return pen.h - pen.safe.top


def bottom_reserve(pen: Pen) -> float:
    """Return the strip the printer keeps under the safe zone (a numbered face's identifier).

    Zero on most faces; what sits near the bottom edge moves up by it.
    """
    safe = pen.safe
    return max(0.0, safe.y - top_inset(pen))


def framed(pen: Pen, inset: float) -> Rect:
    """Return the face inset by `inset` mm, raised above the bottom reserve if there is one."""
    inner = pen.box.inset(inset)
    reserve = bottom_reserve(pen)
    return Rect(inner.x, inner.y + reserve, inner.w, inner.h - reserve)


def title_size(pen: Pen) -> float:
    """Return the size of a header's title on this face."""
    return max(TITLE_POINTS * min(scale(pen), 1.3), MIN_SIZE)


def header_height(pen: Pen) -> float:
    """Return the header band's height: the title's line, the safe inset above and below.

    The title then sits inside the safe zone, in the middle of the band a reader sees.
    """
    return 2 * top_inset(pen) + line_height(title_size(pen))


def header_box(pen: Pen) -> Rect:
    """Return where a header's text goes: the middle of the band, inside the safe zone."""
    safe = pen.safe
    inset = top_inset(pen)
    band = header_height(pen)
    return Rect(safe.x, pen.h - band + inset, safe.w, band - 2 * inset)


def card_band(pen: Pen, *, colour: str) -> Rect:
    """Draw a card's paper and its coloured header band; return the body's rectangle."""
    band = header_height(pen)
    pen.background(PAPER)
    pen.rect(Rect(-pen.bleed, pen.h - band, pen.w + 2 * pen.bleed, band + pen.bleed),
             fill=colour)
    return card_body(pen)


def card_body(pen: Pen) -> Rect:
    """Return the rectangle under a card's header band, inside its safe zone."""
    safe = pen.safe
    return Rect(safe.x, safe.y, safe.w, pen.h - header_height(pen) - SAFE_GAP - safe.y)


def card_frame(pen: Pen, *, colour: str, title: str, subtitle: str = "") -> Rect:
    """Draw a card's header band with its title; return the body's rectangle."""
    card_band(pen, colour=colour)
    head = header_box(pen)
    size = title_size(pen)
    if subtitle:
        small = max(size * 0.85, MIN_SIZE)
        pen.text(subtitle, ink_box(Rect(head.x + head.w * 0.6, head.y, head.w * 0.4, head.h),
                                   small),
                 size=small, font=BOLD, fill=WHITE, align="right", valign="middle",
                 label=_("sous-titre"), french=False)
        head = Rect(head.x, head.y, head.w * 0.6 - 1.0, head.h)
    if title:
        pen.text(title, ink_box(head, size), size=size, font=BOLD, fill=WHITE,
                 valign="middle", label=_("titre"))
    return card_body(pen)


def footer(pen: Pen, text: str) -> Rect:
    """Draw a small line at the bottom right of the safe zone: the card's reference, say.

    Return the rectangle it takes, for what shares the bottom line.
    """
    safe = pen.safe
    row = Rect(safe.x, safe.y, safe.w, line_height(FOOTER_SIZE))
    fitted = pen.text(text, ink_box(row, FOOTER_SIZE), size=FOOTER_SIZE, fill=GREY,
                      align="right", valign="bottom", french=False, label=_("référence"))
    taken = to_mm(width(fitted.lines[0], fitted.font, fitted.size)) if fitted else row.w
    return Rect(row.right - taken, row.y, taken, row.h)


def back_pattern(pen: Pen, *, colour: str, title: str, emblem: str = "") -> None:
    """A plain back: colour to the bleed, a light frame and the game's name."""
    pen.background(colour)
    inner = framed(pen, pen.w * 0.07)
    pen.rect(inner, stroke=WHITE, width=0.6, radius=2.5)
    pen.rect(inner.inset(1.4), stroke=GOLD, width=0.3, radius=2)
    cx, cy = inner.centre
    if emblem:
        pen.centred(emblem, cx, cy + pen.h * 0.08, size=28 * scale(pen), font=BOLD,
                    fill=GOLD)
    if title:
        size = max(11 * scale(pen), MIN_SIZE)
        box = Rect(inner.x + 2, cy - pen.h * 0.18, inner.w - 4, pen.h * 0.16)
        pen.text(title, ink_box(box, size), size=size, font=BOLD, fill=WHITE,
                 align="centre", valign="middle", label=_("titre"))


def numbered(pen: Pen, number: int, x: float, y: float, *, colour: str, radius: float = 3.0,
             text_colour: str = WHITE) -> None:
    """A numbered disc (question n°1 … n°5)."""
    pen.circle(x, y, radius, fill=colour)
    pen.centred(str(number), x, y, size=max(radius * 2.6, MIN_SIZE), font=BOLD,
                fill=text_colour)
