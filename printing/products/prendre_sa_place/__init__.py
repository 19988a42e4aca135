"""Printable products of Tout le monde veut prendre sa place.

Three card decks the Champion reads from (Les Qualifs, La Compet’, Le Défi), the two
answer sheets, the board with its Qualifs and Compet’ tracks, the red armchair and the
pawns. Every number (points per format, Compet’ slots, Super Cash pool, starting squares)
comes from the registry, cms.games.prendre_sa_place.

On every card the right proposition is printed in bold, as the rules ask; the wrong
proposition the Champion offers with it in DUO (the first wrong one) has a « DUO » pill
after it, and the free answer for CASH follows, with the variants it accepts. Nothing on
these products prints under 6.5 pt (printing.text.MIN_SIZE), and the cards keep their
text inside the pen's safe zone, however the core shapes it.

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

import itertools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

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

from ... import text as typo
from ...draw import WHITE, Pen
from ...sheets import Rect
from ...text import BOLD, CONDENSED, CONDENSED_BOLD, NBSP, REGULAR
from ..base import Deck, Page, Sheets
from ..style import (
    GAME_COLOURS,
    GOLD,
    GREY,
    INK,
    LIGHT,
    PAGE_MARGIN,
    back_pattern,
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
CARD_TOP_SIZE = 9.5  # pt: the largest body text of a poker-width card
WRAP_TOLERANCE = 1.5  # pt a card may give up to keep its answers on one line each
SHRINK_COST = 2.0  # a point less text weighs as much as two answer lines wrapped
WIDE_COLUMN = 18.0  # mm: the narrowest column a row of four propositions may have
BODY_GAP = 2.0  # mm between the header band and the questions
RULE = "#d8d2c8"  # the hairline between two questions


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
# every question fit, or a little smaller when that keeps every answer on one line. Each
# piece of user text gets a box exactly as large as its lines, so `pen.text` draws it at
# that size; when even the smallest size is too big, the boxes that fall off the card
# shrink to nothing and `pen.text` reports which question does not fit.
#
# Every question has the same indents: its number in a gutter, its text and its answers
# aligned on the gutter's edge, each proposition after a bullet. The propositions of a
# question keep the editor's order (the right one must not always come first in a CARRÉ),
# in a grid whose columns are the same for every row.


@dataclass(frozen=True)
class Placed:
    """A piece of user text: its box in mm from the body's top-left corner (top downwards).

    The text has its French typography already: the layout measured it that way.
    """

    text: str
    x: float
    top: float
    w: float
    h: float
    font: str
    label: str


@dataclass(frozen=True)
class Mark:
    """Something of ours drawn beside the text: a number disc, a pill, a bullet, a rule."""

    shape: str  # "disc", "pill", "dot", "heading", "rule"
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
    gutter: float = 0.0  # where a question's text and answers start
    height: float = 0.0
    texts: list[Placed] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)
    fits: bool = True
    wraps: int = 0  # how badly the answers wrap: lines past their first, broken answers count more

    @property
    def em(self) -> float:
        return self.size * PT

    @property
    def lead(self) -> float:
        return self.size * typo.LEADING * PT

    @property
    def middle(self) -> float:
        """From the top of a line to the middle of its letters: where marks are centred."""
        return self.em * 0.47

    @property
    def tag_size(self) -> float:
        """The size of a pill's or a disc's label: never under the floor."""
        return max(typo.MIN_SIZE, self.size * 0.8)

    @property
    def pill_h(self) -> float:
        return max(self.lead * 0.9, self.tag_size * PT * 1.1)

    @property
    def bullet(self) -> float:
        """The room a bullet takes before a proposition."""
        return self.em * 0.8

    def measure(self, value: str, font: str, size: float | None = None) -> float:
        """Return the width in mm of text that already has its typography."""
        return typo.width(value, font, size or self.size) * PT

    def wrap(self, value: str, font: str, width: float) -> list[str]:
        """Return `value`'s lines in `width` mm (a word too wide: it does not fit)."""
        lines = typo.wrap(value, font, self.size, width / PT)
        if lines is None:
            self.fits = False
            return [value]
        return lines or [""]

    def pill_width(self, label: str) -> float:
        return self.measure(label, CONDENSED_BOLD, self.tag_size) + self.tag_size * PT * 0.9

    def add(self, block: Layout, top: float) -> None:
        """Take in a block laid out on its own, its top `top` mm down this layout."""
        self.texts += [replace(t, top=t.top + top) for t in block.texts]
        self.marks += [replace(m, top=m.top + top) for m in block.marks]
        self.fits = self.fits and block.fits
        self.wraps += block.wraps


