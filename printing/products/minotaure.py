"""Printable products of Le jeu du Minotaure: the labyrinth board, Thésée and Ariane cards,
the Thésée marble variant's card, and the marbles' colour chart.

The board is drawn from cms.games.labyrinth, the geometry the web player's physics uses,
so the printed walls are the walls marbles bounce off on screen.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.lib.units import mm

from cms.games.labyrinth import Arc, Labyrinth, Segment, standard_labyrinth
from cms.games.minotaure import COLOURS, SPEC

from ..draw import WHITE, Path, Pen
from ..sheets import TILE_OVERLAP, Rect, Tile, TileSpec
from ..text import BOLD, MIN_SIZE, REGULAR, printable
from ..text import width as text_width
from .base import Deck, Page, Sheets
from .style import GAME_COLOURS, GOLD, GREY, INK, PAGE_MARGIN, back_pattern, card_frame, scale

GAME = "minotaure"
BROWN = GAME_COLOURS[GAME]
PARCHMENT = "#f7f0e1"
ROOM_FLOOR = "#ead9b8"
MINOTAUR_RED = "#8e1b12"
THREAD_RED = "#b3261e"
GLUE_GREY = "#9a9a9a"
GLUE_TINT = "#595959"  # printed at a quarter: the board shows through the glue zone
ARIANE_CARDS = SPEC.rules.ariane_cards
HAIRLINE = 0.2


def colour_label(name: str) -> str:
    """Return a palette name as printed: « rouge » → « Rouge »."""
    return name[:1].upper() + name[1:]


def french_number(value: float, digits: int = 1) -> str:
    return f"{value:.{digits}f}".rstrip("0").rstrip(".").replace(".", ",")


# --- the board ------------------------------------------------------------------------------


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
    widths = [text_width(char, font, size) / mm for char in value]
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

    pen.circle(0, 0, lab.board_radius, fill=PARCHMENT, stroke=BROWN, width=1.0)
    pen.circle(0, 0, lab.room_inner_radius, fill=ROOM_FLOOR)
    for start in lab.prisoner_starts:
        pen.circle(start.x, start.y, lab.marble_diameter / 2, fill=PARCHMENT,
                   stroke=COLOURS[start.colour], width=1.2)
        pen.circle(start.x, start.y, lab.marble_diameter / 2 + 0.6, stroke=GREY,
                   width=HAIRLINE)
    room_size = label_size(8)
    # Just inside the room's wall, clear of the prisoners' circles.
    arc_text(pen, _("SALLE CENTRALE"), lab.room_inner_radius - 1.5 - room_size * 0.14,
             90, size=room_size, fill=BROWN)
    _draw_minotaur_start(pen, lab, label_size(8))
    draw_walls(pen, lab, colour=BROWN, width=lab.wall_thickness)
    rim = (lab.outer_radius + lab.wall_thickness / 2 + lab.board_radius) / 2
    arc_text(pen, _("LE JEU DU MINOTAURE"), rim, 90, size=label_size(9), fill=BROWN)
    arc_text(pen, _("LE DÉDALE"), rim, 270, size=label_size(9), fill=BROWN, outward=False)


def _draw_minotaur_start(pen: Pen, lab: Labyrinth, size: float) -> None:
    start = lab.minotaur_start
    r = lab.minotaur_diameter / 2
    pen.circle(start.x, start.y, r + 1.5, fill=WHITE, stroke=MINOTAUR_RED, width=0.8)
    pen.circle(start.x, start.y, r, stroke=MINOTAUR_RED, width=0.3)
    pen.centred("M", start.x, start.y, size=22, font=BOLD, fill=MINOTAUR_RED)
    # The label follows the corridor just past the start, clockwise.
    label = _("DÉPART DU MINOTAURE")
    gap = r + 4 + text_width(printable(label), BOLD, size) / mm / 2
    angle = start.angle - math.degrees(gap / start.radius)
    upper_half = 0 <= angle % 360 <= 180
    arc_text(pen, label, start.radius, angle, size=size, fill=MINOTAUR_RED, outward=upper_half)


# --- the tiled board ------------------------------------------------------------------------


def tile_name(tile: Tile) -> str:
    return f"{chr(ord('A') + tile.column)}{tile.row + 1}"


def tile_label(tile: Tile) -> str:
    return _("Feuille %(name)s — colonne %(column)s, rangée %(row)s") % {
        "name": tile_name(tile), "column": tile.column + 1, "row": tile.row + 1}


def alignment_crosses(tiles: list[Tile]) -> list[tuple[float, float]]:
    """Return, in board mm, the crosses both tiles of every overlap print at the same spot.

    Each sits on the edge where the next sheet is cut: once cut, the half cross left on
    that sheet lines up with the whole cross on the sheet under it.
    """
    by_place = {(t.column, t.row): t for t in tiles}
    crosses = []
    for tile in tiles:
        right = by_place.get((tile.column + 1, tile.row))
        if right is not None:
            crosses += [(right.window.x, tile.window.y + tile.window.h * k) for k in (0.25, 0.75)]
        below = by_place.get((tile.column, tile.row + 1))
        if below is not None:
            crosses += [(tile.window.x + tile.window.w * k, below.window.top)
                        for k in (0.25, 0.75)]
    return crosses


def _cross(pen: Pen, x: float, y: float) -> None:
    pen.line(x - 5, y, x + 5, y, stroke=INK, width=0.25)
    pen.line(x, y - 5, x, y + 5, stroke=INK, width=0.25)
    pen.circle(x, y, 2.2, stroke=INK, width=0.25)


def _glue_strip(pen: Pen, strip: Rect, *, vertical: bool) -> None:
    # See-through, so the board shows under the glue zone and the sheets line up by eye.
    pen.rect(strip, fill=GLUE_TINT, opacity=0.25)
    length = strip.h if vertical else strip.w
    count = max(1, int(length // 60))
    for i in range(count):
        k = (i + 0.5) / count
        x = strip.x + strip.w / 2 if vertical else strip.x + strip.w * k
        y = strip.y + strip.h * k if vertical else strip.y + strip.h / 2
        with pen.transformed(x, y, rotate=90 if vertical else 0):
            label = _("coller ici")
            label_w = text_width(printable(label), BOLD, 7) / mm + 3
            pen.rect(Rect(-label_w / 2, -2.2, label_w, 4.4), fill=WHITE, radius=1)
            pen.centred(label, 0, 0, size=7, font=BOLD, fill="#555555")


def _arrow(pen: Pen, x: float, y: float, dx: float, dy: float, size: float = 3.0) -> None:
    """A small solid triangle at (x, y) pointing along (dx, dy)."""
    px, py = -dy, dx
    tip = (x + dx * size, y + dy * size)
    pen.polygon([tip, (x + px * size * 0.6, y + py * size * 0.6),
                 (x - px * size * 0.6, y - py * size * 0.6)], fill=GLUE_GREY)


def _assembly_map(pen: Pen, tiles: list[Tile], current: Tile, spec: TileSpec, box: Rect) -> None:
    """All sheets in a small grid, this one dark, the board's circle over them."""
    columns, rows = spec.columns, spec.rows
    cell = min(box.w / columns, box.h / rows)
    x0 = box.right - cell * columns
    y_top = box.top
    zoom = cell * columns / spec.size
    for tile in tiles:
        w = tile.window.w * zoom
        h = tile.window.h * zoom
        x = x0 + tile.window.x * zoom
        y = y_top - (spec.size - tile.window.y) * zoom
        here = tile == current
        pen.rect(Rect(x, y, w, h), fill=BROWN if here else WHITE, stroke=GREY, width=HAIRLINE)
    r = spec.size / 2 * zoom
    pen.circle(x0 + r, y_top - r, r, stroke=GOLD, width=0.3)


