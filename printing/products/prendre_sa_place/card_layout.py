"""Laying a card's questions out: what goes where on a Qualifs, Compet’ or Défi card.

A card's body is laid out at one text size for all its questions: the largest that lets
every question fit, or a little smaller when that keeps every answer on one line. Each
piece of user text gets a box exactly as large as its lines, so `pen.text` draws it at
that size; when even the smallest size is too big, the boxes that fall off the card
shrink to nothing and `pen.text` reports which question does not fit.

Every question has the same indents: its number in a gutter, its text and its answers
aligned on the gutter's edge, each proposition after a bullet. The propositions of a
question keep the editor's order (the right one must not always come first in a CARRÉ),
in a grid whose columns are the same for every row (printing.layout.flow.grid); the free
answer and its variants flow after it (printing.layout.flow.flow).

Nothing here draws: a `Layout` lists the texts' boxes and our own marks (number discs,
pills, bullets, headings, rules) in mm from the body's top-left corner, top downwards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace

from django.utils.translation import gettext as _

from cms.games.prendre_sa_place import CARRE, CASH, DUO, FORMATS, SUPER_CASH_POINTS, SUPER_CASH_POOL

from ... import text as typo
from ...layout.flow import Piece, Placed, flow, grid
from ...sheets import Rect
from ...text import CONDENSED, CONDENSED_BOLD, NBSP
from ...units import to_mm, to_points
from ..style import GREY, INK
from .look import COLOUR, FORMAT_COLOURS, SUPER_CASH, points_label, signed
from .questions import (
    CASH_ANSWER,
    PROPOSITION,
    VARIANTS,
    PlayedQuestion,
    QuestionCard,
    question_label,
)

WRAP_TOLERANCE = 1.5  # pt a card may give up to keep its answers on one line each
SHRINK_COST = 2.0  # a point less text weighs as much as two answer lines wrapped
WIDE_COLUMN = 18.0  # mm: the narrowest column a row of four propositions may have
SIZE_STEP = 0.25  # pt between two sizes a card tries
OVERSHOOT = 1e-6  # mm a card's questions may pass its area by: rounding, not a real overflow
# The least room between two questions, in lines: La Compet’ (its sections) and the others.
SECTION_GAP = 0.3
FREE_GAP = 0.9
# Four columns only where they are wide (La Compet’, Le Défi): on a playing card a row of
# four reads as a crowded line, not as a grid.
PROPOSITION_COLUMNS = {4: WIDE_COLUMN, 2: 0.0}


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
        return to_mm(self.size)

    @property
    def lead(self) -> float:
        return to_mm(self.size * typo.LEADING)

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
        return max(self.lead * 0.9, to_mm(self.tag_size) * 1.1)

    @property
    def bullet(self) -> float:
        """The room a bullet takes before a proposition."""
        return self.em * 0.8

    def measure(self, value: str, font: str, size: float | None = None) -> float:
        """Return the width in mm of text that already has its typography."""
        return to_mm(typo.width(value, font, size or self.size))

    def wrap(self, value: str, font: str, width: float) -> list[str]:
        """Return `value`'s lines in `width` mm (a word too wide: it does not fit)."""
        lines = typo.wrap(value, font, self.size, to_points(width))
        if lines is None:
            self.fits = False
            return [value]
        return lines or [""]

    def pill_width(self, label: str) -> float:
        return self.measure(label, CONDENSED_BOLD, self.tag_size) + to_mm(self.tag_size) * 0.9

    def pill_room(self, label: str) -> float:
        """The room a pill takes after a text, its gap included (none without a label)."""
        return self.em * 0.35 + self.pill_width(label) if label else 0.0

    def add(self, block: Layout, top: float) -> None:
        """Take in a block laid out on its own, its top `top` mm down this layout."""
        self.texts += [replace(t, top=t.top + top) for t in block.texts]
        self.marks += [replace(m, top=m.top + top) for m in block.marks]
        self.fits = self.fits and block.fits
        self.wraps += block.wraps


# --- a question's answers ------------------------------------------------------------------


def propositions(layout: Layout, question: PlayedQuestion, indexes: list[int], *,
                 duo_pill: bool) -> list[Piece]:
    """The propositions to place, the right one in bold; with `duo_pill`, room for the
    DUO pill after the wrong one offered with it."""
    pieces = []
    for index in indexes:
        pill = DUO.label if duo_pill and index == question.duo else ""
        pieces.append(Piece(
            typo.french(question.propositions[index]),
            CONDENSED_BOLD if index == question.right else CONDENSED,
            question_label(question, PROPOSITION, index + 1),
            tail=layout.pill_room(pill)))
    return pieces


