"""Printable products of Tout le monde veut prendre sa place.

Three card decks the Champion reads from (Les Qualifs, La Compet’, Le Défi), the two
answer sheets, the board with its Qualifs and Compet’ tracks, the red armchair and the
pawns. Every number (points per format, Compet’ slots, Super Cash pool, starting squares)
comes from the registry, cms.games.prendre_sa_place.

On every card the right proposition is printed in bold, as the rules ask; the wrong
proposition the Champion offers with it in DUO (the first wrong one) carries a « DUO »
tag, and the free answer for CASH follows, with the variants it accepts.

Card sizes: Les Qualifs (two questions) follow the maker's card size. La Compet’ and Le
Défi are read aloud by the Champion or the game master, not held in a hand of cards, and
hold too much for a playing card: fourteen questions with their answers, or six questions
each with four propositions and a free answer, come out below 6 pt on a poker card (the
demo's Défi cards do not fit at all). So they print on fixed fiches, whatever card size
the maker picks: Le Défi on 95 × 128 mm (four to a sheet), La Compet’ on 120 × 180 mm
(two to a sheet; a game needs one). Both sizes still print on A4 and Letter with 3 mm of
bleed and every way of printing backs, folded ones included.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy
from reportlab.lib.units import mm as MM

from cms.games.prendre_sa_place import (
    CARRE,
    CASH,
    COMPET_SLOTS,
    DUO,
    FORMATS,
    SPEC,
    SUPER_CASH_POINTS,
    SUPER_CASH_POOL,
)
from cms.games.spec import PALETTE

from .. import text as typo
from ..draw import WHITE, CanvasPen, Pen
from ..sheets import Rect
from ..text import BOLD, CONDENSED, CONDENSED_BOLD, REGULAR
from .base import Deck, Page, Sheets
from .style import (
    GAME_COLOURS,
    GOLD,
    GREY,
    INK,
    LIGHT,
    PAGE_MARGIN,
    back_pattern,
    card_frame,
    footer,
    scale,
)

GAME = "prendre-sa-place"
COLOUR = GAME_COLOURS[GAME]
RED = PALETTE["rouge"]
DARK_RED = "#8e1b1b"
CUSHION = "#ea5b55"
TRAIL = "#f6c8b8"  # the path that links a track's squares
SUPER_CASH = "super-cash"  # the slot of COMPET_SLOTS that is not an answer format
FORMAT_COLOURS = {
    DUO.slug: PALETTE["vert"],
    CARRE.slug: PALETTE["bleu"],
    CASH.slug: PALETTE["violet"],
    SUPER_CASH: RED,
}

PT = 25.4 / 72  # millimetres per point
# Fixed sizes for the two cards that hold too much for a playing card (see their decks).
COMPET_SIZE = (120.0, 180.0)  # two to a sheet; fits a fold on Letter with 3 mm of bleed
DEFI_SIZE = (95.0, 128.0)  # four to a sheet of A4 or Letter, even with 3 mm of bleed
CARD_MIN_SIZE = 6.0  # pt: the Champion holds the card close; below this it strains the eye
FOOTER_BAND = 4.2  # mm kept under a card's questions for its reference and legend


def points_label(points: int) -> str:
    return ngettext("%(n)s pt", "%(n)s pts", abs(points)) % {"n": points}


def signed(points: int) -> str:
    """Return +5 or −5, with a true minus sign."""
    return f"+{points}" if points >= 0 else f"\u2212{-points}"


# --- what a card prints --------------------------------------------------------------------


@dataclass(frozen=True)
class PlayedQuestion:
    """One question as a card prints it, with what each answer format needs."""

    number: int
    text: str
    propositions: tuple[str, ...]
    right: int  # index of the right proposition, -1 when there is none
    duo: int  # index of the wrong proposition offered with the right one in DUO, -1: none
    answer: str  # the free answer, for CASH
    variants: tuple[str, ...]
    slot: str = ""  # the format a Compet’ slot imposes; "": the player chooses

    @property
    def cash_answer(self) -> str:
        if self.answer.strip() or self.right < 0:
            return self.answer
        return self.propositions[self.right]


@dataclass(frozen=True)
class QuestionCard:
    """A Qualifs, Compet’ or Défi card: its theme and its questions in order."""

    ref: str
    kind: str
    title: str
    questions: tuple[PlayedQuestion, ...]


def played_question(content, question, number: int, slot: str) -> PlayedQuestion:
    rows = content.propositions.get(question.pk, [])
    right = next((i for i, row in enumerate(rows) if row.is_right), -1)
    duo = next((i for i, row in enumerate(rows) if not row.is_right), -1)
    return PlayedQuestion(
        number=number,
        text=question.text,
        propositions=tuple(row.text for row in rows),
        right=right,
        duo=duo,
        answer=question.answer,
        variants=tuple(question.variant_list),
        slot=slot,
    )


def question_card(content, card) -> QuestionCard:
    slots = SPEC.kind(card.kind).slot_formats
    questions = content.card_questions.get(card.pk, [])
    return QuestionCard(
        ref=card.ref,
        kind=card.kind,
        title=card.title,
        questions=tuple(
            played_question(content, question, number,
                            slots[number - 1] if number <= len(slots) else "")
            for number, question in enumerate(questions, start=1)
        ),
    )


# --- laying a card's questions out ---------------------------------------------------------
#
# A card's body is laid out at one text size for all its questions: the largest that lets
# every question fit. Each piece of user text gets a box exactly as large as its lines, so
# `pen.text` draws it at that size; when even the smallest size is too big, the boxes that
# fall off the card shrink to nothing and `pen.text` reports which question does not fit.


@dataclass(frozen=True)
class Placed:
    """A piece of user text: its box in mm from the body's top-left corner (top downwards)."""

    text: str
    x: float
    top: float
    w: float
    h: float
    font: str
    label: str


@dataclass(frozen=True)
class Mark:
    """Something of ours drawn beside the text: a number disc, a format tag, a bullet."""

    shape: str  # "disc", "tag", "dot", "heading"
    x: float
    top: float
    w: float
    h: float
    text: str = ""
    colour: str = INK
    note: str = ""


