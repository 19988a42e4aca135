"""The millionnaire's sheets: the game master's score pad (« bloc réponse ») and the prize
ladder poster, both with what a wrong answer pays."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cms.games.millionnaire import JOKERS, LADDER, RULES, SPEC
from cms.games.spec import LadderStep

from ...draw import WHITE, Pen
from ...sheets import Rect
from ...text import BOLD, CONDENSED, CONDENSED_BOLD, MIN_SIZE, amount, width
from ...units import to_mm, to_points
from ..base import Page, Sheets
from ..style import GOLD, GREY, LIGHT, PAGE_MARGIN, ink_on
from .jokers import joker_icon, joker_name
from .look import COLOUR, PLAYER_COLOURS, SAFE_LEVEL, TABLE_SIZE, lozenge

if TYPE_CHECKING:
    from ...render import PrintOptions


# --- what a wrong answer pays ----------------------------------------------------------------


@dataclass(frozen=True)
class FallbackBand:
    """A run of steps where a wrong answer pays the same: the safe level below them."""

    first: LadderStep
    last: LadderStep
    pays: int


def fallback_bands() -> list[FallbackBand]:
    """Return the runs of steps, lowest first, grouped by what a wrong answer there pays."""
    bands: list[FallbackBand] = []
    for step in LADDER:
        pays = SPEC.fallback_amount(step.number)
        if bands and bands[-1].pays == pays:
            bands[-1] = FallbackBand(bands[-1].first, step, pays)
        else:
            bands.append(FallbackBand(step, step, pays))
    return bands


def fallback_rule(band: FallbackBand) -> str:
    """Return what a wrong answer in `band` pays, with the steps it covers."""
    return _("%(pays)s (de %(low)s à %(high)s)") % {
        "low": amount(band.first.amount), "high": amount(band.last.amount),
        "pays": amount(band.pays)}


# --- the « bloc réponse » score pad ------------------------------------------------------------

ROUNDS = TABLE_SIZE  # every player is game master once
# Over a box a few millimetres wide, the jokers go by a short name.
SHORT_JOKER_NAMES = {"public": gettext_lazy("Public"), "ami": gettext_lazy("Ami")}


def ladder_strip(pen: Pen, area: Rect) -> None:
    """The fifteen steps left to right, the safe levels in gold, every amount the same size."""
    gap = 0.8
    cell_w = (area.w - gap * (len(LADDER) - 1)) / len(LADDER)
    # A millimetre each side keeps the million off the cell's border; the million's size is
    # every amount's, so the strip reads as one row.
    amount_box = Rect(0, 0, cell_w - 2.0, area.h * 0.5)
    widest = max(LADDER, key=lambda step: width(amount(step.amount), CONDENSED_BOLD, 1))
    fitted = pen.fit(amount(widest.amount), amount_box, size=8, font=CONDENSED_BOLD,
                     french=False, label=_("montant"))
    size = fitted.size if fitted else MIN_SIZE
    for step in LADDER:
        box = Rect(area.x + (step.number - 1) * (cell_w + gap), area.y, cell_w, area.h)
        pen.rect(box, fill=GOLD if step.safe else LIGHT, stroke=COLOUR, width=0.2, radius=1)
        pen.text(str(step.number), Rect(box.x, box.top - area.h * 0.45, box.w, area.h * 0.4),
                 size=7.5, font=BOLD, fill=COLOUR, align="centre", valign="middle",
                 label=_("numéro de la question"))
        pen.text(amount(step.amount), amount_box.moved(box.x + 1.0, box.y + 0.6), size=size,
                 font=CONDENSED_BOLD, fill=COLOUR, align="centre", valign="middle",
                 label=_("montant"), french=False)


def answer_pad(pen: Pen) -> None:
    """One sheet of the pad: players down, rounds across, gains, jokers and totals."""
    page = pen.box.inset(PAGE_MARGIN)
    top = page.top
    pen.text(_("Bloc réponse"), Rect(page.x, top - 9, page.w * 0.5, 9), size=20,
             font=BOLD, fill=COLOUR, valign="middle", label=_("titre"))
    pen.text(SPEC.name, Rect(page.x + page.w * 0.5, top - 9, page.w * 0.5, 9), size=12,
             font=BOLD, fill=GOLD, align="right", valign="middle", label=_("jeu"))
    top -= 12
    ladder_strip(pen, Rect(page.x, top - 11, page.w, 11))
    top -= 13
    swatch = Rect(page.x, top - 4.5, 16, 4.5)
    pen.rect(swatch, fill=GOLD, stroke=COLOUR, width=0.2, radius=1)
    pen.text(str(SAFE_LEVEL), swatch, size=8, font=BOLD, fill=COLOUR, align="centre",
             valign="middle", label=str(SAFE_LEVEL))
    rule = _("Mauvaise réponse, le joueur repart avec :") + " " + " · ".join(
        fallback_rule(band) for band in fallback_bands())
    pen.text(rule, Rect(swatch.right + 3, top - 5, page.right - swatch.right - 3, 5.5),
             size=8.5, font=BOLD, fill=COLOUR, valign="middle", label=_("paliers"))
    top -= 8
    note_h = 5.0
    grid = Rect(page.x, page.y + note_h + 2, page.w, top - page.y - note_h - 2)
    score_grid(pen, grid)
    note = _("Le maître de jeu note le gain de chaque joueur (barrer sa propre case) et "
                 "coche les jokers utilisés. Chaque joker ne sert qu’une fois par partie.")
    pen.text(note, Rect(page.x, page.y, page.w, note_h), size=8, fill=GREY, valign="middle",
             label=_("consigne"))


def score_grid(pen: Pen, grid: Rect) -> None:
    """Players × rounds: a line for the gain and three joker boxes per cell, then totals."""
    name_w, total_w = grid.w * 0.15, grid.w * 0.1
    round_w = (grid.w - name_w - total_w) / ROUNDS
    head_h = 13.0
    row_h = (grid.h - head_h) / TABLE_SIZE
    header = Rect(grid.x, grid.top - head_h, grid.w, head_h)
    pen.rect(header, fill=COLOUR)
    pen.text(_("Joueur"), Rect(grid.x + 2, header.y, name_w - 4, head_h), size=10,
             font=BOLD, fill=WHITE, valign="middle", label=_("joueur"))
    pen.text(_("Total"), Rect(grid.right - total_w + 2, header.y, total_w - 4, head_h),
             size=10, font=BOLD, fill=GOLD, align="centre", valign="middle",
             label=_("total"))
    joker_names = tuple(str(SHORT_JOKER_NAMES.get(key, label)) for key, label in JOKERS.items())
    for n in range(ROUNDS):
        x = grid.x + name_w + n * round_w
        pen.text(_("Manche %(n)s") % {"n": n + 1},
                 Rect(x + 1, header.top - 7, round_w - 2, 6), size=9, font=BOLD,
                 fill=WHITE, align="centre", valign="middle", label=_("manche"))
        for slot, name in enumerate(joker_names):
            sx = joker_slot_x(x, round_w, slot)
            pen.text(name, Rect(sx - round_w / 6 + 0.3, header.y + 0.8, round_w / 3 - 0.6, 4.5),
                     size=MIN_SIZE, font=CONDENSED, fill=GOLD, align="centre",
                     valign="middle", label=_("joker"), french=False)
    for row in range(TABLE_SIZE):
        player = row + 1
        y = header.y - (row + 1) * row_h
        if row % 2:
            pen.rect(Rect(grid.x, y, grid.w, row_h), fill=LIGHT)
        _name, seat_colour = PLAYER_COLOURS[row]
        disc = min(row_h * 0.3, 4.0)
        pen.circle(grid.x + 2 + disc, y + row_h / 2, disc, fill=seat_colour)
        pen.centred(str(player), grid.x + 2 + disc, y + row_h / 2, size=to_points(disc) * 1.1,
                    font=BOLD, fill=ink_on(seat_colour, dark=COLOUR))
        pen.line(grid.x + 4 + 2 * disc, y + row_h * 0.3, grid.x + name_w - 2, y + row_h * 0.3,
                 stroke=GREY, width=0.2)
        for n in range(ROUNDS):
            x = grid.x + name_w + n * round_w
            gain_line = y + row_h * 0.48
            pen.line(x + 2, gain_line, x + round_w - 5, gain_line, stroke=GREY, width=0.2,
                     dash=(0.6, 0.6))
            pen.centred("€", x + round_w - 3, gain_line + 1.2, size=8, fill=GREY)
            box = min(row_h * 0.22, 3.4)
            for slot in range(len(joker_names)):
                sx = joker_slot_x(x, round_w, slot)
                pen.rect(Rect(sx - box / 2, y + row_h * 0.1, box, box), stroke=COLOUR,
                         width=0.25, fill=WHITE)
        total_line = y + row_h * 0.4
        pen.line(grid.right - total_w + 3, total_line, grid.right - 6, total_line, stroke=COLOUR,
                 width=0.25, dash=(0.6, 0.6))
        pen.centred("€", grid.right - 3.5, total_line + 1.4, size=10, font=BOLD, fill=COLOUR)
    # Rules last, so the ruling sits over the zebra rows.
    for row in range(TABLE_SIZE + 1):
        y = header.y - row * row_h
        pen.line(grid.x, y, grid.right, y, stroke=COLOUR, width=0.2)
    for n in range(ROUNDS + 1):
        x = grid.x + name_w + n * round_w
        pen.line(x, grid.y, x, grid.top, stroke=COLOUR, width=0.5 if n in (0, ROUNDS) else 0.3)
    pen.rect(grid, stroke=COLOUR, width=0.5)


def joker_slot_x(x: float, round_w: float, slot: int) -> float:
    """Return the centre of a round's joker box `slot` (0-2), under its header label."""
    return x + round_w * (2 * slot + 1) / 6


