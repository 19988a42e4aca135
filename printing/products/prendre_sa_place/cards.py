"""The three decks the Champion reads from: Les Qualifs, La Compet’ and Le Défi.

A front has the card's theme in the header band, its questions laid out below (see
`card_layout`), the legend of the formats and the card's reference at the foot; the back,
shared by every card of a kind, has the armchair, the kind and the formats' points.

Card sizes: Les Qualifs (two questions) follow the maker's card size. La Compet’ and Le
Défi are read aloud by the Champion or the game master, not held in a hand of cards, and
hold too much for a playing card: fourteen questions with their answers, or six questions
each with four propositions and a free answer, do not fit a poker card at 6.5 pt. So
they print on fixed fiches, whatever card size the maker picks: Le Défi on 95 × 128 mm
(four to a sheet), La Compet’ on 120 × 180 mm (two to a sheet; a game needs one). Both
sizes still print on A4 and Letter with 3 mm of bleed and every way of printing backs,
folded ones included.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cms.games.prendre_sa_place import FORMATS, SPEC

from ... import text as typo
from ...draw import WHITE, Pen
from ...layout.flow import Placed
from ...sheets import Rect
from ...text import BOLD, CONDENSED, CONDENSED_BOLD
from ...units import to_mm
from ..base import Deck
from ..style import GOLD, GREY, back_pattern, scale
from .card_layout import Layout, Mark, best_layout
from .look import (
    COLOUR,
    FORMAT_COLOURS,
    armchair,
    card_header,
    legend,
    legend_width,
    pill,
    points_label,
)
from .questions import QuestionCard, question_card

if TYPE_CHECKING:
    # A deck's label and description are lazy translations.
    from django_stubs_ext import StrOrPromise

# Fixed sizes for the two cards that hold too much for a playing card (see above).
COMPET_SIZE = (120.0, 180.0)  # two to a sheet; fits a fold on Letter with 3 mm of bleed
DEFI_SIZE = (95.0, 128.0)  # four to a sheet of A4 or Letter, even with 3 mm of bleed
CARD_TOP_SIZE = 9.5  # pt: the largest body text of a poker-width card
BODY_GAP = 2.0  # mm between the header band and the questions
RULE = "#d8d2c8"  # the hairline between two questions
KIND_LABELS = {kind.slug: kind.label for kind in SPEC.kinds}
FOOT_H = to_mm(typo.MIN_SIZE) * 1.3  # mm: the line of a card's reference and legend


# --- drawing a laid-out card ---------------------------------------------------------------


def draw_mark(pen: Pen, mark: Mark, area: Rect, layout: Layout) -> None:
    """Draw one of our marks in `area`, unless it falls past the card's foot."""
    top = area.top - mark.top
    if top - mark.h < area.y - 1e-6:
        return  # past the card's foot: its text reports the overflow
    middle = top - layout.middle
    if mark.shape == "disc":
        radius = mark.w / 2
        pen.circle(area.x + radius, middle, radius, fill=mark.colour)
        pen.centred(mark.text, area.x + radius, middle, size=layout.tag_size,
                    font=CONDENSED_BOLD, fill=WHITE)
    elif mark.shape == "dot":
        pen.circle(area.x + mark.x + layout.em * 0.3, middle, layout.em * 0.13,
                   fill=mark.colour)
    elif mark.shape == "pill":
        pill(pen, mark.text, Rect(area.x + mark.x, middle - layout.pill_h / 2, mark.w,
                                  layout.pill_h), size=layout.tag_size, colour=mark.colour)
    elif mark.shape == "rule":
        pen.line(area.x + layout.gutter, top, area.right, top, stroke=RULE, width=0.25)
    elif mark.shape == "heading":
        middle = top - mark.h / 2
        pill_w = layout.pill_width(mark.text) + layout.em * 0.6
        box = Rect(area.x, middle - layout.pill_h / 2, pill_w, layout.pill_h)
        pill(pen, mark.text, box, size=layout.tag_size, colour=mark.colour)
        note = Rect(box.right + layout.em * 0.5, top - mark.h, area.w - pill_w
                    - layout.em * 0.5, mark.h)
        pen.text(mark.note, note, size=max(typo.MIN_SIZE, layout.size * 0.85),
                 font=CONDENSED_BOLD, fill=mark.colour, valign="middle", label=_("format"))
        pen.line(area.x, top - mark.h - 0.3, area.right, top - mark.h - 0.3,
                 stroke=mark.colour, width=0.2)