@dataclass
class Layout:
    """A card's questions placed at one text size, and whether every word fits its box."""

    size: float
    width: float
    height: float = 0.0
    texts: list[Placed] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)
    fits: bool = True

    @property
    def em(self) -> float:
        return self.size * PT

    @property
    def lead(self) -> float:
        return self.size * typo.LEADING * PT

    @property
    def tag_size(self) -> float:
        return self.size * 0.68

    def text_width(self, value: str, font: str, size: float | None = None) -> float:
        return typo.width(typo.french(value), font, size or self.size) * PT

    def lines(self, value: str, font: str, width: float) -> int:
        """Return how many lines `value` takes in `width` mm (a word too wide: it does not fit)."""
        wrapped = typo.wrap(typo.french(value), font, self.size, width / PT)
        if wrapped is None:
            self.fits = False
            return 1
        return max(1, len(wrapped))

    def tag_width(self, label: str) -> float:
        return self.text_width(label, BOLD, self.tag_size) + self.em * 0.7


@dataclass(frozen=True)
class Piece:
    """A proposition or an answer, with the mark in front of it."""

    text: str
    font: str
    label: str
    mark: str = "dot"  # "dot", or the format slug of a tag ("duo", "cash")
    mark_text: str = ""


def mark_for(layout: Layout, piece: Piece, x: float, top: float, slot: float) -> Mark:
    if piece.mark == "dot":
        return Mark("dot", x + slot - layout.em * 0.75, top, layout.em * 0.75, layout.lead,
                    colour=GREY)
    return Mark("tag", x, top, layout.tag_width(piece.mark_text), layout.lead, piece.mark_text,
                FORMAT_COLOURS[piece.mark])


def slot_width(layout: Layout, piece: Piece) -> float:
    if piece.mark == "dot":
        return layout.em * 0.9
    return layout.tag_width(piece.mark_text) + layout.em * 0.35


def grid(layout: Layout, pieces: list[Piece], x0: float, top: float, slot: float) -> float:
    """Place propositions in columns: as many as leave each on one line, else one a row."""
    if not pieces:
        return 0.0
    gap = layout.em * 0.5

    def cell_width(columns: int, col: int) -> float:
        return (layout.width - x0) / columns - slot - (gap if col < columns - 1 else 0)

    def one_line_each(columns: int) -> bool:
        return all(layout.text_width(piece.text, piece.font) + 0.3
                   <= cell_width(columns, index % columns)
                   for index, piece in enumerate(pieces))

    columns = next((c for c in sorted({len(pieces), 2}, reverse=True)
                    if c <= len(pieces) and one_line_each(c)), 1)
    y = top
    for start in range(0, len(pieces), columns):
        tallest = 1
        for col, piece in enumerate(pieces[start:start + columns]):
            x = x0 + col * (layout.width - x0) / columns
            text_w = cell_width(columns, col)
            lines = layout.lines(piece.text, piece.font, text_w)
            layout.marks.append(mark_for(layout, piece, x, y, slot))
            layout.texts.append(Placed(piece.text, x + slot, y, text_w, lines * layout.lead,
                                       piece.font, piece.label))
            tallest = max(tallest, lines)
        y += tallest * layout.lead
    return y - top


def flow(layout: Layout, pieces: list[Piece], x0: float, top: float) -> float:
    """Place pieces one after another, wrapping between them; return the height used."""
    width = layout.width - x0
    gap = layout.em * 1.1
    x, line = 0.0, 0
    for piece in pieces:
        mark_w = slot_width(layout, piece) if piece.mark else 0.0
        text_w = layout.text_width(piece.text, piece.font) + 0.3
        if x > 0 and x + mark_w + text_w > width:
            x, line = 0.0, line + 1
        lines = 1
        if mark_w + text_w > width:
            text_w = width - mark_w
            lines = layout.lines(piece.text, piece.font, text_w)
        y = top + line * layout.lead
        if piece.mark:
            layout.marks.append(mark_for(layout, piece, x0 + x, y, mark_w))
        layout.texts.append(Placed(piece.text, x0 + x + mark_w, y, text_w,
                                   lines * layout.lead, piece.font, piece.label))
        if lines > 1:
            x, line = width, line + lines - 1
        else:
            x += mark_w + text_w + gap
    return (line + 1) * layout.lead


def question_label(question: PlayedQuestion, what: str = "") -> str:
    label = _("question %(n)s") % {"n": question.number}
    return f"{label}, {what}" if what else label


def proposition_piece(question: PlayedQuestion, index: int, *, duo_tag: bool) -> Piece:
    right = index == question.right
    tagged = duo_tag and index == question.duo
    return Piece(
        question.propositions[index],
        CONDENSED_BOLD if right else CONDENSED,
        question_label(question, _("proposition %(n)s") % {"n": index + 1}),
        mark=DUO.slug if tagged else "dot",
        mark_text=DUO.label if tagged else "",
    )


def answer_pieces(question: PlayedQuestion, *, tag: bool) -> list[Piece]:
    """The free answer in bold, then the variants it accepts."""
    pieces = [Piece(question.cash_answer, CONDENSED_BOLD,
                    question_label(question, _("réponse CASH")),
                    mark=CASH.slug if tag else "dot", mark_text=CASH.label if tag else "")]
    if question.variants:
        pieces.append(Piece("(" + " / ".join(question.variants) + ")", CONDENSED,
                            question_label(question, _("variantes")), mark=""))
    return pieces


def place_answers(layout: Layout, question: PlayedQuestion, x0: float, top: float) -> float:
    """Lay out what the Champion reads or checks: for the slot's format, or for all three."""
    count = len(question.propositions)
    if question.slot == DUO.slug:
        pair = sorted(i for i in (question.right, question.duo) if i >= 0)
        pieces = [proposition_piece(question, i, duo_tag=False) for i in pair]
        return grid(layout, pieces, x0, top, layout.em * 0.9)
    if question.slot == CARRE.slug:
        pieces = [proposition_piece(question, i, duo_tag=False) for i in range(count)]
        return grid(layout, pieces, x0, top, layout.em * 0.9)
    if question.slot in (CASH.slug, SUPER_CASH):
        return flow(layout, answer_pieces(question, tag=False), x0, top)
    pieces = [proposition_piece(question, i, duo_tag=True) for i in range(count)]
    slot = layout.tag_width(DUO.label) + layout.em * 0.35
    height = grid(layout, pieces, x0, top, slot)
    return height + flow(layout, answer_pieces(question, tag=True), x0, top + height)