def tile_page(lab: Labyrinth, spec: TileSpec, tile: Tile, tiles: list[Tile]) -> Page:
    """One sheet of the tiled board: its part of the board, then the marks to assemble it."""

    def draw(pen: Pen) -> None:
        area, window = tile.area, tile.window
        dx, dy = area.x - window.x, area.y - window.y
        has_right = any(t.row == tile.row and t.column == tile.column + 1 for t in tiles)
        has_below = any(t.column == tile.column and t.row == tile.row + 1 for t in tiles)
        with pen.clipped(Path().rect(area)):
            draw_board(pen, lab, dx + lab.board_radius, dy + lab.board_radius)
            if has_right:
                _glue_strip(pen, Rect(area.right - TILE_OVERLAP, area.y, TILE_OVERLAP, area.h),
                            vertical=True)
            if has_below:
                _glue_strip(pen, Rect(area.x, area.y, area.w, TILE_OVERLAP), vertical=False)
            for x, y in alignment_crosses(tiles):
                _cross(pen, x + dx, y + dy)
        _assembly_marks(pen, tile, area, has_right=has_right, has_below=has_below)
        _margins(pen, lab, spec, tile, tiles, area)

    return Page(draw=draw)


def _assembly_marks(pen: Pen, tile: Tile, area: Rect, *, has_right: bool,
                    has_below: bool) -> None:
    pen.rect(area, stroke=GREY, width=HAIRLINE)
    dash = (2.5, 1.5)
    if tile.column > 0:
        pen.line(area.x, 0, area.x, pen.h, stroke=INK, width=0.3, dash=dash)
        _margin_note(pen, _("couper ici"), area.x - 4, area.y + area.h / 2, rotate=90)
    if tile.row > 0:
        pen.line(0, area.top, pen.w, area.top, stroke=INK, width=0.3, dash=dash)
    if has_right:
        for k in (0.2, 0.5, 0.8):
            _arrow(pen, area.right + 5.5, area.y + area.h * k, -1, 0)
    if has_below:
        for k in (0.15, 0.85):
            _arrow(pen, area.x + area.w * k, area.y - 4.5, 0, 1)