@dataclass(frozen=True)
class Piece:
    """A proposition: its text, in bold when it is the right one, and the pill after it."""

    text: str
    font: str
    label: str
    pill: str = ""  # "DUO" after the proposition offered with the right one


def question_label(question: PlayedQuestion, what: str = "") -> str:
    label = _("question %(n)s") % {"n": question.number}
    return f"{label}, {what}" if what else label


def proposition_piece(question: PlayedQuestion, index: int, *, duo_pill: bool) -> Piece:
    right = index == question.right
    return Piece(
        typo.french(question.propositions[index]),
        CONDENSED_BOLD if right else CONDENSED,
        question_label(question, _("proposition %(n)s") % {"n": index + 1}),
        pill=DUO.label if duo_pill and index == question.duo else "",
    )


def pill_room(layout: Layout, piece: Piece) -> float:
    return layout.em * 0.35 + layout.pill_width(piece.pill) if piece.pill else 0.0


def grid(layout: Layout, pieces: list[Piece], x0: float, top: float) -> float:
    """Place propositions in columns of one width: as many as keep each on one line.

    Four or two columns when every proposition holds on one line in them, else one a row;
    return the height used.
    """
    if not pieces:
        return 0.0
    gap = layout.em * 1.2
    room = layout.width - x0

    def column_width(columns: int) -> float:
        return (room + gap) / columns - gap

    def one_line_each(columns: int) -> bool:
        text_w = column_width(columns) - layout.bullet
        return all(layout.measure(p.text, p.font) + pill_room(layout, p) <= text_w
                   for p in pieces)

    # Four columns only where they are wide (La Compet’, Le Défi): on a playing card
    # a row of four reads as a crowded line, not as a grid.
    columns = next((c for c in (4, 2) if c <= len(pieces)
                    and (c == 2 or column_width(c) >= WIDE_COLUMN) and one_line_each(c)), 1)
    column_w = column_width(columns)
    y = top
    for start in range(0, len(pieces), columns):
        tallest = 1
        for col, piece in enumerate(pieces[start:start + columns]):
            x = x0 + col * (column_w + gap)
            text_w = column_w - layout.bullet
            lines = layout.wrap(piece.text, piece.font, text_w)
            if piece.pill and layout.measure(lines[-1], piece.font) + pill_room(
                    layout, piece) > text_w:
                # Room after the last line for the pill: the text wraps a little narrower.
                text_w -= pill_room(layout, piece)
                lines = layout.wrap(piece.text, piece.font, text_w)
            layout.marks.append(Mark("dot", x, y, layout.bullet, layout.lead, colour=GREY))
            layout.texts.append(Placed(piece.text, x + layout.bullet, y, text_w,
                                       len(lines) * layout.lead, piece.font, piece.label))
            if piece.pill:
                after = x + layout.bullet + layout.measure(lines[-1], piece.font)
                layout.marks.append(Mark("pill", after + layout.em * 0.35,
                                         y + (len(lines) - 1) * layout.lead,
                                         layout.pill_width(piece.pill), layout.lead,
                                         piece.pill, FORMAT_COLOURS[DUO.slug]))
            layout.wraps += (len(lines) - 1) * 2  # a proposition broken in two reads badly
            tallest = max(tallest, len(lines))
        y += tallest * layout.lead
    return y - top