def proposition_grid(layout: Layout, pieces: list[Piece], x0: float, top: float) -> float:
    """Place propositions in columns of one width: as many as keep each on one line.

    Four or two columns when every proposition holds on one line in them, else one a row;
    each after a bullet, the DUO pill after the one that has a tail. Return the height used.
    """
    placed = grid(pieces, x=x0, top=top, width=layout.width - x0, gap=layout.em * 1.2,
                  indent=layout.bullet, line_h=layout.lead, measure=layout.measure,
                  wrap=layout.wrap, choices=PROPOSITION_COLUMNS)
    for cell, piece in zip(placed.cells, pieces, strict=True):
        text = cell.placed
        layout.marks.append(Mark("dot", cell.x, text.top, layout.bullet, layout.lead,
                                 colour=GREY))
        layout.texts.append(text)
        if piece.tail:
            after = text.x + layout.measure(cell.lines[-1], piece.font)
            layout.marks.append(Mark("pill", after + layout.em * 0.35,
                                     text.top + (len(cell.lines) - 1) * layout.lead,
                                     layout.pill_width(DUO.label), layout.lead, DUO.label,
                                     FORMAT_COLOURS[DUO.slug]))
        layout.wraps += (len(cell.lines) - 1) * 2  # a proposition broken in two reads badly
    return placed.height


def answer_pieces(layout: Layout, question: PlayedQuestion, width: float) -> list[Piece]:
    """Return the free answer (bold) and its variants as pieces to flow.

    Each variant is kept whole on a line when it can be; the answer and the variants that
    are wider than a line break between their words.
    """
    answer = Piece(typo.french(question.cash_answer), CONDENSED_BOLD,
                   question_label(question, CASH_ANSWER))
    units = [answer]
    variants = [typo.french(v) for v in question.variants]
    for index, variant in enumerate(variants):
        first, last = index == 0, index == len(variants) - 1
        text = ("(" if first else "") + variant + (")" if last else NBSP + "/")
        units.append(Piece(text, CONDENSED, question_label(question, VARIANTS)))
    split = []
    for unit in units:
        if layout.measure(unit.text, unit.font) <= width:
            split.append(unit)
        else:
            if unit.font == CONDENSED_BOLD:
                layout.wraps += 2  # the answer itself broken reads worse than its variants
            split += [replace(unit, text=word) for word in unit.text.split(" ") if word]
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
    flowed = flow(answer_pieces(layout, question, width), x=start, top=top, width=width,
                  line_h=layout.lead, measure=layout.measure)
    layout.texts += flowed.placed
    layout.fits = layout.fits and flowed.fits
    layout.wraps += flowed.lines - 1
    return flowed.lines * layout.lead


def place_answers(layout: Layout, question: PlayedQuestion, x0: float, top: float) -> float:
    """Lay out what the Champion reads or checks: for the slot's format, or for all three."""
    every = list(range(len(question.propositions)))
    if question.slot == DUO.slug:
        pair = sorted(i for i in (question.right, question.duo) if i >= 0)
        return proposition_grid(layout, propositions(layout, question, pair, duo_pill=False),
                                x0, top)
    if question.slot == CARRE.slug:
        return proposition_grid(layout, propositions(layout, question, every, duo_pill=False),
                                x0, top)
    if question.slot in (CASH.slug, SUPER_CASH):
        return cash_row(layout, question, x0, top, pill=False)
    height = proposition_grid(layout, propositions(layout, question, every, duo_pill=True),
                              x0, top)
    return height + cash_row(layout, question, x0, top + height, pill=True)


# --- a question, a card --------------------------------------------------------------------


def disc_radius(layout: Layout, number: int) -> float:
    """The radius of a question's number disc: a line high, or wide enough for its digits."""
    digits = layout.measure(str(number), CONDENSED_BOLD, layout.tag_size)
    return max(layout.lead * 0.5, digits / 2 + to_mm(layout.tag_size) * 0.3)


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


def section_colour(question: PlayedQuestion) -> str:
    """La Compet’: a question's number takes the colour of its section's format."""
    return FORMAT_COLOURS.get(question.slot, COLOUR)


def game_colour(_question: PlayedQuestion) -> str:
    """Les Qualifs and Le Défi: every question's number in the game's orange."""
    return COLOUR