def _margin_note(pen: Pen, value: str, x: float, y: float, *, rotate: int = 0) -> None:
    with pen.transformed(x, y, rotate=rotate):
        pen.centred(value, 0, 0, size=6.5, fill=GREY)


def _margins(pen: Pen, lab: Labyrinth, spec: TileSpec, tile: Tile, tiles: list[Tile],
             area: Rect) -> None:
    edge = 4.5  # printers leave the last few millimetres blank
    top = pen.h - edge
    # The margin is cut away on every sheet: the labels may run past a narrow last column.
    band = Rect(area.x, area.top + 1.2, pen.w - edge - area.x, top - area.top - 1.2)
    map_w = 22.0
    text = Rect(band.x, band.y, band.w - map_w - 3, band.h)
    # The sheet's name on the left, how to assemble on its right: two lines of small print.
    name = pen.text(tile_label(tile), Rect(text.x, text.y, text.w * 0.45, text.h), size=9,
                    font=BOLD, fill=INK, valign="middle", label=_("feuille"))
    name_w = (max(text_width(line, name.font, name.size) for line in name.lines) / mm + 4
              if name else text.w * 0.45)
    note = _("Plateau de %(size)s cm en %(count)s feuilles, à imprimer à 100 %% : coupez le "
             "pointillé, collez sur la zone grise.") % {
        "size": french_number(board_size(lab) / 10), "count": len(tiles)}
    pen.text(str(note), Rect(text.x + name_w, text.y, text.w - name_w, text.h), size=7,
             fill=GREY, valign="middle", label=_("mode d’emploi"))
    _assembly_map(pen, tiles, tile, spec, Rect(band.right - map_w, band.y, map_w, band.h))


def tiled_board_pages(options, items) -> list[Page]:
    lab = standard_labyrinth()
    spec = TileSpec(options.paper, board_size(lab))
    tiles = spec.tiles()
    return [tile_page(lab, spec, tile, tiles) for tile in tiles]