def draw_layout(pen: Pen, area: Rect, layout: Layout) -> None:
    """Draw marks and texts in reading order, so the PDF's text reads as the card does."""
    marks: list[tuple[float, float, Mark | Placed]] = [
        (mark.top, mark.x, mark) for mark in layout.marks]
    texts: list[tuple[float, float, Mark | Placed]] = [
        (piece.top, piece.x, piece) for piece in layout.texts]
    for _top, _x, thing in sorted(marks + texts, key=lambda entry: entry[:2]):
        if isinstance(thing, Mark):
            draw_mark(pen, thing, area, layout)
            continue
        piece = thing
        top = area.top - piece.top
        bottom = max(area.y, top - piece.h)
        rect = Rect(area.x + piece.x, bottom, piece.w, max(0.0, top - bottom))
        pen.text(piece.text, rect, size=layout.size, font=piece.font, french=False,
                 label=piece.label)


# --- the foot: the legend and the reference ------------------------------------------------


@dataclass(frozen=True)
class Foot:
    """Where a card's foot puts its legend (None: left out) and its reference."""

    legend: Rect | None
    ref: Rect

    @property
    def above(self) -> float:
        """How far the foot rises above its one line: the reference's own line, or 0."""
        return self.ref.y - (self.legend.y if self.legend else self.ref.y)


def card_foot(pen: Pen, card: QuestionCard, *, with_legend: bool) -> Foot:
    """The legend at the bottom left of the safe zone, the card's reference at its right.

    The reference (twelve characters, usually) goes on a line of its own above when the
    two do not share one; the legend is left out on a card too narrow for it (a mini card).
    """
    safe = pen.safe
    ref_w = min(to_mm(typo.width(typo.printable(card.ref), CONDENSED, typo.MIN_SIZE)) + 0.3,
                safe.w)
    line = Rect(safe.x, safe.y, safe.w, FOOT_H)
    if not (with_legend and legend_width(typo.MIN_SIZE) <= safe.w):
        return Foot(None, Rect(line.right - ref_w, line.y, ref_w, FOOT_H))
    ref_y = line.y if legend_width(typo.MIN_SIZE) + 1.2 + ref_w <= safe.w else line.top
    return Foot(line, Rect(line.right - ref_w, ref_y, ref_w, FOOT_H))


def draw_foot(pen: Pen, card: QuestionCard, foot: Foot) -> None:
    """Draw the legend, if the foot has room for it, and the card's reference."""
    size = typo.MIN_SIZE
    if foot.legend is not None:
        legend(pen, foot.legend.x, foot.legend.y + (FOOT_H - to_mm(size) * 0.72) / 2, size)
    pen.text(typo.printable(card.ref), foot.ref, size=size, font=CONDENSED, fill=GREY,
             align="right", valign="middle", french=False, label=_("référence"))


# --- the faces -----------------------------------------------------------------------------