def answer_pad_pages(options: PrintOptions, items: object) -> list[Page]:
    """One landscape sheet of the pad."""
    return [Page(draw=answer_pad, landscape=True)]


ANSWER_PAD = Sheets(
    slug="bloc-reponse",
    label=gettext_lazy("Bloc réponse"),
    description=gettext_lazy(
        "La feuille de score du maître de jeu : huit joueurs, huit manches, les "
        "gains, les jokers cochés, les paliers et les totaux."),
    pages=answer_pad_pages,
)


# --- the prize ladder poster ---------------------------------------------------------------


def ladder_poster(pen: Pen) -> None:
    """The fifteen steps, the million on top, the paliers in gold, what a wrong answer pays."""
    page = pen.box.inset(PAGE_MARGIN)
    pen.text(SPEC.name, Rect(page.x, page.top - 14, page.w, 14), size=26, font=BOLD,
             fill=COLOUR, align="centre", valign="middle", label=_("titre"))
    pen.text(_("L’échelle des gains"), Rect(page.x, page.top - 22, page.w, 7), size=14,
             font=BOLD, fill=GOLD, align="centre", valign="middle", label=_("sous-titre"))
    pen.text(_("Après chaque bonne réponse, on peut s’arrêter et garder la somme "
                   "gagnée."), Rect(page.x, page.top - 29, page.w, 6), size=10,
             fill=GREY, align="centre", valign="middle", label=_("consigne"))
    jokers_h = 56.0
    ladder = Rect(page.x, page.y + jokers_h + 6, page.w * 0.62, page.h - 33 - jokers_h - 6)
    row_h = ladder.h / len(LADDER)

    def row_bottom(step: LadderStep) -> float:
        return ladder.top - (len(LADDER) - step.number + 1) * row_h

    for step in LADDER:
        ladder_row(pen, step, Rect(ladder.x, row_bottom(step) + 0.8, ladder.w, row_h - 1.6))
    side = Rect(ladder.right + 6, ladder.y, page.right - ladder.right - 6, ladder.h)
    for band in fallback_bands():
        low, high = row_bottom(band.first) + 1.5, row_bottom(band.last) + row_h - 1.5
        pen.line(side.x, low, side.x, high, stroke=COLOUR, width=0.6)
        for y in (low, high):
            pen.line(side.x - 2.5, y, side.x, y, stroke=COLOUR, width=0.6)
        middle = (low + high) / 2
        pen.text(_("Mauvaise réponse ici :"), Rect(side.x + 4, middle + 1, side.w - 4, 11),
                 size=11, min_size=7, font=BOLD, fill=COLOUR, valign="bottom",
                 label=str(SAFE_LEVEL))
        pen.text(_("vous repartez avec"), Rect(side.x + 4, middle - 5, side.w - 4, 5.5),
                 size=10, min_size=7, fill=COLOUR, valign="middle", label=str(SAFE_LEVEL))
        pen.text(amount(band.pays), Rect(side.x + 4, middle - 14, side.w - 4, 8.5), size=20,
                 min_size=10, font=BOLD, fill=GOLD if band.pays else GREY, valign="middle",
                 label=_("montant"), french=False)
    jokers_reminder(pen, Rect(page.x, page.y, page.w, jokers_h))