# --- the board on one A3 sheet --------------------------------------------------------------

A3_HEADER = 22.0
A3_LEGEND = 80.0


def a3_zoom(lab: Labyrinth, w: float, h: float) -> float:
    """Return how much the board shrinks to fit an A3 page between its header and legend."""
    room_w = w - 2 * PAGE_MARGIN
    room_h = h - 2 * PAGE_MARGIN - A3_HEADER - A3_LEGEND
    return min(1.0, room_w / board_size(lab), room_h / board_size(lab))


def a3_scale_text(lab: Labyrinth, zoom: float) -> str:
    return _("Échelle %(percent)s %% : plateau de %(size)s cm ; prévoir des billes de "
                 "%(marble)s mm et un calot de %(minotaur)s mm.") % {
        "percent": round(zoom * 100),
        "size": french_number(board_size(lab) * zoom / 10),
        "marble": round(lab.marble_diameter * zoom),
        "minotaur": round(lab.minotaur_diameter * zoom)}


LEGEND = (
    gettext_lazy("Salle centrale : les dix prisonniers y commencent ; le Minotaure qui y entre "
                 "élimine tous les prisonniers présents."),
    gettext_lazy("Départ du Minotaure : entre deux intersections du cercle extérieur."),
    gettext_lazy("Prisonniers : une bille sur chaque cercle de couleur, au centre du labyrinthe."),
    gettext_lazy(
        "Un coup qui fait passer une bille à travers un mur est annulé : toutes les billes "
        "déplacées reviennent à leur place."),
)


def a3_board_page(options, items) -> list[Page]:
    lab = standard_labyrinth()

    def draw(pen: Pen) -> None:
        zoom = a3_zoom(lab, pen.w, pen.h)
        top = pen.h - PAGE_MARGIN
        pen.text(_("Le jeu du Minotaure — plateau"),
                 Rect(PAGE_MARGIN, top - 10, pen.w - 2 * PAGE_MARGIN, 10), size=20,
                 font=BOLD, fill=BROWN, align="centre", valign="middle", label=_("titre"))
        pen.text(a3_scale_text(lab, zoom),
                 Rect(PAGE_MARGIN, top - A3_HEADER + 2, pen.w - 2 * PAGE_MARGIN, 8), size=10,
                 fill=INK, align="centre", valign="middle", label=_("échelle"))
        side = board_size(lab) * zoom
        centre_y = top - A3_HEADER - side / 2
        draw_board(pen, lab, pen.w / 2, centre_y, zoom)
        _legend(pen, lab, Rect(PAGE_MARGIN + 10, PAGE_MARGIN, pen.w - 2 * PAGE_MARGIN - 20,
                               centre_y - side / 2 - PAGE_MARGIN - 6))

    return [Page(draw=draw, paper="a3")]


def _legend(pen: Pen, lab: Labyrinth, box: Rect) -> None:
    row = min(16.0, box.h / len(LEGEND))
    y = box.top - (box.h - row * len(LEGEND)) / 2 - row
    marks = (_legend_room, _legend_minotaur, _legend_prisoners, _legend_wall)
    for mark, text in zip(marks, LEGEND, strict=True):
        mark(pen, box.x + 6, y + row / 2)
        pen.text(str(text), Rect(box.x + 16, y, box.w - 16, row), size=10, min_size=7,
                 valign="middle", label=_("légende"))
        y -= row


def _legend_room(pen: Pen, x: float, y: float) -> None:
    pen.circle(x, y, 5, fill=ROOM_FLOOR, stroke=BROWN, width=1.2)


def _legend_minotaur(pen: Pen, x: float, y: float) -> None:
    pen.circle(x, y, 5, fill=WHITE, stroke=MINOTAUR_RED, width=0.6)
    pen.centred("M", x, y, size=10, font=BOLD, fill=MINOTAUR_RED)


def _legend_prisoners(pen: Pen, x: float, y: float) -> None:
    for i, value in enumerate(list(COLOURS.values())[:3]):
        pen.circle(x - 3.5 + i * 3.5, y, 2.2, fill=PARCHMENT, stroke=value, width=0.6)