def answer_units(layout: Layout, question: PlayedQuestion, width: float) -> list[tuple]:
    """Return the free answer (bold) and its variants as (text, font, label) to flow.

    Each variant is kept whole on a line when it can be; the answer and the variants that
    are wider than a line break between their words.
    """
    answer = (typo.french(question.cash_answer), CONDENSED_BOLD,
              question_label(question, _("réponse CASH")))
    units = [answer]
    variants = [typo.french(v) for v in question.variants]
    for index, variant in enumerate(variants):
        first, last = index == 0, index == len(variants) - 1
        text = ("(" if first else "") + variant + (")" if last else NBSP + "/")
        units.append((text, CONDENSED, question_label(question, _("variantes"))))
    split = []
    for text, font, label in units:
        if layout.measure(text, font) <= width:
            split.append((text, font, label))
        else:
            if font == CONDENSED_BOLD:
                layout.wraps += 2  # the answer itself broken reads worse than its variants
            split += [(word, font, label) for word in text.split(" ") if word]
    return split


def cash_row(layout: Layout, question: PlayedQuestion, x0: float, top: float, *,
             pill: bool) -> float:
    """Place the free answer in bold and its variants after it, wrapping under the answer.

    With `pill`, a CASH pill stands before it; else a bullet, as before a proposition.
    Return the height used.
    """
    if pill:
        pill_w = layout.pill_width(CASH.label)
        layout.marks.append(Mark("pill", x0, top, pill_w, layout.lead, CASH.label,
                                 FORMAT_COLOURS[CASH.slug]))
        start = x0 + pill_w + layout.em * 0.4
    else:
        layout.marks.append(Mark("dot", x0, top, layout.bullet, layout.lead, colour=GREY))
        start = x0 + layout.bullet
    width = layout.width - start
    lines: list[list[list]] = [[]]  # lines of runs: [x, text, font, label]
    cursor = 0.0
    for text, font, label in answer_units(layout, question, width):
        w = layout.measure(text, font)
        space = layout.measure(" ", font) if cursor else 0.0
        if cursor and cursor + space + w > width:
            lines.append([])
            cursor, space = 0.0, 0.0
        if w > width:
            layout.fits = False
        runs = lines[-1]
        if runs and runs[-1][2] == font and runs[-1][3] == label:
            runs[-1][1] += " " + text
        else:
            runs.append([cursor + space, text, font, label])
        cursor += space + w
    for number, runs in enumerate(lines):
        for x, text, font, label in runs:
            layout.texts.append(Placed(text, start + x, top + number * layout.lead,
                                       min(layout.measure(text, font) + 0.3, width - x),
                                       layout.lead, font, label))
    layout.wraps += len(lines) - 1
    return len(lines) * layout.lead


def place_answers(layout: Layout, question: PlayedQuestion, x0: float, top: float) -> float:
    """Lay out what the Champion reads or checks: for the slot's format, or for all three."""
    count = len(question.propositions)
    if question.slot == DUO.slug:
        pair = sorted(i for i in (question.right, question.duo) if i >= 0)
        return grid(layout, [proposition_piece(question, i, duo_pill=False) for i in pair],
                    x0, top)
    if question.slot == CARRE.slug:
        return grid(layout, [proposition_piece(question, i, duo_pill=False)
                             for i in range(count)], x0, top)
    if question.slot in (CASH.slug, SUPER_CASH):
        return cash_row(layout, question, x0, top, pill=False)
    height = grid(layout, [proposition_piece(question, i, duo_pill=True)
                           for i in range(count)], x0, top)
    return height + cash_row(layout, question, x0, top + height, pill=True)


def disc_radius(layout: Layout, number: int) -> float:
    """The radius of a question's number disc: a line high, or wide enough for its digits."""
    digits = layout.measure(str(number), CONDENSED_BOLD, layout.tag_size)
    return max(layout.lead * 0.5, digits / 2 + layout.tag_size * PT * 0.3)