def ladder_row(pen: Pen, step: LadderStep, box: Rect) -> None:
    """One step as the show draws it: its number left, its amount right, gold if a palier."""
    cx, cy = box.centre
    pen.polygon(lozenge(cx, cy, box.w, box.h), fill=GOLD if step.safe else WHITE, stroke=COLOUR,
                width=0.5)
    pen.text(str(step.number), Rect(box.x + box.h * 0.6, box.y, box.h * 1.2, box.h), size=14,
             min_size=8, font=BOLD, fill=COLOUR if step.safe else GOLD, valign="middle",
             label=str(SAFE_LEVEL))
    if step.safe:
        pen.text(str(SAFE_LEVEL), Rect(box.x + box.h * 1.9, box.y, box.w * 0.3, box.h),
                 size=11, font=BOLD, fill=COLOUR, valign="middle", label=SAFE_LEVEL)
    pen.text(amount(step.amount), Rect(box.x + box.w * 0.45, box.y, box.w * 0.55 - box.h * 0.6,
                                       box.h),
             size=16, min_size=8, font=BOLD, fill=COLOUR, align="right", valign="middle",
             label=_("montant"), french=False)


JOKER_HINTS = {
    "cinquante": gettext_lazy("Le maître de jeu vous rend deux cartes, dont la bonne réponse."),
    "public": gettext_lazy("Chacun vote en secret ; le maître de jeu ajoute la bonne réponse."),
    "ami": gettext_lazy("Un joueur de votre choix vous glisse sa réponse."),
}


