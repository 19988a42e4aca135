"""The look every product shares: colours, a card's frame, its header and footer.

Sizes are relative to the face, so the same face function works on poker, mini and
tarot cards.
"""

from __future__ import annotations

from ..draw import BLACK, WHITE, Pen
from ..sheets import Rect
from ..text import BOLD

INK = BLACK
PAPER = WHITE
GREY = "#8a8a8a"
LIGHT = "#efece6"

# One signature colour per game, for headers and backs.
GAME_COLOURS = {
    "douze-coups": "#c8102e",
    "millionnaire": "#16235a",
    "prendre-sa-place": "#e4572e",
    "the-mind": "#3b2a6b",
    "minotaure": "#5b3a1e",
}
GOLD = "#d4a017"

PAGE_MARGIN = 10.0  # mm around a full page's content


def header_height(pen: Pen) -> float:
    return max(6.0, pen.h * 0.09)


def scale(pen: Pen) -> float:
    """How big this face is next to a poker card's width: text sizes follow it."""
    return pen.w / 63.0


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
    band = header_height(pen)
    card_band(pen, colour=colour)
    safe = pen.safe
    head = Rect(safe.x, pen.h - band + 0.8, safe.w, band - 1.6)
    size = 9 * min(scale(pen), 1.3)
    if subtitle:
        pen.text(subtitle, Rect(safe.x + safe.w * 0.6, head.y, safe.w * 0.4, head.h),
                 size=size * 0.85, min_size=5, font=BOLD, fill=WHITE, align="right",
                 valign="middle", label="sous-titre", french=False)
        head = Rect(head.x, head.y, safe.w * 0.6, head.h)
    pen.text(title, head, size=size, min_size=5, font=BOLD, fill=WHITE, valign="middle",
             label="titre")
    return card_body(pen)


SAFE_GAP = 2.0


def footer(pen: Pen, text: str) -> None:
    """A small line at the bottom of the body: the card's reference, say."""
    safe = pen.safe
    pen.text(text, Rect(safe.x, safe.y, safe.w, 3.2), size=5.5, min_size=4.5, fill=GREY,
             align="right", valign="bottom", french=False, label="référence")


def back_pattern(pen: Pen, *, colour: str, title: str, emblem: str = "") -> None:
    """A plain back: colour to the bleed, a light frame and the game's name."""
    pen.background(colour)
    inner = pen.box.inset(pen.w * 0.07)
    pen.rect(inner, stroke=WHITE, width=0.6, radius=2.5)
    pen.rect(inner.inset(1.4), stroke=GOLD, width=0.3, radius=2)
    cx, cy = pen.box.centre
    if emblem:
        pen.centred(emblem, cx, cy + pen.h * 0.08, size=28 * scale(pen), font=BOLD,
                    fill=GOLD)
    pen.text(title, Rect(inner.x + 2, cy - pen.h * 0.18, inner.w - 4, pen.h * 0.16),
             size=11 * scale(pen), min_size=5, font=BOLD, fill=WHITE, align="centre",
             valign="middle", label="titre")


def numbered(pen: Pen, number: int, x: float, y: float, *, colour: str, radius: float = 3.0,
             text_colour: str = WHITE) -> None:
    """A numbered disc (question n°1 … n°5)."""
    pen.circle(x, y, radius, fill=colour)
    pen.centred(str(number), x, y, size=radius * 2.6, font=BOLD, fill=text_colour)