def _legend_wall(pen: Pen, x: float, y: float) -> None:
    pen.line(x - 5, y, x + 5, y, stroke=BROWN, width=2.2)


# --- Thésée and Ariane cards ----------------------------------------------------------------


@dataclass(frozen=True)
class ColourCard:
    """One Thésée card: the colour of the prisoner its holder secretly plays."""

    name: str
    hex: str


def thesee_cards() -> list[ColourCard]:
    return [ColourCard(name, value) for name, value in COLOURS.items()]


def thesee_title(card: ColourCard) -> str:
    return _("Thésée — %(colour)s") % {"colour": colour_label(card.name)}


def thesee_front(pen: Pen, card: ColourCard) -> None:
    """The colour as a big marble, its name, and the reminder to keep it secret."""
    k = scale(pen)
    body = card_frame(pen, colour=BROWN, title=_("Thésée"))
    name_h = 9 * k
    note_h = 7 * k
    disc_box = Rect(body.x, body.y + name_h + note_h, body.w,
                    body.h - name_h - note_h)
    r = min(disc_box.w, disc_box.h) * 0.42
    cx, cy = disc_box.centre
    pen.circle(cx, cy, r + 1.2 * k, fill=WHITE, stroke=BROWN, width=0.5)
    draw_marble(pen, cx, cy, r, card.hex)
    pen.text(thesee_title(card), Rect(body.x, body.y + note_h, body.w, name_h), size=11 * k,
             font=BOLD, fill=INK, align="centre", valign="middle", label=_("couleur"))
    pen.text(_("Gardez votre couleur secrète."), Rect(body.x, body.y, body.w, note_h),
             size=readable(7 * k), fill=GREY, align="centre", valign="middle",
             label=_("rappel"))


def readable(size: float) -> float:
    """Return `size`, raised to the smallest readable size if a small card scaled it under."""
    return max(size, MIN_SIZE)


def fitted_height(fitted) -> float:
    """Return the mm a fitted text takes, from its first line's top to its last baseline."""
    if fitted is None:
        return 0.0
    return (fitted.leading * (len(fitted.lines) - 1) + fitted.size) / mm


def rule_texts(pen: Pen, body: Rect, texts) -> float:
    """Set `texts` (text, size, font, colour, label) from the bottom of `body` upwards,
    each as tall as its lines; return the height they take, for the picture above."""
    k = scale(pen)
    y = body.y
    for value, size, font, fill, label in reversed(texts):
        box = Rect(body.x, y, body.w, body.h * 0.5)
        fitted = pen.fit(str(value), box, size=readable(size * k), font=font, label=label)
        height = fitted_height(fitted)
        if fitted is not None:
            pen.draw_fitted(fitted, Rect(body.x, y, body.w, height), align="centre",
                            valign="bottom", fill=fill)
        y += height + 1.8 * k
    return y - body.y


def mini_labyrinth(pen: Pen, cx: float, cy: float, radius: float, colour: str) -> None:
    """The board's own labyrinth, small, as an emblem."""
    lab = standard_labyrinth()
    zoom = radius / lab.board_radius
    with pen.transformed(cx, cy, scale=zoom):
        draw_walls(pen, lab, colour=colour, width=max(lab.wall_thickness, 0.5 / zoom))


def card_back(pen: Pen, title: str) -> None:
    """The shared back: the board's labyrinth in gold over the deck's name."""
    back_pattern(pen, colour=BROWN, title="")
    k = scale(pen)
    cx, cy = pen.box.centre
    radius = min(pen.w * 0.32, pen.h * 0.24)
    mini_labyrinth(pen, cx, cy + pen.h * 0.08, radius, GOLD)
    title_top = cy + pen.h * 0.08 - radius - 2 * k
    pen.text(title, Rect(pen.w * 0.12, title_top - 9 * k, pen.w * 0.76, 9 * k), size=13 * k,
             min_size=6.5, font=BOLD, fill=WHITE, align="centre", valign="middle",
             label=_("titre"))


