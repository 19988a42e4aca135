"""The answer sheets: La Compet’ and Le Défi, two players' sheets to a page.

Each player writes down their answers and the format they chose; the Compet’ sheet also
keeps the two Qualifs answers and the starting square, the Défi sheet the coup de bluff.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cms.games.prendre_sa_place import (
    COMPET_SLOTS,
    FORMATS,
    RULES,
    SPEC,
    SUPER_CASH_POINTS,
    SUPER_CASH_POOL,
)

from ... import text as typo
from ...draw import WHITE, Pen
from ...layout.tables import CellContent, CellFn, Column, blank, checkbox, table, tick_cell
from ...sheets import Rect
from ...text import BOLD, REGULAR
from ...units import to_mm
from ..base import Page, Sheets
from ..style import GREY, LIGHT, PAGE_MARGIN
from .look import (
    COLOUR,
    FORMAT_COLOURS,
    RED,
    SUPER_CASH,
    points_label,
    sheet_header,
    signed,
    start_label,
    tag,
    tag_width,
    words,
)

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ...render import PrintOptions


# --- what both sheets share ----------------------------------------------------------------


def halves(pen: Pen) -> tuple[Rect, Rect]:
    """Two sheets to a page, one above the other, with a dashed line to cut between them."""
    m = PAGE_MARGIN
    gap = m
    h = (pen.h - 2 * m - gap) / 2
    pen.line(m / 2, pen.h / 2, pen.w - m / 2, pen.h / 2, stroke=GREY, width=0.25, dash=(2, 1.5))
    # The scissors on a gap in the line, inside the page's margin.
    pen.rect(Rect(m, pen.h / 2 - 1.8, 5.5, 3.6), fill=WHITE)
    pen.centred("✂", m + 2.75, pen.h / 2 + 0.2, size=10, fill=GREY)
    return (Rect(m, m + h + gap, pen.w - 2 * m, h), Rect(m, m, pen.w - 2 * m, h))


def write_in(pen: Pen, label: str, x: float, y: float, w: float, *, size: float = 8) -> None:
    """A label then a line to write on, the line's baseline at y."""
    label_w = to_mm(typo.width(typo.french(label), REGULAR, size)) + 1.5
    words(pen, label, Rect(x, y, label_w + 1, to_mm(size) * 1.4), size=size, valign="bottom")
    pen.line(x + label_w, y + 0.2, x + w, y + 0.2, stroke=GREY, width=0.25)


def section_title(pen: Pen, title: str, hint: str, x: float, top: float) -> float:
    """A bold title and a grey hint above a table; return the y under them."""
    title_w = to_mm(typo.width(typo.french(title), BOLD, 9)) + 2
    words(pen, title, Rect(x, top - 5, title_w + 1, 5), size=9, font=BOLD, fill=COLOUR)
    words(pen, hint, Rect(x + title_w + 2, top - 5, 120, 5), size=7.5, fill=GREY)
    return top - 6


def format_choice(pen: Pen, box: Rect) -> None:
    """Three boxes to tick the format chosen for a question, with its points."""
    step = box.w / len(FORMATS)
    middle = box.y + box.h / 2
    for i, answer_format in enumerate(FORMATS.values()):
        x = box.x + i * step + 1.2
        checkbox(pen, x, middle - 1.6)
        label = f"{answer_format.label} {points_label(answer_format.points)}"
        words(pen, label, Rect(x + 4, box.y, step - 5.5, box.h), size=6.5, font=BOLD,
              fill=FORMAT_COLOURS[answer_format.slug])


def format_cell(slot: str) -> CellFn:
    """A cell function: the tag of the format a Compet’ slot imposes, in its colour."""

    def draw(pen: Pen, box: Rect) -> None:
        label = _("SUPER CASH") if slot == SUPER_CASH else FORMATS[slot].label
        size = 6.5
        w = tag_width(label, size)
        tag(pen, label, box.x + (box.w - w) / 2, box.y + box.h / 2, size=size,
            colour=FORMAT_COLOURS[slot])

    return draw