def place_question(layout: Layout, question: PlayedQuestion, top: float, colour: str) -> float:
    """Lay out one question (number, text, then its answers); return the height used."""
    gutter = layout.em * 1.75
    layout.marks.append(Mark("disc", 0, top, gutter, layout.lead, str(question.number), colour))
    lines = layout.lines(question.text, CONDENSED, layout.width - gutter)
    layout.texts.append(Placed(question.text, gutter, top, layout.width - gutter,
                               lines * layout.lead, CONDENSED, question_label(question)))
    height = lines * layout.lead + layout.lead * 0.05
    return height + place_answers(layout, question, gutter, top + height)


def heading_for(slot: str, numbers: list[int]) -> tuple[str, str]:
    """Return a Compet’ section's tag and its note: points, and which questions it holds."""
    if len(numbers) > 1:
        span = _("n° %(a)s à %(b)s") % {"a": numbers[0], "b": numbers[-1]}
    else:
        span = _("n° %(a)s") % {"a": numbers[0]}
    if slot == SUPER_CASH:
        pool = _("une par candidat, parmi les n° %(a)s à %(b)s") % {
            "a": SUPER_CASH_POOL[0], "b": SUPER_CASH_POOL[-1]}
        points = f"{signed(SUPER_CASH_POINTS)} / {signed(-SUPER_CASH_POINTS)}"
        return _("SUPER CASH"), f"{points} · {pool}"
    answer_format = FORMATS[slot]
    return answer_format.label, f"{points_label(answer_format.points)} · {span}"


def sections(card: QuestionCard) -> list[tuple[str, list[PlayedQuestion]]]:
    """Group a card's questions by consecutive slot format ("" when the player chooses)."""
    groups: list[tuple[str, list[PlayedQuestion]]] = []
    for question in card.questions:
        if groups and groups[-1][0] == question.slot:
            groups[-1][1].append(question)
        else:
            groups.append((question.slot, [question]))
    return groups


def lay_out(card: QuestionCard, width: float, size: float, spread: float = 0.0) -> Layout:
    """Lay the card's questions out at one size, `spread` mm more between questions."""
    layout = Layout(size=size, width=width)
    y = 0.0
    for slot, questions in sections(card):
        colour = FORMAT_COLOURS.get(slot, COLOUR)
        for n, question in enumerate(questions):
            if y:
                y += layout.lead * 0.3 + spread
            if n == 0 and slot:
                tag, note = heading_for(slot, [q.number for q in questions])
                layout.marks.append(Mark("heading", 0, y, width, layout.lead, tag, colour,
                                         note))
                y += layout.lead * 1.3
            y += place_question(layout, question, y, colour)
    layout.height = y
    return layout


def sizes(top: float, bottom: float) -> Iterator[float]:
    size = top
    while size >= bottom - 1e-9:
        yield size
        size -= 0.25


def best_layout(card: QuestionCard, area: Rect, top_size: float) -> Layout:
    """Return the card laid out at the largest size that fits, questions spread to fill it.

    When even the smallest size is too big, return it anyway: drawing it reports what
    falls off the card.
    """
    typo.fonts()
    layout = None
    for size in sizes(max(top_size, CARD_MIN_SIZE), CARD_MIN_SIZE):
        layout = lay_out(card, area.w, size)
        if layout.fits and layout.height <= area.h + 1e-6:
            gaps = len(card.questions) - 1
            if gaps > 0:
                spread = min((area.h - layout.height) / gaps, layout.lead * 1.5)
                layout = lay_out(card, area.w, size, spread)
            return layout
    return layout


def draw_mark(pen: Pen, mark: Mark, area: Rect, layout: Layout) -> None:
    top = area.top - mark.top
    if top - mark.h < area.y - 1e-6:
        return  # past the card's foot: its text reports the overflow
    middle = top - mark.h / 2
    if mark.shape == "disc":
        radius = min(mark.h * 0.46, mark.w * 0.4)
        pen.circle(area.x + radius + 0.1, middle, radius, fill=mark.colour)
        # Two digits need a smaller figure to stay inside the disc.
        size = layout.tag_size * (0.82 if len(mark.text) > 1 else 1.0)
        pen.centred(mark.text, area.x + radius + 0.1, middle, size=size, font=BOLD,
                    fill=WHITE)
    elif mark.shape == "dot":
        pen.circle(area.x + mark.x + layout.em * 0.3, middle, layout.em * 0.14, fill=mark.colour)
    elif mark.shape == "tag":
        tag = Rect(area.x + mark.x, middle - mark.h * 0.4, mark.w, mark.h * 0.8)
        pen.rect(tag, fill=mark.colour, radius=tag.h / 2)
        pen.centred(mark.text, tag.centre[0], middle, size=layout.tag_size, font=BOLD,
                    fill=WHITE)
    elif mark.shape == "heading":
        tag_w = layout.tag_width(mark.text) + layout.em
        tag = Rect(area.x, middle - mark.h * 0.45, tag_w, mark.h * 0.9)
        pen.rect(tag, fill=mark.colour, radius=tag.h / 2)
        pen.centred(mark.text, tag.centre[0], middle, size=layout.tag_size * 1.1, font=BOLD,
                    fill=WHITE)
        pen.text(mark.note, Rect(tag.right + layout.em * 0.5, tag.y, area.w - tag_w
                                 - layout.em * 0.5, tag.h), size=layout.size * 0.85,
                 min_size=4.5, font=CONDENSED_BOLD, fill=mark.colour, valign="middle",
                 label=_("format"))
        pen.line(area.x, tag.y - 0.25, area.right, tag.y - 0.25, stroke=mark.colour,
                 width=0.2)