def question_block(question: PlayedQuestion, size: float, width: float, gutter: float,
                   colour: str) -> Layout:
    """Lay out one question on its own: number, text, then its answers, from top 0."""
    block = Layout(size=size, width=width, gutter=gutter)
    radius = disc_radius(block, question.number)
    y = max(0.0, radius - block.middle)  # a disc taller than the line stays on the card
    block.marks.append(Mark("disc", 0, y, radius * 2, block.lead, str(question.number),
                            colour))
    text = typo.french(question.text)
    lines = block.wrap(text, CONDENSED, width - gutter)
    block.texts.append(Placed(text, gutter, y, width - gutter, len(lines) * block.lead,
                              CONDENSED, question_label(question)))
    y += len(lines) * block.lead + block.lead * 0.12
    y += place_answers(block, question, gutter, y)
    block.height = y + max(0.0, radius - (block.lead - block.middle))
    return block


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


def gutter_for(card: QuestionCard, size: float) -> float:
    """Where every question of the card starts its text: past its widest number disc."""
    probe = Layout(size=size, width=0.0)
    widest = max((disc_radius(probe, q.number) for q in card.questions), default=0.0)
    return widest * 2 + probe.em * 0.45


def lay_out_sections(card: QuestionCard, width: float, height: float, size: float,
                     rhythm: float = 0.0) -> Layout:
    """La Compet’: questions under the heading of their format, spread down the card."""
    gutter = gutter_for(card, size)

    def stack(spread: float) -> Layout:
        layout = Layout(size=size, width=width, gutter=gutter)
        y = 0.0
        for slot, questions in sections(card):
            colour = FORMAT_COLOURS.get(slot, COLOUR)
            for n, question in enumerate(questions):
                if y:
                    y += layout.lead * 0.3 + spread
                if n == 0 and slot:
                    label, note = heading_for(slot, [q.number for q in questions])
                    layout.marks.append(Mark("heading", 0, y, width, layout.lead * 1.1,
                                             label, colour, note))
                    y += layout.lead * 1.45
                block = question_block(question, size, width, gutter, colour)
                layout.add(block, y)
                y += block.height
        layout.height = y
        return layout

    layout = stack(0.0)
    gaps = len(card.questions) - 1
    if gaps > 0 and layout.fits and layout.height <= height:
        layout = stack(min((height - layout.height) / gaps, layout.lead * 1.5))
    return layout


def lay_out_free(card: QuestionCard, width: float, height: float, size: float,
                 rhythm: float = 0.0) -> Layout:
    """Les Qualifs and Le Défi: question i starts at i/n of `rhythm` when it can.

    So the second question of every Qualifs card starts half-way down, under a rule, and
    the Champion finds it at the same place on every card. `rhythm` is the height of a
    card's body (`height`, what this card has room for, may be less).
    """
    rhythm = rhythm or height
    gutter = gutter_for(card, size)
    layout = Layout(size=size, width=width, gutter=gutter)
    blocks = [question_block(q, size, width, gutter, COLOUR) for q in card.questions]
    gap = layout.lead * 0.9
    left = sum(b.height for b in blocks) + gap * (len(blocks) - 1)
    y = 0.0
    for index, block in enumerate(blocks):
        if index:
            ideal = rhythm * index / len(blocks)
            top = min(max(ideal, y + gap), height - left)
            top = max(top, y + gap)
            layout.marks.append(Mark("rule", 0, (y + top) / 2, width, 0))
            y = top
        layout.add(block, y)
        y += block.height
        left -= block.height + gap
    layout.height = y
    return layout


def sizes(top: float, bottom: float) -> Iterator[float]:
    size = top
    while size >= bottom - 1e-9:
        yield size
        size -= 0.25


def best_layout(card: QuestionCard, area: Rect, top_size: float, *,
                reserved: float = 0.0) -> Layout:
    """Return the card laid out at the largest size that fits, or a little smaller.

    A smaller size wins when it saves more wrapped answers than it costs (SHRINK_COST a
    point), down to WRAP_TOLERANCE under the largest size that fits. When even the
    smallest size is too big, return it anyway: drawing it reports what falls off the card.
    `reserved` mm at the bottom of the area stay empty, without moving the questions'
    rhythm (see `lay_out_free`).
    """
    typo.fonts()
    lay_out = lay_out_sections if any(q.slot for q in card.questions) else lay_out_free
    largest = best = layout = None

    def cost(candidate: Layout) -> float:
        return candidate.wraps + SHRINK_COST * (largest.size - candidate.size)

    for size in sizes(max(top_size, typo.MIN_SIZE), typo.MIN_SIZE):
        layout = lay_out(card, area.w, area.h - reserved, size, area.h)
        if not layout.fits or layout.height > area.h - reserved + 1e-6:
            continue
        if largest is None:
            largest = best = layout
        elif size < largest.size - WRAP_TOLERANCE - 1e-9:
            break
        elif cost(layout) < cost(best):
            best = layout
        if best.wraps == 0:
            break
    return best or layout


