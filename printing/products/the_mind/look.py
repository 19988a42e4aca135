"""The Mind's look: its colours, the cool-to-warm gradient, the icons and the shared back."""

from __future__ import annotations

import colorsys
import math

from django.utils.translation import gettext as _

from cms.games.spec import PALETTE
from cms.games.the_mind import RULES, SPEC

from ...draw import WHITE, Pen, star_points
from ...sheets import Rect
from ...text import BOLD, MIN_SIZE, fonts, width
from ...units import to_mm
from ..style import back_pattern, framed, scale

COLOUR = "#3b2a6b"  # the game's purple: level cards and every back
LIFE_RED = PALETTE["rouge"]
SHURIKEN_BLUE = PALETTE["bleu"]
STEEL = "#c9d1da"
STEEL_DARK = "#4a5562"

LOWEST, HIGHEST = RULES.cards

# The gradient runs from a cool blue round through violet to a warm orange, so every
# colour on the way stays dark enough for white numbers.
COOL_HUE, WARM_HUE = 215.0, 385.0
# Every front's frame runs between the cut and the safe zone, so the text inside never
# touches it; 2 mm in, a slightly off cut still leaves it whole and even.
FRAME_INSET = 2.0  # mm


def colour_for(value: int) -> str:
    """Return the card's colour on the cool-to-warm gradient from the lowest card up."""
    t = (value - LOWEST) / (HIGHEST - LOWEST)
    hue = (COOL_HUE + t * (WARM_HUE - COOL_HUE)) % 360
    red, green, blue = colorsys.hsv_to_rgb(hue / 360, 0.78, 0.80 - 0.08 * t)
    return "#{:02x}{:02x}{:02x}".format(*(round(c * 255) for c in (red, green, blue)))


def lighter(colour: str, amount: float) -> str:
    """Return `colour` mixed with white by `amount` (0: unchanged, 1: white)."""
    channels = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in channels)


def width_mm(label: str, size: float) -> float:
    """Return how wide a bold label is, in mm, at `size` pt."""
    # text.width reads the font metrics but does not register the fonts itself.
    fonts()
    return to_mm(width(label, BOLD, size))


def text_size(pen: Pen, points: float) -> float:
    """Return a poker card's text size scaled to this face, never below the readable size."""
    return max(points * scale(pen), MIN_SIZE)


def frame(pen: Pen, colour: str) -> None:
    """A thin rounded line just inside the trim, around everything a front shows."""
    pen.rect(framed(pen, FRAME_INSET), stroke=colour, width=0.35, radius=pen.w * 0.05)


def heart(pen: Pen, cx: float, cy: float, size: float, *, fill: str,
          stroke: str | None = None) -> None:
    """Draw a heart `size` mm wide, centred on (cx, cy)."""
    r = size / 2
    points = []
    for i in range(72):
        t = 2 * math.pi * i / 72
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        # The curve spans y from -17 to 12: shift it so the heart sits on its centre.
        points.append((cx + r * x / 16, cy + r * (y + 2.5) / 16))
    pen.polygon(points, fill=fill, stroke=stroke, width=0.4)


def shuriken(pen: Pen, cx: float, cy: float, size: float, *, hole: str) -> None:
    """Draw a four-pointed throwing star `size` mm across, with its centre hole."""
    r = size / 2
    line = max(0.2, size * 0.015)
    pen.polygon(star_points(cx, cy, r, r * 0.4, points=4), fill=STEEL, stroke=STEEL_DARK,
                width=line)
    pen.circle(cx, cy, r * 0.26, stroke=STEEL_DARK, width=line)
    pen.circle(cx, cy, r * 0.12, fill=hole, stroke=STEEL_DARK, width=line)


def card_back(pen: Pen) -> None:
    """The game's name under a ring of dots running from the coolest card to the warmest."""
    back_pattern(pen, colour=COLOUR, title="")
    cx, cy = pen.box.centre
    ring_y = cy + pen.h * 0.07
    ring = pen.w * 0.2
    dot = pen.w * 0.035
    dots = 12
    for i in range(dots):
        angle = math.pi / 2 - 2 * math.pi * i / dots
        value = LOWEST + round(i * (HIGHEST - LOWEST) / (dots - 1))
        pen.circle(cx + ring * math.cos(angle), ring_y + ring * math.sin(angle), dot,
                   fill=colour_for(value))
    shuriken(pen, cx, ring_y, ring * 1.1, hole=COLOUR)
    title_y = ring_y - ring - dot - pen.h * 0.06
    pen.text(SPEC.name, Rect(pen.w * 0.12, title_y - pen.h * 0.05, pen.w * 0.76, pen.h * 0.1),
             size=text_size(pen, 12), font=BOLD, fill=WHITE, align="centre", valign="middle",
             label=_("titre"), french=False)