def draw_layout(pen: Pen, area: Rect, layout: Layout) -> None:
    """Draw marks and texts in reading order, so the PDF's text reads as the card does."""
    marks = [(mark.top, mark.x, mark) for mark in layout.marks]
    texts = [(piece.top, piece.x, piece) for piece in layout.texts]
    for _top, _x, thing in sorted(marks + texts, key=lambda entry: entry[:2]):
        if isinstance(thing, Mark):
            draw_mark(pen, thing, area, layout)
            continue
        piece = thing
        top = area.top - piece.top
        bottom = max(area.y, top - piece.h)
        rect = Rect(area.x + piece.x, bottom, piece.w, max(0.0, top - bottom))
        pen.text(piece.text, rect, size=layout.size, min_size=CARD_MIN_SIZE, font=piece.font,
                 label=piece.label)


# --- the card faces ------------------------------------------------------------------------


KIND_LABELS = {kind.slug: kind.label for kind in SPEC.kinds}


def legend_width(size: float) -> float:
    em = size * PT
    return sum(typo.width(f.label, BOLD, size * 0.85) * PT + em * 1.0
               + typo.width(points_label(f.points), REGULAR, size) * PT + em * 0.9
               for f in FORMATS.values())


def legend(pen: Pen, area: Rect, room: float) -> None:
    """The three formats and their points, left of the reference at a card's foot.

    It shrinks to the `room` mm it has; on a card too narrow for it, it is left out.
    """
    size = 5.0 * min(scale(pen), 1.3)
    size = min(size, size * room / legend_width(size))
    if size < 3.8:
        return
    em = size * PT
    x = area.x
    middle = area.y + 1.6
    for answer_format in FORMATS.values():
        label = answer_format.label
        tag_w = typo.width(label, BOLD, size * 0.85) * PT + em * 0.7
        pen.rect(Rect(x, middle - em * 0.6, tag_w, em * 1.2), fill=FORMAT_COLOURS[
            answer_format.slug], radius=em * 0.6)
        pen.centred(label, x + tag_w / 2, middle, size=size * 0.85, font=BOLD, fill=WHITE)
        x += tag_w + em * 0.3
        points = points_label(answer_format.points)
        pen.centred(points, x + typo.width(points, REGULAR, size) * PT / 2, middle, size=size,
                    fill=INK)
        x += typo.width(points, REGULAR, size) * PT + em * 0.9


def card_front(pen: Pen, card: QuestionCard) -> None:
    """The theme in the header, the questions below, the reference at the foot."""
    kind_label = str(KIND_LABELS.get(card.kind, ""))
    if card.title.strip():
        body = card_frame(pen, colour=COLOUR, title=card.title, subtitle=kind_label)
    else:
        body = card_frame(pen, colour=COLOUR, title=kind_label)
    footer(pen, card.ref)
    if not any(q.slot for q in card.questions):
        reference = typo.width(typo.printable(card.ref), REGULAR, 5.5) * PT
        legend(pen, body, body.w - reference - 2)
    area = Rect(body.x, body.y + FOOTER_BAND, body.w, body.h - FOOTER_BAND)
    layout = best_layout(card, area, 9.5 * min(scale(pen), 1.25))
    draw_layout(pen, area, layout)


def back_form_for(kind: str) -> Callable[[Pen], None]:
    """Return the back every card of a kind shares: the armchair, the kind, the formats."""

    def draw(pen: Pen) -> None:
        back_pattern(pen, colour=COLOUR, title=str(KIND_LABELS[kind]))
        k = scale(pen)
        cx, cy = pen.box.centre
        radius = min(pen.w, pen.h) * 0.2
        pen.circle(cx, cy + pen.h * 0.1, radius, fill=WHITE, stroke=GOLD, width=0.6)
        armchair(pen, cx, cy + pen.h * 0.1 - radius * 0.55, radius * 1.1)
        x = cx - 13 * k
        for answer_format in FORMATS.values():
            pen.centred(answer_format.label, x, pen.h * 0.2, size=6 * k, font=BOLD, fill=GOLD)
            x += 13 * k

    return draw


QUALIFS_CARDS = Deck(
    slug="qualifs",
    label=gettext_lazy("Cartes Les Qualifs"),
    description=gettext_lazy("Deux questions par carte, chacune jouable en DUO, CARRÉ ou "
                             "CASH : la bonne réponse en gras, l’autre proposition du DUO "
                             "marquée, la réponse CASH et ses variantes."),
    kind="qualifs",
    to_item=question_card,
    front=card_front,
    back_form=back_form_for("qualifs"),
)

COMPET_CARDS = Deck(
    slug="compet",
    label=gettext_lazy("Cartes La Compet’"),
    description=gettext_lazy("Un thème et 14 questions : DUO, CARRÉ, CASH puis la réserve "
                             "du Super Cash. Fiche de 120 × 180 mm, deux par feuille, "
                             "quelle que soit la taille de carte choisie."),
    kind="compet",
    to_item=question_card,
    front=card_front,
    back_form=back_form_for("compet"),
    size=COMPET_SIZE,
)

DEFI_CARDS = Deck(
    slug="defi",
    label=gettext_lazy("Cartes Le Défi"),
    description=gettext_lazy("Un thème et six questions, chacune jouable en DUO, CARRÉ ou "
                             "CASH au choix du joueur. Fiche de 95 × 128 mm, quatre par "
                             "feuille, quelle que soit la taille de carte choisie."),
    kind="defi",
    to_item=question_card,
    front=card_front,
    back_form=back_form_for("defi"),
    size=DEFI_SIZE,
)


# --- drawing helpers for full pages ------------------------------------------------------


def words(pen: Pen, value: str, rect: Rect, *, size: float, font: str = REGULAR,
          fill: str = INK, align: str = "left", valign: str = "middle") -> None:
    """Draw our own fixed French text in a box."""
    pen.text(value, rect, size=size, min_size=4.5, font=font, fill=fill, align=align,
             valign=valign, label=value)


def checkbox(pen: Pen, x: float, y: float, side: float = 3.2) -> None:
    """An empty square to tick, its bottom-left corner at (x, y)."""
    pen.rect(Rect(x, y, side, side), fill=WHITE, stroke=INK, width=0.25, radius=0.4)