def draw_mark(pen: Pen, mark: Mark, area: Rect, layout: Layout) -> None:
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


def pill(pen: Pen, label: str, box: Rect, *, size: float, colour: str) -> None:
    """A rounded coloured tag with its white label, our own text."""
    pen.rect(box, fill=colour, radius=box.h / 2)
    pen.centred(label, box.centre[0], box.centre[1], size=size, font=CONDENSED_BOLD,
                fill=WHITE)


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
        pen.text(piece.text, rect, size=layout.size, font=piece.font, french=False,
                 label=piece.label)


# --- the card faces ------------------------------------------------------------------------


KIND_LABELS = {kind.slug: kind.label for kind in SPEC.kinds}
FOOT_H = typo.MIN_SIZE * PT * 1.3  # mm: the line of a card's reference and legend


def card_header(pen: Pen, title: str, subtitle: str) -> float:
    """Paint the header band to the bleed, its title and kind inside the safe zone.

    Return the y of the band's bottom edge.
    """
    safe = pen.safe
    size = 9 * min(scale(pen), 1.3)
    bottom = safe.top - size * PT * 1.2 - 2.0
    pen.rect(Rect(-pen.bleed, bottom, pen.w + 2 * pen.bleed, pen.h + pen.bleed - bottom),
             fill=COLOUR)
    # Accents stand above the letters' top: the box ends a little under the safe edge.
    head = Rect(safe.x, bottom + 1.0, safe.w, safe.top - size * PT * 0.15 - bottom - 1.0)
    if subtitle:
        sub_size = max(typo.MIN_SIZE, size * 0.8)
        sub_w = min(typo.width(typo.french(subtitle), BOLD, sub_size) * PT + 0.3,
                    head.w * 0.45)
        pen.text(subtitle, Rect(head.right - sub_w, head.y, sub_w, head.h), size=sub_size,
                 font=BOLD, fill=WHITE, align="right", valign="middle",
                 label=_("type de carte"))
        head = Rect(head.x, head.y, head.w - sub_w - 2.0, head.h)
    pen.text(title, head, size=size, font=BOLD, fill=WHITE, valign="middle",
             label=_("titre"))
    return bottom


def legend_runs(size: float) -> list[tuple[str, str, str]]:
    """The legend as runs of text: (text, font, colour), each format in its colour."""
    runs = []
    for answer_format in FORMATS.values():
        if runs:
            runs.append((" · ", CONDENSED, GREY))
        runs.append((answer_format.label, CONDENSED_BOLD, FORMAT_COLOURS[answer_format.slug]))
        runs.append((" " + points_label(answer_format.points), CONDENSED, INK))
    return runs


def legend_width(size: float) -> float:
    return sum(typo.width(typo.printable(text), font, size) * PT
               for text, font, _colour in legend_runs(size))


def legend(pen: Pen, x: float, baseline: float, size: float) -> None:
    """« DUO 1 pt · CARRÉ 3 pts · CASH 5 pts », each format in its colour."""
    for text, font, colour in legend_runs(size):
        text = typo.printable(text)
        pen.label(text, x, baseline, size=size, font=font, fill=colour)
        x += typo.width(text, font, size) * PT


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
    ref_w = min(typo.width(typo.printable(card.ref), CONDENSED, typo.MIN_SIZE) * PT + 0.3,
                safe.w)
    line = Rect(safe.x, safe.y, safe.w, FOOT_H)
    if not (with_legend and legend_width(typo.MIN_SIZE) <= safe.w):
        return Foot(None, Rect(line.right - ref_w, line.y, ref_w, FOOT_H))
    ref_y = line.y if legend_width(typo.MIN_SIZE) + 1.2 + ref_w <= safe.w else line.top
    return Foot(line, Rect(line.right - ref_w, ref_y, ref_w, FOOT_H))