def question_blocks(card: QuestionCard, width: float, size: float,
                    colour: Callable[[PlayedQuestion], str]) -> Iterator[Layout]:
    """Lay out each of the card's questions on its own, in order, as they are asked for."""
    gutter = gutter_for(card, size)
    for question in card.questions:
        yield question_block(question, size, width, gutter, colour(question))


def blocks_within(blocks: Iterable[Layout], room: float, gap: float) -> list[Layout] | None:
    """Return the blocks, or None as soon as one does not fit its width or those so far,
    `gap` mm apart (the least a layout leaves between two questions), pass `room` mm."""
    taken: list[Layout] = []
    height = -gap
    for block in blocks:
        taken.append(block)
        height += gap + block.height
        if not block.fits or height > room:
            return None
    return taken


def lay_out_sections(card: QuestionCard, width: float, height: float, size: float,
                     rhythm: float = 0.0, blocks: list[Layout] | None = None) -> Layout:
    """La Compet’: questions under the heading of their format, spread down the card.

    `blocks` are the questions laid out on their own (`question_blocks`), if they are.
    """
    gutter = gutter_for(card, size)
    laid = blocks if blocks is not None else list(
        question_blocks(card, width, size, section_colour))

    def stack(spread: float) -> Layout:
        layout = Layout(size=size, width=width, gutter=gutter)
        block_of = iter(laid)
        y = 0.0
        for slot, questions in sections(card):
            colour = FORMAT_COLOURS.get(slot, COLOUR)
            for n in range(len(questions)):
                if y:
                    y += layout.lead * SECTION_GAP + spread
                if n == 0 and slot:
                    label, note = heading_for(slot, [q.number for q in questions])
                    layout.marks.append(Mark("heading", 0, y, width, layout.lead * 1.1,
                                             label, colour, note))
                    y += layout.lead * 1.45
                block = next(block_of)
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
                 rhythm: float = 0.0, blocks: list[Layout] | None = None) -> Layout:
    """Les Qualifs and Le Défi: question i starts at i/n of `rhythm` when it can.

    So the second question of every Qualifs card starts half-way down, under a rule, and
    the Champion finds it at the same place on every card. `rhythm` is the height of a
    card's body (`height`, what this card has room for, may be less). `blocks` are the
    questions laid out on their own (`question_blocks`), if they are.
    """
    rhythm = rhythm or height
    gutter = gutter_for(card, size)
    layout = Layout(size=size, width=width, gutter=gutter)
    if blocks is None:
        blocks = list(question_blocks(card, width, size, game_colour))
    gap = layout.lead * FREE_GAP
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
    """Yield the text sizes a card tries, from `top` down to `bottom` pt."""
    size = top
    while size >= bottom - 1e-9:
        yield size
        size -= SIZE_STEP


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
    lay_out: Callable[..., Layout]
    colour: Callable[[PlayedQuestion], str]
    if any(q.slot for q in card.questions):
        lay_out, colour, gap = lay_out_sections, section_colour, SECTION_GAP
    else:
        lay_out, colour, gap = lay_out_free, game_colour, FREE_GAP
    room = area.h - reserved
    largest: Layout | None = None
    best: Layout | None = None
    size = typo.MIN_SIZE

    def cost(candidate: Layout, largest: Layout) -> float:
        return candidate.wraps + SHRINK_COST * (largest.size - candidate.size)

    for size in sizes(max(top_size, typo.MIN_SIZE), typo.MIN_SIZE):
        # Most sizes tried are too large: the questions alone tell, often before the last
        # one is laid out, and the card is not put together. (Twice the overshoot: sums in
        # another order never turn away a size the whole layout would take.)
        lead = Layout(size=size, width=area.w).lead
        blocks = blocks_within(question_blocks(card, area.w, size, colour),
                               room + 2 * OVERSHOOT, lead * gap)
        if blocks is None:
            continue
        layout = lay_out(card, area.w, room, size, area.h, blocks)
        if not layout.fits or layout.height > room + OVERSHOOT:
            continue
        if largest is None or best is None:
            largest = best = layout
        elif size < largest.size - WRAP_TOLERANCE - 1e-9:
            break
        elif cost(layout, largest) < cost(best, largest):
            best = layout
        if best.wraps == 0:
            break
    # No size fits: the smallest one, drawn, reports what falls off the card.
    return best or lay_out(card, area.w, room, size, area.h)
