"""The colour chart: each prisoner's colour, its name and its marble, to match marbles
with Thésée cards; the Minotaur's calot and the variant's Thésée marble at the foot."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cms.games.labyrinth import Labyrinth, standard_labyrinth
from cms.games.minotaure import COLOURS

from ...draw import WHITE, Pen
from ...sheets import Rect
from ...text import BOLD, REGULAR
from ..base import Page, Sheets
from ..style import GREY, INK, PAGE_MARGIN
from .board import draw_marble
from .look import (
    COLOUR,
    HAIRLINE,
    MINOTAUR_RED,
    PARCHMENT,
    THESEE_GOLD,
    colour_label,
    french_number,
)

if TYPE_CHECKING:
    from ...render import PrintOptions


def chart_page(options: PrintOptions, items: object) -> list[Page]:
    """One page: the ten colours in two columns, the odd marbles under them."""
    lab = standard_labyrinth()

    def draw(pen: Pen) -> None:
        inner = pen.box.inset(PAGE_MARGIN)
        pen.text(_("Le jeu du Minotaure — nuancier des billes"),
                 Rect(inner.x, inner.top - 12, inner.w, 12), size=18, font=BOLD, fill=COLOUR,
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


def _chart_footer_text(pen: Pen, box: Rect, x: float, value: str, label: str) -> None:
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


COULEURS = Sheets(
    slug="couleurs",
    label=gettext_lazy("Nuancier des billes"),
    description=gettext_lazy(
        "Les dix couleurs et leur nom, pour associer billes et cartes Thésée."),
    pages=chart_page,
)
