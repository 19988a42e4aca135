"""The board in print: life size over several sheets to cut and glue, or reduced on A3.

The tiled board's sheets each carry their part of the board, glue zones, alignment
crosses, cutting lines and a small map of the assembly; the A3 page has a legend instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cms.games.labyrinth import Labyrinth, standard_labyrinth
from cms.games.minotaure import COLOURS

from ...draw import WHITE, Path, Pen
from ...sheets import TILE_OVERLAP, Rect, Tile, TileSpec
from ...text import BOLD, printable
from ...text import width as text_width
from ...units import to_mm
from ..base import Page, Sheets
from ..style import GOLD, GREY, INK, PAGE_MARGIN
from .board import board_size, draw_board
from .look import COLOUR, HAIRLINE, MINOTAUR_RED, PARCHMENT, ROOM_FLOOR, french_number

if TYPE_CHECKING:
    from ...render import PrintOptions

GLUE_GREY = "#9a9a9a"
GLUE_TINT = "#595959"  # printed at a quarter: the board shows through the glue zone


def tile_name(tile: Tile) -> str:
    """Return a sheet's name: its column's letter and its row's number (« B1 »)."""
    return f"{chr(ord('A') + tile.column)}{tile.row + 1}"


def tile_label(tile: Tile) -> str:
    """Return the line that names a sheet and says where it goes."""
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
            label_w = to_mm(text_width(printable(label), BOLD, 7)) + 3
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
        pen.rect(Rect(x, y, w, h), fill=COLOUR if here else WHITE, stroke=GREY, width=HAIRLINE)
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
    name_w = (to_mm(max(text_width(line, name.font, name.size) for line in name.lines)) + 4
              if name else text.w * 0.45)
    note = _("Plateau de %(size)s cm en %(count)s feuilles, à imprimer à 100 %% : coupez le "
             "pointillé, collez sur la zone grise.") % {
        "size": french_number(board_size(lab) / 10), "count": len(tiles)}
    pen.text(str(note), Rect(text.x + name_w, text.y, text.w - name_w, text.h), size=7,
             fill=GREY, valign="middle", label=_("mode d’emploi"))
    _assembly_map(pen, tiles, tile, spec, Rect(band.right - map_w, band.y, map_w, band.h))


def tiled_board_pages(options: PrintOptions, items: object) -> list[Page]:
    """One page per sheet of the life-size board, on the maker's paper."""
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
    """Return the A3 board's scale, and the marble sizes it then wants."""
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


def a3_board_page(options: PrintOptions, items: object) -> list[Page]:
    """The whole board reduced to fit one A3 page, its scale and a legend under it."""
    lab = standard_labyrinth()

    def draw(pen: Pen) -> None:
        zoom = a3_zoom(lab, pen.w, pen.h)
        top = pen.h - PAGE_MARGIN
        pen.text(_("Le jeu du Minotaure — plateau"),
                 Rect(PAGE_MARGIN, top - 10, pen.w - 2 * PAGE_MARGIN, 10), size=20,
                 font=BOLD, fill=COLOUR, align="centre", valign="middle", label=_("titre"))
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
    pen.circle(x, y, 5, fill=ROOM_FLOOR, stroke=COLOUR, width=1.2)


def _legend_minotaur(pen: Pen, x: float, y: float) -> None:
    pen.circle(x, y, 5, fill=WHITE, stroke=MINOTAUR_RED, width=0.6)
    pen.centred("M", x, y, size=10, font=BOLD, fill=MINOTAUR_RED)


def _legend_prisoners(pen: Pen, x: float, y: float) -> None:
    for i, value in enumerate(list(COLOURS.values())[:3]):
        pen.circle(x - 3.5 + i * 3.5, y, 2.2, fill=PARCHMENT, stroke=value, width=0.6)


def _legend_wall(pen: Pen, x: float, y: float) -> None:
    pen.line(x - 5, y, x + 5, y, stroke=COLOUR, width=2.2)


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