def tag(pen: Pen, label: str, x: float, middle: float, *, size: float, colour: str) -> float:
    """A rounded coloured tag with a white label; return its width."""
    w = typo.width(label, BOLD, size) * PT + size * PT * 1.2
    h = size * PT * 1.6
    pen.rect(Rect(x, middle - h / 2, w, h), fill=colour, radius=h / 2)
    pen.centred(label, x + w / 2, middle, size=size, font=BOLD, fill=WHITE)
    return w


def write_in(pen: Pen, label: str, x: float, y: float, w: float, *, size: float = 8) -> None:
    """A label then a line to write on, the line's baseline at y."""
    label_w = typo.width(typo.french(label), REGULAR, size) * PT + 1.5
    words(pen, label, Rect(x, y, label_w + 1, size * PT * 1.4), size=size, valign="bottom")
    pen.line(x + label_w, y + 0.2, x + w, y + 0.2, stroke=GREY, width=0.25)


def sheet_header(pen: Pen, area: Rect, title: str) -> Rect:
    """The coloured band at the top of an answer sheet; return the area under it."""
    band = Rect(area.x, area.top - 10, area.w, 10)
    pen.rect(band, fill=COLOUR, radius=1.5)
    words(pen, title, Rect(band.x + 3, band.y, band.w * 0.55, band.h), size=13, font=BOLD,
          fill=WHITE)
    words(pen, SPEC.name, Rect(band.x + band.w * 0.5, band.y, band.w * 0.5 - 3, band.h),
          size=8, fill=WHITE, align="right")
    return Rect(area.x, area.y, area.w, band.y - 2 - area.y)


def halves(pen: Pen) -> tuple[Rect, Rect]:
    """Two sheets to a page, one above the other, with a dashed line to cut between them."""
    m = PAGE_MARGIN
    gap = m
    h = (pen.h - 2 * m - gap) / 2
    pen.line(m / 2, pen.h / 2, pen.w - m / 2, pen.h / 2, stroke=GREY, width=0.25, dash=(2, 1.5))
    pen.centred("✂", m, pen.h / 2 + 0.2, size=10, fill=GREY)
    return (Rect(m, m + h + gap, pen.w - 2 * m, h), Rect(m, m, pen.w - 2 * m, h))


@dataclass(frozen=True)
class Column:
    title: str
    width: float  # mm; 0: takes what is left


def column_edges(columns: list[Column], x: float, w: float) -> list[float]:
    fixed = sum(c.width for c in columns)
    flexible = [c for c in columns if not c.width]
    spare = (w - fixed) / len(flexible) if flexible else 0.0
    edges = [x]
    for column in columns:
        edges.append(edges[-1] + (column.width or spare))
    return edges


CellFn = Callable[[Pen, Rect], None]


def table(pen: Pen, x: float, top: float, w: float, columns: list[Column],
          rows: list[list[str | CellFn]], *, row_h: float, head_h: float = 5.0,
          colour: str = COLOUR) -> float:
    """Draw a ruled table (a header row, then rows); return the y of its bottom edge."""
    edges = column_edges(columns, x, w)
    head = Rect(x, top - head_h, w, head_h)
    pen.rect(head, fill=colour)
    for column, left, right in zip(columns, edges, edges[1:], strict=False):
        words(pen, column.title, Rect(left + 0.8, head.y, right - left - 1.6, head_h),
              size=6.5, font=BOLD, fill=WHITE, align="centre")
    y = head.y
    for row in rows:
        for cell, left, right in zip(row, edges, edges[1:], strict=False):
            box = Rect(left, y - row_h, right - left, row_h)
            if callable(cell):
                cell(pen, box)
            elif cell:
                words(pen, cell, box.inset(0.8, 0.5), size=8, font=BOLD, align="centre")
        y -= row_h
        pen.line(x, y, x + w, y, stroke=GREY, width=0.2)
    for edge in edges[1:-1]:
        pen.line(edge, head.y, edge, y, stroke=GREY, width=0.2)
    pen.rect(Rect(x, y, w, top - y), stroke=colour, width=0.4)
    return y


def section_title(pen: Pen, title: str, hint: str, x: float, top: float) -> float:
    """A bold title and a grey hint above a table; return the y under them."""
    title_w = typo.width(typo.french(title), BOLD, 9) * PT + 2
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
    def draw(pen: Pen, box: Rect) -> None:
        label = _("SUPER CASH") if slot == SUPER_CASH else FORMATS[slot].label
        size = 6.5
        w = typo.width(label, BOLD, size) * PT + size * PT * 1.2
        tag(pen, label, box.x + (box.w - w) / 2, box.y + box.h / 2, size=size,
            colour=FORMAT_COLOURS[slot])

    return draw


def tick_cell(pen: Pen, box: Rect) -> None:
    checkbox(pen, box.x + box.w / 2 - 1.6, box.y + box.h / 2 - 1.6)


def blank(pen: Pen, box: Rect) -> None:
    pass


# --- feuille La Compet’ --------------------------------------------------------------------


def start_label(index: int, count: int) -> str:
    """Who starts on the index-th starting square: the best, the second, … the others."""
    if index == count - 1 and count > 1:
        return _("les autres")
    if index == 0:
        return _("1er")
    return _("%(n)se") % {"n": index + 1}