def jokers_reminder(pen: Pen, area: Rect) -> None:
    """The three jokers as on their tokens, how each works and how they are spent."""
    pen.rect(area, fill=COLOUR, radius=3)
    pen.text(_("Les jokers : chacun une seule fois par partie, plusieurs sur la même "
                   "question si vous voulez."), Rect(area.x + 5, area.top - 9, area.w - 10, 7),
             size=11, min_size=7, font=BOLD, fill=GOLD, align="centre", valign="middle",
             label=_("jokers"))
    tries = {"public": RULES.public_tries_two_players,
             "ami": RULES.friend_tries_two_players}
    pen.text(_("À deux joueurs : %(public)s essais avec le Vote du public, %(ami)s avec "
                   "le Coup de fil à un ami.") % tries, Rect(area.x + 5, area.y + 2,
                                                           area.w - 10, 6),
             size=9, min_size=7, fill=WHITE, align="centre", valign="middle",
             label=_("variante à deux"))
    slot_w = (area.w - 10) / len(JOKERS)
    radius = 9.0
    cy = area.y + (8 + area.h - 9) / 2  # between the two-player line and the heading
    for i, (joker, label) in enumerate(JOKERS.items()):
        x = area.x + 5 + slot_w * i
        cx = x + radius + 1
        pen.circle(cx, cy, radius, fill=COLOUR, stroke=GOLD, width=0.6)
        joker_icon(pen, joker, cx, cy, radius * (1.2 if joker == "cinquante" else 1.1))
        text = Rect(cx + radius + 3, cy - radius - 6, x + slot_w - cx - radius - 6,
                    2 * radius + 6)
        name = pen.text(joker_name(label), Rect(text.x, text.top - 10, text.w, 10), size=11,
                        min_size=9, font=BOLD, fill=WHITE, label=_("joker"))
        # The hint starts under the name, which takes one line or two.
        used = to_mm(name.leading * (len(name.lines) - 1) + name.size * 1.2) if name else 6
        pen.text(str(JOKER_HINTS[joker]), Rect(text.x, text.y, text.w, text.h - used - 1),
                 size=8.5, min_size=6.5, font=CONDENSED, fill=WHITE, label=_("joker"))


def ladder_poster_pages(options: PrintOptions, items: object) -> list[Page]:
    """The poster on one page."""
    return [Page(draw=ladder_poster)]


LADDER_POSTER = Sheets(
    slug="echelle",
    label=gettext_lazy("Affiche de l’échelle des gains"),
    description=gettext_lazy(
        "Une page : les quinze questions de 200 € à 1 000 000 €, les paliers en or "
        "et ce que rapporte une mauvaise réponse."),
    pages=ladder_poster_pages,
)