def thesee_back_form(pen: Pen) -> None:
    card_back(pen, _("Thésée"))


def ariane_back_form(pen: Pen) -> None:
    card_back(pen, _("Ariane"))


def ball_of_thread(pen: Pen, cx: float, cy: float, r: float) -> None:
    """Ariane's ball of thread, its loose end winding off to the left for 2.2 radii."""
    k = r / 10
    x0, y0 = cx - r * 0.6, cy - r * 0.8
    loose_end = Path().move_to(x0, y0)
    for dx, dy in ((-1.2, -1.0), (-1.7, -0.5), (-2.2, -0.9)):
        x1, y1 = cx + dx * r, cy + dy * r
        loose_end.curve_to((x0 + x1) / 2, y0, (x0 + x1) / 2, y1, x1, y1)
        x0, y0 = x1, y1
    pen.shape(loose_end, stroke=THREAD_RED, width=0.45 * k, cap="round")
    pen.circle(cx, cy, r, fill="#efd3ad", stroke=THREAD_RED, width=0.6 * k)
    # Great circles seen at three tilts: the look of thread wound round a ball.
    with pen.clipped(Path().circle(cx, cy, r)):
        for tilt in (20, 80, 140):
            with pen.transformed(cx, cy, rotate=tilt):
                for flatness in (0.3, 0.6, 0.88):
                    pen.shape(Path().ellipse(0, 0, r, r * flatness), stroke=THREAD_RED,
                              width=0.3 * k)


ARIANE_RULE = (
    (gettext_lazy("À votre tour, défaussez-la : une pichenette de plus."), 9.5, BOLD, INK,
     gettext_lazy("règle")),
    (gettext_lazy(
        "Avec n’importe quelle bille, sauf le Minotaure. Qui élimine un joueur qui a encore "
        "la sienne la lui prend."), 7.5, REGULAR, GREY, gettext_lazy("précision")),
)


def ariane_front(pen: Pen, number: int) -> None:
    """Ariane's thread and the rule: one more flick, and what eliminating a holder wins."""
    body = card_frame(pen, colour=BROWN, title=_("Ariane"))
    text_h = rule_texts(pen, body, ARIANE_RULE)
    art = Rect(body.x, body.y + text_h, body.w, body.h - text_h)
    # The ball and its thread (2.2 radii to the left) stay inside the body.
    r = min(art.w / 4.6, art.h / 2.4)
    ball_of_thread(pen, art.centre[0] + r * 1.1, art.centre[1] + r * 0.1, r)


# --- the Thésée marble variant --------------------------------------------------------------

THESEE_GOLD = "#e2b93b"  # the Thésée marble, in no prisoner's colour
THESEE_RULE = (
    (gettext_lazy("Mise en place : la bille Thésée part avec les prisonniers, dans la salle "
                  "centrale."), 7.5, REGULAR, INK, gettext_lazy("mise en place")),
    (gettext_lazy("Thésée touche le Minotaure : il est éliminé."), 9.5, BOLD, INK,
     gettext_lazy("règle")),
    (gettext_lazy(
        "La partie s’arrête aussitôt. Le joueur qui a joué ce coup gagne, quel que soit le "
        "nombre de prisonniers en jeu."), 7.5, REGULAR, INK, gettext_lazy("victoire")),
)


def thesee_meets_minotaur(pen: Pen, box: Rect) -> None:
    """The gold Thésée marble touching the Minotaur's calot, which is crossed out."""
    lab = standard_labyrinth()
    ratio = lab.minotaur_diameter / lab.marble_diameter
    r = min(box.h / 2 * 0.8 / ratio, box.w * 0.75 / (2 + 2 * ratio))
    big = r * ratio
    cx, cy = box.centre
    left = cx - (r + big) / 2
    right = left + r + big
    draw_marble(pen, left, cy, r, THESEE_GOLD)
    pen.circle(right, cy, big, fill=WHITE, stroke=MINOTAUR_RED, width=max(0.3, big * 0.06))
    pen.centred("M", right, cy, size=big * mm * 0.9, font=BOLD, fill=MINOTAUR_RED)
    reach = big * 0.62
    for sign in (1, -1):
        pen.line(right - reach, cy - sign * reach, right + reach, cy + sign * reach,
                 stroke=INK, width=max(0.3, big * 0.07))