def total_cell(label: str) -> CellFn:
    """A cell function: a bold label against the cell's right edge, before the total."""

    def draw(pen: Pen, box: Rect) -> None:
        words(pen, label, box.inset(2, 0.5), size=8, font=BOLD, align="right")

    return draw


# --- feuille La Compet’ --------------------------------------------------------------------


def compet_sheet(pen: Pen, area: Rect) -> None:
    """One player's sheet: the two Qualifs answers, the nine Compet’ answers, the Super Cash."""
    inner = sheet_header(pen, area, _("Feuille La Compet’"))
    y = inner.top - 6
    write_in(pen, _("Joueur :"), inner.x, y, inner.w * 0.45)
    write_in(pen, _("Thème :"), inner.x + inner.w * 0.5, y, inner.w * 0.5)
    qualifs_rows = 2
    compet_rows = len([s for s in COMPET_SLOTS if s != SUPER_CASH]) + 2
    fixed = 4 + 6 + 5 + 5.5 + 4 + 6 + 5
    row_h = min(8.0, (y - inner.y - fixed) / (qualifs_rows + compet_rows))
    number_w, tick_w, points_w = 9.0, 9.0, 16.0

    y -= 4
    y = section_title(pen, _("Les Qualifs"), _("cochez le format avant de répondre"),
                      inner.x, y)
    columns = [Column(_("N°"), number_w), Column(_("Format choisi"), 72.0),
               Column(_("Réponse"), 0), Column("✓", tick_w), Column(_("Points"), points_w)]
    rows: list[list[CellContent]] = [[str(n), format_choice, blank, tick_cell, blank]
                                     for n in (1, 2)]
    y = table(pen, inner.x, y, inner.w, columns, rows, row_h=row_h, head_h=5, colour=COLOUR)

    starts = RULES.compet_starts
    y -= 5.5
    words(pen, _("Case de départ de La Compet’ :"), Rect(inner.x, y - 1, 52, 5), size=7.5,
          font=BOLD)
    x = inner.x + 52
    for index, start in enumerate(starts):
        checkbox(pen, x, y + 0.3)
        label = f"{signed(start)} ({start_label(index, len(starts))})"
        words(pen, label, Rect(x + 4.2, y - 1, 30, 5), size=7.5)
        x += 33

    y -= 4
    y = section_title(pen, _("La Compet’"), _("toutes les questions dans l’ordre, puis un "
                                               "Super Cash"), inner.x, y)
    columns = [Column(_("N°"), number_w), Column(_("Format"), 24.0), Column(_("Vaut"), 14.0),
               Column(_("Réponse"), 0), Column("✓", tick_w), Column(_("Points"), points_w)]
    rows = []
    for number, slot in enumerate(COMPET_SLOTS, start=1):
        if slot == SUPER_CASH:
            continue
        rows.append([str(number), format_cell(slot), points_label(FORMATS[slot].points),
                     blank, tick_cell, blank])
    pool = _("question n° ____ (%(a)s à %(b)s) :") % {"a": SUPER_CASH_POOL[0],
                                                      "b": SUPER_CASH_POOL[-1]}
    rows.append([blank, format_cell(SUPER_CASH),
                 f"{signed(SUPER_CASH_POINTS)} / {signed(-SUPER_CASH_POINTS)}",
                 lambda pen, box: words(pen, pool, Rect(box.x + 1.5, box.y, 45, box.h),
                                        size=7, fill=GREY),
                 tick_cell, blank])
    rows.append([blank, blank, blank,
                 total_cell(_("Total : case de départ + points =")), blank, blank])
    table(pen, inner.x, y, inner.w, columns, rows, row_h=row_h, head_h=5, colour=COLOUR)


def compet_sheet_pages(options: PrintOptions, items: Iterable[object]) -> list[Page]:
    """One page: two Compet’ sheets."""

    def draw(pen: Pen) -> None:
        for area in halves(pen):
            compet_sheet(pen, area)

    return [Page(draw)]


# --- feuille Le Défi -----------------------------------------------------------------------


