"""The labyrinth drawing: walls, central room, starting places and the board's rim labels.

The board is drawn from cms.games.labyrinth, the geometry the web player's physics uses,
so the printed walls are the walls marbles bounce off on screen.
"""

from __future__ import annotations

import math

from django.utils.translation import gettext as _

from cms.games.labyrinth import Arc, Labyrinth, Segment
from cms.games.minotaure import COLOURS

from ...draw import WHITE, Path, Pen
from ...text import BOLD, MIN_SIZE, printable
from ...text import width as text_width
from ...units import to_mm
from ..style import GREY, INK
from .look import COLOUR, HAIRLINE, MINOTAUR_RED, PARCHMENT, ROOM_FLOOR


def board_size(lab: Labyrinth) -> float:
    """Return the side of the square the round board is printed in, in mm."""
    return 2 * lab.board_radius


def arc_text(pen: Pen, value: str, radius: float, centre_angle: float, *, size: float,
             font: str = BOLD, fill: str = INK, outward: bool = True) -> None:
    """Draw our own short label along a circle, centred on `centre_angle` (degrees).

    Outward letters read clockwise over the top of the circle; inward ones read
    counter-clockwise along the bottom, so both stay upright.
    """
    value = printable(value)
    widths = [to_mm(text_width(char, font, size)) for char in value]
    total = sum(widths)
    direction = -1 if outward else 1
    angle = centre_angle - direction * math.degrees(total / 2 / radius)
    for char, char_w in zip(value, widths, strict=True):
        middle = angle + direction * math.degrees(char_w / 2 / radius)
        theta = math.radians(middle)
        with pen.transformed(radius * math.cos(theta), radius * math.sin(theta),
                             rotate=middle - 90 if outward else middle + 90):
            pen.centred(char, 0, 0, size=size, font=font, fill=fill)
        angle += direction * math.degrees(char_w / radius)


def draw_walls(pen: Pen, lab: Labyrinth, *, colour: str, width: float) -> None:
    """Stroke every wall of the labyrinth, `width` mm thick with round ends."""
    for wall in lab.walls():
        if isinstance(wall, Segment):
            path = Path().move_to(wall.x1, wall.y1).line_to(wall.x2, wall.y2)
        elif isinstance(wall, Arc):
            path = Path().arc(wall.cx, wall.cy, wall.radius, wall.start, wall.sweep)
        else:
            continue
        pen.shape(path, stroke=colour, width=width, cap="round", join="round")


def draw_marble(pen: Pen, x: float, y: float, r: float, fill: str) -> None:
    """A marble seen from above: a coloured disc, a dark edge and a gleam."""
    pen.circle(x, y, r, fill=fill, stroke=INK, width=max(0.15, r * 0.04))
    pen.circle(x - r * 0.35, y + r * 0.35, r * 0.22, fill=WHITE)


def draw_board(pen: Pen, lab: Labyrinth, cx: float, cy: float, zoom: float = 1.0) -> None:
    """Draw the whole board with its centre at (cx, cy) mm on the page, `zoom` times life size.

    Everything inside is drawn in the labyrinth's own millimetres, centre at (0, 0).
    """
    with pen.transformed(cx, cy, scale=zoom):
        _draw_board(pen, lab, zoom)


def _draw_board(pen: Pen, lab: Labyrinth, zoom: float) -> None:
    # A reduced board shrinks its labels less than its walls, and never under MIN_SIZE.
    def label_size(size: float) -> float:
        return max(size * min(1.0 / zoom, 1.4), MIN_SIZE / zoom)

    pen.circle(0, 0, lab.board_radius, fill=PARCHMENT, stroke=COLOUR, width=1.0)
    pen.circle(0, 0, lab.room_inner_radius, fill=ROOM_FLOOR)
    for start in lab.prisoner_starts:
        pen.circle(start.x, start.y, lab.marble_diameter / 2, fill=PARCHMENT,
                   stroke=COLOURS[start.colour], width=1.2)
        pen.circle(start.x, start.y, lab.marble_diameter / 2 + 0.6, stroke=GREY,
                   width=HAIRLINE)
    room_size = label_size(8)
    # Just inside the room's wall, clear of the prisoners' circles.
    arc_text(pen, _("SALLE CENTRALE"), lab.room_inner_radius - 1.5 - room_size * 0.14,
             90, size=room_size, fill=COLOUR)
    _draw_minotaur_start(pen, lab, label_size(8))
    draw_walls(pen, lab, colour=COLOUR, width=lab.wall_thickness)
    rim = (lab.outer_radius + lab.wall_thickness / 2 + lab.board_radius) / 2
    arc_text(pen, _("LE JEU DU MINOTAURE"), rim, 90, size=label_size(9), fill=COLOUR)
    arc_text(pen, _("LE DÉDALE"), rim, 270, size=label_size(9), fill=COLOUR, outward=False)


def _draw_minotaur_start(pen: Pen, lab: Labyrinth, size: float) -> None:
    start = lab.minotaur_start
    r = lab.minotaur_diameter / 2
    pen.circle(start.x, start.y, r + 1.5, fill=WHITE, stroke=MINOTAUR_RED, width=0.8)
    pen.circle(start.x, start.y, r, stroke=MINOTAUR_RED, width=0.3)
    pen.centred("M", start.x, start.y, size=22, font=BOLD, fill=MINOTAUR_RED)
    # The label follows the corridor just past the start, clockwise.
    label = _("DÉPART DU MINOTAURE")
    gap = r + 4 + to_mm(text_width(printable(label), BOLD, size)) / 2
    angle = start.angle - math.degrees(gap / start.radius)
    upper_half = 0 <= angle % 360 <= 180
    arc_text(pen, label, start.radius, angle, size=size, fill=MINOTAUR_RED, outward=upper_half)