def compet_sheet(pen: Pen, area: Rect) -> None:
    """One player's sheet: the two Qualifs answers, the nine Compet’ answers, the Super Cash."""
    inner = sheet_header(pen, area, _("Feuille La Compet’"))
    y = inner.top - 6
    write_in(pen, _("Joueur :"), inner.x, y, inner.w * 0.45)
    write_in(pen, _("Thème :"), inner.x + inner.w * 0.5, y, inner.w * 0.5)
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
    rows = [[str(n), format_choice, blank, tick_cell, blank] for n in (1, 2)]
    y = table(pen, inner.x, y, inner.w, columns, rows, row_h=row_h, head_h=5)

    starts = SPEC.scoring["compet_starts"]
    y -= 5.5
    words(pen, _("Case de départ de La Compet’ :"), Rect(inner.x, y - 1, 52, 5), size=7.5,
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
    rows: list[list[str | CellFn]] = []
    for number, slot in enumerate(COMPET_SLOTS, start=1):
        if slot == SUPER_CASH:
            continue
        rows.append([str(number), format_cell(slot), points_label(FORMATS[slot].points),
                     blank, tick_cell, blank])
    pool = _("question n° ____ (%(a)s à %(b)s) :") % {"a": SUPER_CASH_POOL[0],
                                                      "b": SUPER_CASH_POOL[-1]}
    rows.append([blank, format_cell(SUPER_CASH),
                 f"{signed(SUPER_CASH_POINTS)} / {signed(-SUPER_CASH_POINTS)}",
                 lambda pen, box: words(pen, pool, Rect(box.x + 1.5, box.y, 45, box.h),
                                        size=7, fill=GREY),
                 tick_cell, blank])
    rows.append([blank, blank, blank,
                 lambda pen, box: words(pen, _("Total : case de départ + points ="),
                                        box.inset(2, 0.5), size=8, font=BOLD, align="right"),
                 blank, blank])
    table(pen, inner.x, y, inner.w, columns, rows, row_h=row_h, head_h=5)


def compet_sheet_pages(options, items) -> list[Page]:
    def draw(pen: Pen) -> None:
        for area in halves(pen):
            compet_sheet(pen, area)

    return [Page(draw)]


# --- feuille Le Défi -----------------------------------------------------------------------


def defi_sheet(pen: Pen, area: Rect) -> None:
    """One player's Défi: a format to tick and an answer per question, then the bluff."""
    inner = sheet_header(pen, area, _("Feuille Le Défi"))
    y = inner.top - 6
    write_in(pen, _("Joueur :"), inner.x, y, inner.w * 0.34)
    x = inner.x + inner.w * 0.37
    for role in (_("Challenger"), _("Champion")):
        checkbox(pen, x, y)
        words(pen, role, Rect(x + 4.2, y - 0.8, 24, 5), size=8, font=BOLD)
        x += 26
    write_in(pen, _("Thème :"), x + 2, y, inner.right - x - 2)

    questions = SPEC.kind("defi").questions_per_card
    bluff_h = 24.0
    y -= 4
    row_h = min(9.0, (y - inner.y - bluff_h - 5 - 4) / (questions + 1))
    columns = [Column(_("N°"), 9.0)]
    columns += [Column(f"{f.label} {points_label(f.points)}", 19.0) for f in FORMATS.values()]
    columns += [Column(_("Réponse"), 0), Column("✓", 9.0), Column(_("Points"), 16.0)]
    rows: list[list[str | CellFn]] = [
        [str(n)] + [tick_cell] * len(FORMATS) + [blank, tick_cell, blank]
        for n in range(1, questions + 1)
    ]
    rows.append([blank] * len(FORMATS) + [blank] + [
        lambda pen, box: words(pen, _("Total"), box.inset(2, 0.5), size=8, font=BOLD,
                               align="right"), blank, blank])
    y = table(pen, inner.x, y, inner.w, columns, rows, row_h=row_h, head_h=5)

    coup_de_bluff(pen, Rect(inner.x, y - 4 - bluff_h, inner.w, bluff_h))


def coup_de_bluff(pen: Pen, box: Rect) -> None:
    """Where the Champion's guess of the Challenger's exact score is written, and its outcome."""
    pen.rect(box, fill=LIGHT, stroke=RED, width=0.4, radius=1.5)
    line = box.top - 4.5
    tag_w = tag(pen, _("COUP DE BLUFF"), box.x + 2.5, line, size=7.5, colour=RED)
    words(pen, _("Avant le décompte, le Champion peut annoncer le score EXACT du Challenger ; "
                 "le Challenger peut refuser."),
          Rect(box.x + tag_w + 5, line - 2.5, box.w - tag_w - 7, 5), size=7.5)
    line -= 7.5
    write_in(pen, _("Score annoncé :"), box.x + 3, line - 1.2, 60, size=8)
    x = box.x + 72
    checkbox(pen, x, line - 1.5)
    words(pen, _("refusé par le Challenger"), Rect(x + 4.5, line - 2.5, 40, 5), size=7.5)
    words(pen, _("Sans bluff : à égalité ou mieux, le Champion garde sa place."),
          Rect(x + 46, line - 2.5, box.right - x - 48, 5), size=7, fill=GREY, align="right")
    line -= 6.5
    x = box.x + 3
    for outcome in (_("juste : le Champion garde sa place"),
                    _("faux : le Challenger prend sa place")):
        checkbox(pen, x, line - 1.5)
        words(pen, outcome, Rect(x + 4.5, line - 2.5, 64, 5), size=7.5)
        x += 69


def defi_sheet_pages(options, items) -> list[Page]:
    def draw(pen: Pen) -> None:
        for area in halves(pen):
            defi_sheet(pen, area)

    return [Page(draw)]


# --- the board -----------------------------------------------------------------------------


def compet_track() -> range:
    """Every square a pawn can reach in La Compet’, from the registry.

    The lowest start minus a missed Super Cash, up to the best start plus every Compet’
    point and a Super Cash.
    """
    starts = SPEC.scoring["compet_starts"]
    most = sum(FORMATS[slot].points for slot in COMPET_SLOTS if slot in FORMATS)
    return range(min(starts) - SUPER_CASH_POINTS, max(starts) + most + SUPER_CASH_POINTS + 1)


def snake(count: int, columns: int) -> list[tuple[int, int]]:
    """Return (column, row) for each square of a track that turns back at each row's end."""
    cells = []
    for index in range(count):
        row, col = divmod(index, columns)
        cells.append((col if row % 2 == 0 else columns - 1 - col, row))
    return cells


def square(pen: Pen, box: Rect, number: int, *, fill: str = WHITE, stroke: str = COLOUR,
           ink: str = INK, caption: str = "", dashed: bool = False) -> None:
    """One square of a track: its number near the top, room for pawns below."""
    if dashed:
        pen.rect(box, fill=fill)
        pen.dashed_rect(box, stroke=stroke, width=0.35)
    else:
        pen.rect(box, fill=fill, stroke=stroke, width=0.5, radius=1.5)
    label = signed(number) if number < 0 else str(number)
    size = min(box.h * 0.6, 15.0)
    pen.centred(label, box.centre[0], box.top - size * PT * 0.9, size=size, font=BOLD, fill=ink)
    if caption:
        words(pen, caption, Rect(box.x + 0.5, box.y + 0.8, box.w - 1, 3.5), size=6.5,
              font=BOLD, fill=ink, align="centre")


def compet_caption() -> str:
    starts = SPEC.scoring["compet_starts"]
    return _("Départ selon Les Qualifs : %(starts)s. Super Cash : %(plus)s ou %(minus)s. "
             "Cases grises : seulement après un Super Cash raté.") % {
        "starts": ", ".join(f"{start_label(i, len(starts))} {signed(s)}"
                            for i, s in enumerate(starts)),
        "plus": signed(SUPER_CASH_POINTS), "minus": signed(-SUPER_CASH_POINTS)}


def board(pen: Pen) -> None:
    """Both tracks on one landscape page: Les Qualifs on top, La Compet’ below."""
    m = PAGE_MARGIN
    gap = 1.6
    title = Rect(m, pen.h - m - 11, pen.w - 2 * m, 11)
    pen.rect(title, fill=COLOUR, radius=2)
    armchair(pen, title.x + 9, title.y + 1.3, 9.5)
    words(pen, SPEC.name, Rect(title.x + 17, title.y, title.w - 20, title.h), size=15,
          font=BOLD, fill=WHITE)

    low, high = SPEC.scoring["qualifs_track"]
    label_w = 30.0
    count = high - low + 1
    qualifs_side = min(22.0, (title.w - label_w - gap * (count + 1)) / (count + 2))
    track = compet_track()
    columns = 10
    rows = math.ceil(len(track) / columns)
    heading = 8.0
    room_h = title.y - m - qualifs_side - heading
    side = min((title.w - gap * (columns - 1)) / columns,
               (room_h - 12 - gap * (rows - 1)) / rows)
    spare = (room_h - rows * side - (rows - 1) * gap) / 3

    # Les Qualifs: a double square where every pawn starts, then 1 to 10.
    row = Rect(m, title.y - spare - qualifs_side, title.w, qualifs_side)
    tag(pen, _("LES QUALIFS"), row.x, row.y + qualifs_side / 2, size=9, colour=COLOUR)
    x = row.x + label_w
    start = Rect(x, row.y, qualifs_side * 2 + gap, qualifs_side)
    square(pen, start, 0, fill=LIGHT, caption=_("départ"))
    x = start.right + gap
    for number in range(low, high + 1):
        square(pen, Rect(x, row.y, qualifs_side, qualifs_side), number)
        x += qualifs_side + gap

    # La Compet’: a snake from the lowest reachable square to the highest.
    starts = SPEC.scoring["compet_starts"]
    width = columns * side + (columns - 1) * gap
    left = m + (title.w - width) / 2
    top = row.y - spare
    tag(pen, _("LA COMPET’"), left, top - 3, size=9, colour=COLOUR)
    words(pen, compet_caption(), Rect(left + 30, top - 6, width - 30, 6), size=8, fill=GREY)
    top -= heading
    boxes = []
    for col, line in snake(len(track), columns):
        boxes.append(Rect(left + col * (side + gap), top - (line + 1) * side - line * gap,
                          side, side))
    for before, after in itertools.pairwise(boxes):
        pen.line(*before.centre, *after.centre, stroke=TRAIL, width=side * 0.3)
    for number, box in zip(track, boxes, strict=True):
        if number in starts:
            index = starts.index(number)
            square(pen, box, number, fill=COLOUR, stroke=COLOUR, ink=WHITE,
                   caption=_("départ %(who)s") % {"who": start_label(index, len(starts))})
        elif number < min(starts):
            square(pen, box, number, fill=LIGHT, stroke=GREY, ink=GREY, dashed=True)
        elif number == 0:
            square(pen, box, number, fill=GOLD, stroke=GOLD)
        else:
            square(pen, box, number)


def board_pages(options, items) -> list[Page]:
    return [Page(board, landscape=True)]


# --- the red armchair and the pawns --------------------------------------------------------


def armchair(pen: Pen, cx: float, y: float, w: float) -> None:
    """Draw the red armchair, `w` mm wide, standing on y, centred on cx."""
    outline = max(0.15, w * 0.012)

    def part(x0, y0, x1, y1, fill, radius=0.0, stroke=DARK_RED):
        pen.rect(Rect(cx + x0 * w, y + y0 * w, (x1 - x0) * w, (y1 - y0) * w), fill=fill,
                 stroke=stroke, width=outline, radius=radius * w)

    part(-0.42, 0.0, -0.32, 0.14, DARK_RED)
    part(0.32, 0.0, 0.42, 0.14, DARK_RED)
    part(-0.38, 0.28, 0.38, 1.0, RED, 0.16)
    part(-0.27, 0.46, 0.27, 0.9, CUSHION, 0.1)
    part(-0.46, 0.1, 0.46, 0.34, RED, 0.05)
    part(-0.34, 0.3, 0.34, 0.44, CUSHION, 0.06)
    part(-0.55, 0.1, -0.33, 0.64, RED, 0.1)
    part(0.33, 0.1, 0.55, 0.64, RED, 0.1)


@contextmanager
def panel(pen: Pen, rect: Rect, *, upside_down: bool = False) -> Iterator[Pen]:
    """A pen over one panel of a folded marker, turned over for the panel behind."""
    c = pen.canvas
    c.saveState()
    if upside_down:
        c.translate(rect.right * MM, rect.top * MM)
        c.rotate(180)
    else:
        c.translate(rect.x * MM, rect.y * MM)
    sub = CanvasPen(c, rect.w, rect.h)
    yield sub
    # The sub-pen keeps its text pending: it must land before the state is restored.
    sub.flush()
    c.restoreState()


def prism(pen: Pen, x: float, y: float, w: float, face_h: float, base_h: float, tab_h: float,
          face: Callable[[Pen], None]) -> Rect:
    """A marker that stands as a triangle: base, front, back, glue tab, from the bottom.

    Return its outline. The back is drawn upside down so both faces stand upright.
    """
    base = Rect(x, y, w, base_h)
    front = Rect(x, base.top, w, face_h)
    back = Rect(x, front.top, w, face_h)
    glue = Rect(x + w * 0.08, back.top, w * 0.84, tab_h)
    pen.rect(base, fill=LIGHT)
    pen.polygon([(x, glue.y), (x + w, glue.y), (glue.right, glue.top), (glue.x, glue.top)],
                fill=LIGHT, stroke=INK, width=0.3)
    with panel(pen, front) as sub:
        face(sub)
    with panel(pen, back, upside_down=True) as sub:
        face(sub)
    outline = Rect(x, y, w, back.top - y)
    pen.rect(outline, stroke=INK, width=0.3)
    for fold in (base.top, front.top, back.top):
        pen.line(x, fold, x + w, fold, stroke=GREY, width=0.3, dash=(1.5, 1))
    return Rect(x, y, w, glue.top - y)


def armchair_face(pen: Pen) -> None:
    pen.background(WHITE)
    pen.rect(pen.box.inset(2), stroke=RED, width=0.6, radius=3)
    armchair(pen, pen.w / 2, pen.h * 0.3, pen.w * 0.5)
    words(pen, _("Le Champion"), Rect(3, pen.h * 0.08, pen.w - 6, pen.h * 0.16), size=16,
          font=BOLD, fill=RED, align="centre")


def fauteuil(pen: Pen) -> None:
    """The red armchair to cut, fold into a triangle and glue: it stands by the Champion."""
    m = PAGE_MARGIN
    words(pen, _("Le fauteuil rouge"), Rect(m, pen.h - m - 9, pen.w - 2 * m, 9), size=16,
          font=BOLD, fill=RED)
    words(pen, _("Découpez le contour, pliez sur les pointillés, collez la languette sous la "
                 "base : le fauteuil tient debout à côté du Champion."),
          Rect(m, pen.h - m - 18, pen.w - 2 * m, 8), size=9, valign="top")
    w, face_h, base_h, tab_h = 90.0, 80.0, 40.0, 12.0
    height = base_h + 2 * face_h + tab_h
    y = (pen.h - 18 - m - height) / 2 + m
    x = (pen.w - w) / 2
    prism(pen, x, y, w, face_h, base_h, tab_h, armchair_face)
    words(pen, _("base"), Rect(x, y, w, base_h), size=9, fill=GREY, align="centre")
    words(pen, _("colle"), Rect(x, y + base_h + 2 * face_h, w, tab_h), size=8, fill=GREY,
          align="centre")


def fauteuil_pages(options, items) -> list[Page]:
    return [Page(fauteuil)]


PAWN_COLOURS = ("orange", "jaune", "vert", "turquoise", "bleu", "violet", "rose", "marron")


def pawn_face(number: int, colour: str) -> Callable[[Pen], None]:
    def draw(pen: Pen) -> None:
        pen.background(colour)
        radius = min(pen.w, pen.h) * 0.34
        pen.circle(pen.w / 2, pen.h * 0.55, radius, fill=WHITE)
        pen.centred(str(number), pen.w / 2, pen.h * 0.55, size=radius * 1.3 / PT, font=BOLD,
                    fill=colour)

    return draw


def pions(pen: Pen) -> None:
    """A pawn per colour, numbered too, folded like the armchair to stand on the board."""
    m = PAGE_MARGIN
    words(pen, _("Les pions"), Rect(m, pen.h - m - 9, pen.w - 2 * m, 9), size=16, font=BOLD,
          fill=COLOUR)
    words(pen, _("Découpez, pliez sur les pointillés, collez la languette sous la base. "
                 "Chaque candidat garde son pion des Qualifs à La Compet’."),
          Rect(m, pen.h - m - 18, pen.w - 2 * m, 8), size=9, valign="top")
    w, face_h, base_h, tab_h = 20.0, 24.0, 12.0, 7.0
    count = len(PAWN_COLOURS)
    gap = (pen.w - 2 * m - count * w) / (count - 1)
    y = pen.h - m - 30 - (base_h + 2 * face_h + tab_h)
    for index, name in enumerate(PAWN_COLOURS):
        prism(pen, m + index * (w + gap), y, w, face_h, base_h, tab_h,
              pawn_face(index + 1, PALETTE[name]))


def pions_pages(options, items) -> list[Page]:
    return [Page(pions)]


# --- the products --------------------------------------------------------------------------


COMPET_SHEET = Sheets(
    slug="feuille-compet",
    label=gettext_lazy("Feuille La Compet’"),
    description=gettext_lazy("Deux feuilles par page : les deux réponses des Qualifs, les "
                             "neuf de La Compet’ avec leur format et leurs points, le Super "
                             "Cash et le total."),
    pages=compet_sheet_pages,
)

DEFI_SHEET = Sheets(
    slug="feuille-defi",
    label=gettext_lazy("Feuille Le Défi"),
    description=gettext_lazy("Deux feuilles par page : six réponses, le format coché pour "
                             "chacune, le total et le coup de bluff."),
    pages=defi_sheet_pages,
)

BOARD = Sheets(
    slug="plateau",
    label=pgettext_lazy("produit à imprimer", "Plateau"),
    description=gettext_lazy("Les pistes des Qualifs (1 à 10) et de La Compet’ (de la case "
                             "de départ à la plus haute atteignable), sur une page à "
                             "l’italienne."),
    pages=board_pages,
)

ARMCHAIR = Sheets(
    slug="fauteuil",
    label=gettext_lazy("Fauteuil rouge"),
    description=gettext_lazy("Le fauteuil du Champion, à plier en chevalet."),
    pages=fauteuil_pages,
)

PAWNS = Sheets(
    slug="pions",
    label=gettext_lazy("Pions"),
    description=gettext_lazy("Huit pions de couleur, numérotés, à plier en "
                             "chevalet."),
    pages=pions_pages,
)

PRODUCTS = (QUALIFS_CARDS, COMPET_CARDS, DEFI_CARDS, COMPET_SHEET, DEFI_SHEET, BOARD, ARMCHAIR,
            PAWNS)