def thesee_variant_front(pen: Pen, number: int) -> None:
    """The variant's setup, what Thésée does to the Minotaur, and who wins then."""
    k = scale(pen)
    body = card_frame(pen, colour=BROWN, title=_("Variante Thésée"))
    text_h = rule_texts(pen, body, THESEE_RULE)
    art = Rect(body.x, body.y + text_h, body.w, body.h - text_h - 1.0 * k)
    thesee_meets_minotaur(pen, art)


def thesee_variant_back_form(pen: Pen) -> None:
    card_back(pen, _("Variante Thésée"))


# --- the colour chart -----------------------------------------------------------------------


def chart_page(options, items) -> list[Page]:
    lab = standard_labyrinth()

    def draw(pen: Pen) -> None:
        inner = pen.box.inset(PAGE_MARGIN)
        pen.text(_("Le jeu du Minotaure — nuancier des billes"),
                 Rect(inner.x, inner.top - 12, inner.w, 12), size=18, font=BOLD, fill=BROWN,
                 align="centre", valign="middle", label=_("titre"))
        pen.text(_("Posez chaque bille prisonnier sur sa couleur : la carte Thésée de "
                       "même couleur désigne la bille que son joueur défend en secret. Une "
                       "couleur que personne ne tient est une bille neutre."),
                 Rect(inner.x, inner.top - 32, inner.w, 18), size=10, min_size=7,
                 align="centre", valign="middle", label=_("mode d’emploi"))
        row_h = lab.minotaur_diameter + 3
        footer = Rect(inner.x, inner.y, inner.w, 2 * row_h)
        grid = Rect(inner.x, footer.top + 4, inner.w, inner.h - 36 - footer.h - 4)
        names = list(COLOURS.items())
        per_column = math.ceil(len(names) / 2)
        cell_h = grid.h / per_column
        col_w = grid.w / 2
        for index, (name, value) in enumerate(names):
            column, row = divmod(index, per_column)
            cell = Rect(grid.x + column * col_w, grid.top - (row + 1) * cell_h, col_w, cell_h)
            _chart_entry(pen, lab, cell.inset(3, 2), name, value)
        _chart_minotaur(pen, lab, Rect(footer.x, footer.y + row_h, footer.w, row_h))
        _chart_thesee(pen, lab, Rect(footer.x, footer.y, footer.w, row_h))

    return [Page(draw=draw)]


def _chart_entry(pen: Pen, lab: Labyrinth, cell: Rect, name: str, value: str) -> None:
    pen.rect(cell, fill=PARCHMENT, stroke=GREY, width=HAIRLINE, radius=3)
    swatch = Rect(cell.x + 4, cell.y + 4, min(cell.h * 1.1, cell.w * 0.24), cell.h - 8)
    pen.rect(swatch, fill=value, stroke=INK, width=0.25, radius=2)
    marble_x = swatch.right + 4 + lab.marble_diameter / 2
    draw_marble(pen, marble_x, cell.y + cell.h / 2, lab.marble_diameter / 2, value)
    text_x = marble_x + lab.marble_diameter / 2 + 5
    pen.text(colour_label(name), Rect(text_x, cell.y + cell.h / 2, cell.right - text_x - 3,
                                      cell.h / 2 - 3), size=16, min_size=8, font=BOLD,
             valign="bottom", label=_("couleur"))
    pen.text(_("bille de %(size)s mm") % {"size": french_number(lab.marble_diameter)},
             Rect(text_x, cell.y + 3, cell.right - text_x - 3, cell.h / 2 - 4.5), size=8,
             font=REGULAR, fill=GREY, valign="top", label=_("taille"))