def draw_foot(pen: Pen, card: QuestionCard, foot: Foot) -> None:
    size = typo.MIN_SIZE
    if foot.legend is not None:
        legend(pen, foot.legend.x, foot.legend.y + (FOOT_H - size * PT * 0.72) / 2, size)
    pen.text(typo.printable(card.ref), foot.ref, size=size, font=CONDENSED, fill=GREY,
             align="right", valign="middle", french=False, label=_("référence"))


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
        pill_h = size * PT * 1.5
        pills = [(f, typo.width(f.label, CONDENSED_BOLD, size) * PT + size * PT * 1.2)
                 for f in FORMATS.values()]
        step = max(13 * k, max(w for _f, w in pills) + 2.5,
                   max(typo.width(points_label(f.points), BOLD, size) * PT + 2.5
                       for f, _w in pills))
        y = pen.safe.y + pen.safe.h * 0.16
        for index, (answer_format, pill_w) in enumerate(pills):
            x = cx + (index - 1) * step
            pill(pen, answer_format.label, Rect(x - pill_w / 2, y + 0.4, pill_w, pill_h),
                 size=size, colour=FORMAT_COLOURS[answer_format.slug])
            pen.centred(points_label(answer_format.points), x, y - size * PT * 0.75,
                        size=size, font=BOLD, fill=WHITE)

    return draw


QUALIFS_CARDS = Deck(
    slug="qualifs",
    code="QUA",
    label=gettext_lazy("Cartes Les Qualifs"),
    description=gettext_lazy("Deux questions par carte, chacune jouable en DUO, CARRÉ ou "
                             "CASH : la bonne réponse en gras, l’autre proposition du DUO "
                             "marquée, la réponse CASH et ses variantes."),
    kind="qualifs",
    to_item=question_card,
    front=card_front,
    back_form=back_form_for("qualifs"),
)

COMPET_CARDS = Deck(
    slug="compet",
    code="CMP",
    label=gettext_lazy("Cartes La Compet’"),
    description=gettext_lazy("Un thème et 14 questions : DUO, CARRÉ, CASH puis la réserve "
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
    code="DEF",
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
    pen.text(value, rect, size=size, font=font, fill=fill, align=align,
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
    # The scissors on a gap in the line, inside the page's margin.
    pen.rect(Rect(m, pen.h / 2 - 1.8, 5.5, 3.6), fill=WHITE)
    pen.centred("✂", m + 2.75, pen.h / 2 + 0.2, size=10, fill=GREY)
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
    rows = [[str(n), format_choice, blank, tick_cell, blank] for n in (1, 2)]
    y = table(pen, inner.x, y, inner.w, columns, rows, row_h=row_h, head_h=5)

    starts = SPEC.rules.compet_starts
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
    rows: list[list[str | CellFn]] = []
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
                 lambda pen, box: words(pen, _("Total : case de départ + points ="),
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
    starts = SPEC.rules.compet_starts
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
    starts = SPEC.rules.compet_starts
    return _("Départ selon Les Qualifs : %(starts)s. Super Cash : %(plus)s ou %(minus)s. "
             "Cases grises : seulement après un Super Cash raté.") % {
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

    low, high = SPEC.rules.qualifs_track
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
    starts = SPEC.rules.compet_starts
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
    with pen.sub(front) as sub:
        face(sub)
    with pen.sub(back, upside_down=True) as sub:
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
                 "base : le fauteuil tient debout à côté du Champion."),
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


PAWN_WIDTH = 10.0  # mm
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
    # Narrow enough that four pawns share a Qualifs square, two across and two deep.
    w, face_h, base_h, tab_h = PAWN_WIDTH, 14.0, 9.0, 5.0
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