def defi_sheet(pen: Pen, area: Rect) -> None:
    """One player's Défi: a format to tick and an answer per question, then the bluff."""
    inner = sheet_header(pen, area, _("Feuille Le Défi"))
    y = inner.top - 6
    write_in(pen, _("Joueur :"), inner.x, y, inner.w * 0.34)
    x = inner.x + inner.w * 0.37
    for role in (_("Challenger"), _("Champion")):
        checkbox(pen, x, y)
        words(pen, role, Rect(x + 4.2, y - 0.8, 24, 5), size=8, font=BOLD)
        x += 26
    write_in(pen, _("Thème :"), x + 2, y, inner.right - x - 2)

    questions = SPEC.kind("defi").questions_per_card
    bluff_h = 24.0
    y -= 4
    row_h = min(9.0, (y - inner.y - bluff_h - 5 - 4) / (questions + 1))
    columns = [Column(_("N°"), 9.0)]
    columns += [Column(f"{f.label} {points_label(f.points)}", 19.0) for f in FORMATS.values()]
    columns += [Column(_("Réponse"), 0), Column("✓", 9.0), Column(_("Points"), 16.0)]
    ticks: list[CellContent] = [tick_cell] * len(FORMATS)
    rows: list[list[CellContent]] = [[str(n), *ticks, blank, tick_cell, blank]
                                     for n in range(1, questions + 1)]
    blanks: list[CellContent] = [blank] * (1 + len(FORMATS))
    rows.append([*blanks, total_cell(_("Total")), blank, blank])
    y = table(pen, inner.x, y, inner.w, columns, rows, row_h=row_h, head_h=5, colour=COLOUR)

    coup_de_bluff(pen, Rect(inner.x, y - 4 - bluff_h, inner.w, bluff_h))


def coup_de_bluff(pen: Pen, box: Rect) -> None:
    """Where the Champion's guess of the Challenger's exact score is written, and its outcome."""
    pen.rect(box, fill=LIGHT, stroke=RED, width=0.4, radius=1.5)
    line = box.top - 4.5
    tag_w = tag(pen, _("COUP DE BLUFF"), box.x + 2.5, line, size=7.5, colour=RED)
    words(pen, _("Avant le décompte, le Champion peut annoncer le score EXACT du Challenger ; "
                 "le Challenger peut refuser."),
          Rect(box.x + tag_w + 5, line - 2.5, box.w - tag_w - 7, 5), size=7.5)
    line -= 7.5
    write_in(pen, _("Score annoncé :"), box.x + 3, line - 1.2, 60, size=8)
    x = box.x + 72
    checkbox(pen, x, line - 1.5)
    words(pen, _("refusé par le Challenger"), Rect(x + 4.5, line - 2.5, 40, 5), size=7.5)
    words(pen, _("Sans bluff : à égalité ou mieux, le Champion garde sa place."),
          Rect(x + 46, line - 2.5, box.right - x - 48, 5), size=7, fill=GREY, align="right")
    line -= 6.5
    x = box.x + 3
    for outcome in (_("juste : le Champion garde sa place"),
                    _("faux : le Challenger prend sa place")):
        checkbox(pen, x, line - 1.5)
        words(pen, outcome, Rect(x + 4.5, line - 2.5, 64, 5), size=7.5)
        x += 69


def defi_sheet_pages(options: PrintOptions, items: Iterable[object]) -> list[Page]:
    """One page: two Défi sheets."""

    def draw(pen: Pen) -> None:
        for area in halves(pen):
            defi_sheet(pen, area)

    return [Page(draw)]


COMPET_SHEET = Sheets(
    slug="feuille-compet",
    label=gettext_lazy("Feuille La Compet’"),
    description=gettext_lazy("Deux feuilles par page : les deux réponses des Qualifs, les "
                             "neuf de La Compet’ avec leur format et leurs points, le Super "
                             "Cash et le total."),
    pages=compet_sheet_pages,
)

DEFI_SHEET = Sheets(
    slug="feuille-defi",
    label=gettext_lazy("Feuille Le Défi"),
    description=gettext_lazy("Deux feuilles par page : six réponses, le format coché pour "
                             "chacune, le total et le coup de bluff."),
    pages=defi_sheet_pages,
)