def card_front(pen: Pen, card: QuestionCard) -> None:
    """The theme in the header, the questions below, the legend and reference at the foot."""
    kind_label = str(KIND_LABELS.get(card.kind, ""))
    if card.title.strip():
        band = card_header(pen, card.title, kind_label)
    else:
        band = card_header(pen, kind_label, "")
    foot = card_foot(pen, card, with_legend=not any(q.slot for q in card.questions))
    safe = pen.safe
    top = band - BODY_GAP
    bottom = safe.y + FOOT_H + BODY_GAP * 0.75
    area = Rect(safe.x, bottom, safe.w, top - bottom)
    layout = best_layout(card, area, CARD_TOP_SIZE * min(scale(pen), 1.25),
                         reserved=foot.above)
    draw_layout(pen, Rect(area.x, area.y + foot.above, area.w, area.h - foot.above), layout)
    # Last, so that the PDF's text reads as the card does.
    draw_foot(pen, card, foot)


def back_form_for(kind: str) -> Callable[[Pen], None]:
    """Return the back every card of a kind shares: the armchair, the kind, the formats."""

    def draw(pen: Pen) -> None:
        back_pattern(pen, colour=COLOUR, title=str(KIND_LABELS[kind]))
        k = scale(pen)
        cx, cy = pen.box.centre
        radius = min(pen.w, pen.h) * 0.2
        pen.circle(cx, cy + pen.h * 0.1, radius, fill=WHITE, stroke=GOLD, width=0.6)
        armchair(pen, cx, cy + pen.h * 0.1 - radius * 0.55, radius * 1.1)
        # Each format in the pill of its colour, as on the fronts; gold on the orange back
        # was too faint to read.
        size = max(typo.MIN_SIZE, 6.5 * k)
        pill_h = to_mm(size) * 1.5
        pills = [(f, to_mm(typo.width(f.label, CONDENSED_BOLD, size)) + to_mm(size) * 1.2)
                 for f in FORMATS.values()]
        step = max(13 * k, max(w for _f, w in pills) + 2.5,
                   max(to_mm(typo.width(points_label(f.points), BOLD, size)) + 2.5
                       for f, _w in pills))
        y = pen.safe.y + pen.safe.h * 0.16
        for index, (answer_format, pill_w) in enumerate(pills):
            x = cx + (index - 1) * step
            pill(pen, answer_format.label, Rect(x - pill_w / 2, y + 0.4, pill_w, pill_h),
                 size=size, colour=FORMAT_COLOURS[answer_format.slug])
            pen.centred(points_label(answer_format.points), x, y - to_mm(size) * 0.75,
                        size=size, font=BOLD, fill=WHITE)

    return draw


def question_deck(kind: str, code: str, label: StrOrPromise, description: StrOrPromise,
                  size: tuple[float, float] | None = None) -> Deck:
    """A deck of the cards of `kind`, their fronts and their shared back; `size` in mm
    fixes their size (None: the maker's card size)."""
    return Deck(slug=kind, code=code, label=label, description=description, kind=kind,
                to_item=question_card, front=card_front, back_form=back_form_for(kind),
                size=size)


QUALIFS_CARDS = question_deck(
    "qualifs", "QUA", gettext_lazy("Cartes Les Qualifs"),
    gettext_lazy("Deux questions par carte, chacune jouable en DUO, CARRÉ ou CASH : la bonne "
                 "réponse en gras, l’autre proposition du DUO marquée, la réponse CASH et ses "
                 "variantes."))

COMPET_CARDS = question_deck(
    "compet", "CMP", gettext_lazy("Cartes La Compet’"),
    gettext_lazy("Un thème et 14 questions : DUO, CARRÉ, CASH puis la réserve du Super Cash. "
                 "Fiche de 120 × 180 mm, deux par feuille, quelle que soit la taille de carte "
                 "choisie."),
    size=COMPET_SIZE)

DEFI_CARDS = question_deck(
    "defi", "DEF", gettext_lazy("Cartes Le Défi"),
    gettext_lazy("Un thème et six questions, chacune jouable en DUO, CARRÉ ou CASH au choix "
                 "du joueur. Fiche de 95 × 128 mm, quatre par feuille, quelle que soit la "
                 "taille de carte choisie."),
    size=DEFI_SIZE)