def _chart_footer_text(pen: Pen, box: Rect, x: float, value: str, label) -> None:
    pen.text(value, Rect(x, box.y, box.right - x, box.h), size=10, min_size=7,
             valign="middle", label=label)


def _chart_minotaur(pen: Pen, lab: Labyrinth, box: Rect) -> None:
    r = lab.minotaur_diameter / 2
    cx = box.x + 6 + r
    pen.circle(cx, box.y + box.h / 2, r, fill=WHITE, stroke=MINOTAUR_RED, width=0.6)
    pen.centred("M", cx, box.y + box.h / 2, size=18, font=BOLD, fill=MINOTAUR_RED)
    _chart_footer_text(pen, box, cx + r + 6, _(
        "Le Minotaure est un calot de %(size)s mm, d’une autre couleur que les dix "
        "prisonniers ; posez-le entre deux intersections du cercle extérieur.") % {
        "size": french_number(lab.minotaur_diameter)}, _("minotaure"))


def _chart_thesee(pen: Pen, lab: Labyrinth, box: Rect) -> None:
    """The variant's extra marble, where the Minotaur's calot stands above it."""
    r = lab.marble_diameter / 2
    cx = box.x + 6 + lab.minotaur_diameter / 2
    draw_marble(pen, cx, box.y + box.h / 2, r, THESEE_GOLD)
    _chart_footer_text(pen, box, cx + lab.minotaur_diameter / 2 + 6, _(
        "Variante Thésée : une bille de plus, de %(size)s mm, d’une couleur qu’aucun "
        "prisonnier n’a (dorée, par exemple). Elle part avec les prisonniers ; si elle "
        "touche le Minotaure, il est éliminé et le joueur qui a joué ce coup gagne.") % {
        "size": french_number(lab.marble_diameter)}, _("variante Thésée"))


# --- the products ---------------------------------------------------------------------------

PLATEAU = Sheets(
    slug="plateau",
    label=gettext_lazy("Plateau (assemblé)"),
    description=gettext_lazy(
        "Le labyrinthe en taille réelle (50 cm), réparti sur plusieurs feuilles "
        "avec zones de collage, croix de repérage et plan d’assemblage."),
    pages=tiled_board_pages,
)

PLATEAU_A3 = Sheets(
    slug="plateau-a3",
    label=gettext_lazy("Plateau A3"),
    description=gettext_lazy(
        "Le labyrinthe réduit sur une seule feuille A3, son échelle imprimée."),
    pages=a3_board_page,
)

THESEE = Deck(
    slug="thesee",
    label=gettext_lazy("Cartes Thésée"),
    description=gettext_lazy("Dix cartes, une par couleur de prisonnier, au dos commun."),
    items=thesee_cards,
    front=thesee_front,
    back_form=thesee_back_form,
)

ARIANE = Deck(
    slug="ariane",
    label=gettext_lazy("Cartes Ariane"),
    description=gettext_lazy("Dix cartes de la variante Ariane : une pichenette de plus."),
    items=lambda: list(range(1, ARIANE_CARDS + 1)),
    front=ariane_front,
    back_form=ariane_back_form,
)

THESEE_VARIANT = Deck(
    slug="variante-thesee",
    label=gettext_lazy("Carte de la variante Thésée"),
    description=gettext_lazy(
        "Une carte à poser sur la table quand on joue avec la bille Thésée : sa "
        "mise en place, ce qu’elle fait au Minotaure et qui gagne alors."),
    items=lambda: [1],
    front=thesee_variant_front,
    back_form=thesee_variant_back_form,
)

COULEURS = Sheets(
    slug="couleurs",
    label=gettext_lazy("Nuancier des billes"),
    description=gettext_lazy(
        "Les dix couleurs et leur nom, pour associer billes et cartes Thésée."),
    pages=chart_page,
)

PRODUCTS = (PLATEAU, PLATEAU_A3, THESEE, ARIANE, THESEE_VARIANT, COULEURS)
