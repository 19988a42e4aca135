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

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import cached_property

from django.utils.translation import gettext as _

from cms.games.prendre_sa_place import CARRE, CASH, DUO, FORMATS, SUPER_CASH_POINTS, SUPER_CASH_POOL

from ... import text as typo
from ...layout.flow import Piece, Placed, column_width, flow, grid, grid_columns
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
FLOOR_SLACK = 1e-9  # mm a question's least height may pass its real one by: rounding
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
    # Widths in mm by (text, font, size): the layouts of one card share them (`best_layout`
    # tries it at many sizes, and measures the same words again at each one).
    widths: dict[tuple[str, str, float], float] = field(
        default_factory=dict, repr=False, compare=False)

    # Lengths that follow from the size, worked out once: a card's layout asks for them
    # some 100 000 times over the sizes it tries.
    em: float = field(init=False, repr=False, compare=False)
    lead: float = field(init=False, repr=False, compare=False)
    # From the top of a line to the middle of its letters: where marks are centred.
    middle: float = field(init=False, repr=False, compare=False)
    # The size of a pill's or a disc's label: never under the floor.
    tag_size: float = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.em = to_mm(self.size)
        self.lead = to_mm(self.size * typo.LEADING)
        self.middle = self.em * 0.47
        self.tag_size = max(typo.MIN_SIZE, self.size * 0.8)

    @property
    def pill_h(self) -> float:
        return max(self.lead * 0.9, to_mm(self.tag_size) * 1.1)

    @property
    def bullet(self) -> float:
        """The room a bullet takes before a proposition."""
        return self.em * 0.8

    def measure(self, value: str, font: str, size: float | None = None) -> float:
        """Return the width in mm of text that already has its typography."""
        key = (value, font, size or self.size)
        try:
            return self.widths[key]
        except KeyError:
            width = self.widths[key] = to_mm(typo.width(*key))
            return width

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
        # Built field by field: `dataclasses.replace` costs as much as the rest of the stack.
        self.texts += [Placed(t.text, t.x, t.top + top, t.w, t.h, t.font, t.label)
                       for t in block.texts]
        self.marks += [Mark(m.shape, m.x, m.top + top, m.w, m.h, m.text, m.colour, m.note)
                       for m in block.marks]
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


def answer_propositions(layout: Layout, question: PlayedQuestion) -> list[Piece]:
    """The propositions the question's slot shows: the pair in DUO, none in CASH, else all
    of them (with room for the DUO pill when the player chooses the format)."""
    if question.slot == DUO.slug:
        pair = sorted(i for i in (question.right, question.duo) if i >= 0)
        return propositions(layout, question, pair, duo_pill=False)
    if question.slot in (CASH.slug, SUPER_CASH):
        return []
    every = list(range(len(question.propositions)))
    return propositions(layout, question, every, duo_pill=question.slot != CARRE.slug)


def place_answers(layout: Layout, question: PlayedQuestion, pieces: list[Piece], x0: float,
                  top: float) -> float:
    """Lay out what the Champion reads or checks: for the slot's format, or for all three.

    `pieces` are the question's `answer_propositions`.
    """
    if question.slot in (DUO.slug, CARRE.slug):
        return proposition_grid(layout, pieces, x0, top)
    if question.slot in (CASH.slug, SUPER_CASH):
        return cash_row(layout, question, x0, top, pill=False)
    height = proposition_grid(layout, pieces, x0, top)
    return height + cash_row(layout, question, x0, top + height, pill=True)


def answers_floor(layout: Layout, question: PlayedQuestion,
                  pieces: list[Piece] | None = None) -> float:
    """The least height `place_answers` can give the question's answers, wrapping nothing.

    A line a row of propositions and a line of free answer (`cash_row`). The propositions
    are in the columns the grid takes when their `pieces` are given (`proposition_grid`),
    else in as many as the row's width allows, measuring nothing.
    """
    if question.slot in (CASH.slug, SUPER_CASH):
        return layout.lead
    width, gap = layout.width - layout.gutter, layout.em * 1.2
    if pieces is not None:
        count = len(pieces)
        columns = grid_columns(pieces, width=width, gap=gap, indent=layout.bullet,
                               measure=layout.measure, choices=PROPOSITION_COLUMNS)
    else:
        count = (len([i for i in (question.right, question.duo) if i >= 0])
                 if question.slot == DUO.slug else len(question.propositions))
        columns = max((n for n, narrowest in PROPOSITION_COLUMNS.items()
                       if n <= count and column_width(width, gap, n) >= narrowest), default=1)
    rows = -(-count // columns)
    free = 0 if question.slot in (DUO.slug, CARRE.slug) else 1
    return (rows + free) * layout.lead


# --- a question, a card --------------------------------------------------------------------

Widths = dict[tuple[str, str, float], float]
# Each paragraph of a text: its words' widths at 1 pt added up, and how many words.
Spans = tuple[tuple[float, int], ...]


def disc_radius(layout: Layout, number: int) -> float:
    """The radius of a question's number disc: a line high, or wide enough for its digits."""
    digits = layout.measure(str(number), CONDENSED_BOLD, layout.tag_size)
    return max(layout.lead * 0.5, digits / 2 + to_mm(layout.tag_size) * 0.3)


def disc_overhang(block: Layout, radius: float) -> float:
    """How far a number disc taller than its question's last line passes it."""
    return max(0.0, radius - (block.lead - block.middle))


@dataclass
class Head:
    """A question laid out down to its text: its block but its answers (`finish_block`)."""

    question: PlayedQuestion
    block: Layout
    radius: float  # its number disc's
    answers_top: float  # where its answers start

    @cached_property
    def pieces(self) -> list[Piece]:
        """The question's `answer_propositions`."""
        return answer_propositions(self.block, self.question)

    def floor(self) -> float:
        """The least height the whole block can have (`answers_floor`).

        Added up as `finish_block` adds up the block's height, from parts never larger.
        """
        return ((self.answers_top + answers_floor(self.block, self.question, self.pieces))
                + disc_overhang(self.block, self.radius))


def text_top(layout: Layout, radius: float) -> float:
    """Where a question's number disc of `radius` and its text start: a disc taller than
    the line stays on the card."""
    return max(0.0, radius - layout.middle)


def answers_top(layout: Layout, radius: float, lines: int) -> float:
    """Where a question's answers start, under its `lines` lines of text."""
    return text_top(layout, radius) + (lines * layout.lead + layout.lead * 0.12)


def question_head(question: PlayedQuestion, size: float, width: float, gutter: float,
                  colour: str, radius: float, widths: Widths) -> Head:
    """Lay out a question's number, in a disc of `radius`, and its text, from top 0."""
    block = Layout(size=size, width=width, gutter=gutter, widths=widths)
    y = text_top(block, radius)
    block.marks.append(Mark("disc", 0, y, radius * 2, block.lead, str(question.number),
                            colour))
    text = typo.french(question.text)
    lines = block.wrap(text, CONDENSED, width - gutter)
    block.texts.append(Placed(text, gutter, y, width - gutter, len(lines) * block.lead,
                              CONDENSED, question_label(question)))
    return Head(question, block, radius, answers_top(block, radius, len(lines)))


def finish_block(head: Head) -> Layout:
    """Place a question's answers under its text: its block, whole."""
    block = head.block
    y = head.answers_top
    y += place_answers(block, head.question, head.pieces, block.gutter, y)
    block.height = y + disc_overhang(block, head.radius)
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


def disc_radii(card: QuestionCard, size: float, widths: Widths) -> list[float]:
    """The radius of each question's number disc, in order."""
    probe = Layout(size=size, width=0.0, widths=widths)
    return [disc_radius(probe, q.number) for q in card.questions]


def gutter_past(radii: list[float], size: float) -> float:
    """Where every question of a card starts its text: past its widest number disc."""
    return max(radii, default=0.0) * 2 + to_mm(size) * 0.45


def gutter_for(card: QuestionCard, size: float) -> float:
    """Where every question of the card starts its text: past its widest number disc."""
    return gutter_past(disc_radii(card, size, {}), size)


def section_colour(question: PlayedQuestion) -> str:
    """La Compet’: a question's number takes the colour of its section's format."""
    return FORMAT_COLOURS.get(question.slot, COLOUR)


def game_colour(_question: PlayedQuestion) -> str:
    """Les Qualifs and Le Défi: every question's number in the game's orange."""
    return COLOUR


def question_blocks(card: QuestionCard, width: float, size: float,
                    colour: Callable[[PlayedQuestion], str]) -> Iterator[Layout]:
    """Lay out each of the card's questions on its own, in order, as they are asked for."""
    widths: Widths = {}
    radii = disc_radii(card, size, widths)
    gutter = gutter_past(radii, size)
    for question, radius in zip(card.questions, radii, strict=True):
        yield finish_block(question_head(question, size, width, gutter, colour(question),
                                         radius, widths))


def word_spans(text: str, font: str) -> Spans:
    """Each paragraph of `text` as `typo.wrap` sees it: its words' widths at 1 pt added up,
    and how many words."""
    spans = []
    for paragraph in text.split("\n"):
        words = [word for word in paragraph.split(" ") if word]
        spans.append((sum(typo.width(word, font, 1.0) for word in words), len(words)))
    return tuple(spans)


def lines_floor(spans: Spans, space: float, limit: float) -> int:
    """The fewest lines `typo.wrap` can break text into, `limit` wide and `space` a space
    at 1 pt, from its `word_spans`.

    n lines of a paragraph hold its k words and k - n spaces, at most `limit` a line:
    n ≥ (words + k spaces) / (limit + space). Taken a hair lower, for rounding.
    """
    if limit + space <= 0:
        return len(spans)
    return sum(max(1, math.ceil((words + count * space) / (limit + space) * (1 - 1e-9)))
               for words, count in spans)


def heads_within(card: QuestionCard, width: float, size: float,
                 colour: Callable[[PlayedQuestion], str], room: float, gap: float,
                 widths: Widths, spans: dict[str, Spans]) -> list[Head] | None:
    """Return the card's questions laid out down to their text, or None as soon as one's
    text does not fit its width or their least heights (`Head.floor`), `gap` mm apart,
    pass `room` mm: then their blocks would not fit either (`blocks_within`).

    Their least heights are first added up from their words' widths alone (`lines_floor`),
    propositions unmeasured: most sizes a card tries are turned away there, for little.
    `spans` keeps each question's `word_spans` from one size to the next.
    """
    radii = disc_radii(card, size, widths)
    gutter = gutter_past(radii, size)
    probe = Layout(size=size, width=width, gutter=gutter, widths=widths)
    space = typo.width(" ", CONDENSED, 1.0)
    limit = to_points(width - gutter) / size  # as `typo.wrap` has it
    # Each floor is added up as its block's height is, from parts never larger, so it is
    # never larger but for the last bits of rounding (a grid's height is a difference of
    # tops): FLOOR_SLACK.
    height = -gap
    for question, radius in zip(card.questions, radii, strict=True):
        text = typo.french(question.text)
        if text not in spans:
            spans[text] = word_spans(text, CONDENSED)
        lines = lines_floor(spans[text], space, limit)
        height += gap + ((answers_top(probe, radius, lines) + answers_floor(probe, question))
                         + disc_overhang(probe, radius))
        if height > room + FLOOR_SLACK:
            return None
    heads: list[Head] = []
    height = -gap
    for question, radius in zip(card.questions, radii, strict=True):
        head = question_head(question, size, width, gutter, colour(question), radius, widths)
        heads.append(head)
        height += gap + head.floor()
        if not head.block.fits or height > room + FLOOR_SLACK:
            return None
    return heads


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
    laid = blocks if blocks is not None else list(
        question_blocks(card, width, size, section_colour))
    gutter = laid[0].gutter if laid else gutter_for(card, size)
    lead = Layout(size=size, width=width).lead

    def stack(spread: float, layout: Layout | None = None) -> float:
        """Return the height of the stack, `spread` mm more between two questions; with a
        `layout`, place its headings and blocks in it."""
        block_of = iter(laid)
        y = 0.0
        for slot, questions in sections(card):
            for n in range(len(questions)):
                if y:
                    y += lead * SECTION_GAP + spread
                if n == 0 and slot:
                    if layout is not None:
                        label, note = heading_for(slot, [q.number for q in questions])
                        layout.marks.append(Mark("heading", 0, y, width, lead * 1.1, label,
                                                 FORMAT_COLOURS.get(slot, COLOUR), note))
                    y += lead * 1.45
                block = next(block_of)
                if layout is not None:
                    layout.add(block, y)
                y += block.height
        return y

    # Stacked tight first, only to learn how much room is left to spread them by.
    tight = stack(0.0)
    gaps = len(card.questions) - 1
    spread = 0.0
    if gaps > 0 and all(block.fits for block in laid) and tight <= height:
        spread = min((height - tight) / gaps, lead * 1.5)
    layout = Layout(size=size, width=width, gutter=gutter)
    layout.height = stack(spread, layout)
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
    if blocks is None:
        blocks = list(question_blocks(card, width, size, game_colour))
    layout = Layout(size=size, width=width,
                    gutter=blocks[0].gutter if blocks else gutter_for(card, size))
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
    widths: Widths = {}  # the card's texts, measured once at each size
    spans: dict[str, Spans] = {}  # its questions' words, measured once

    def cost(candidate: Layout, largest: Layout) -> float:
        return candidate.wraps + SHRINK_COST * (largest.size - candidate.size)

    for size in sizes(max(top_size, typo.MIN_SIZE), typo.MIN_SIZE):
        if largest is not None and best is not None and (
                size < largest.size - WRAP_TOLERANCE - 1e-9
                or SHRINK_COST * (largest.size - size) >= cost(best, largest)):
            break  # past the tolerance, or costing the best's cost for its size alone
        # Most sizes tried are too large: the questions alone tell, often before the last
        # one is laid out, and the card is not put together. (Twice the overshoot: sums in
        # another order never turn away a size the whole layout would take.)
        lead = Layout(size=size, width=area.w).lead
        heads = heads_within(card, area.w, size, colour, room + 2 * OVERSHOOT, lead * gap,
                             widths, spans)
        if heads is None:
            continue
        blocks = blocks_within(map(finish_block, heads), room + 2 * OVERSHOOT, lead * gap)
        if blocks is None:
            continue
        layout = lay_out(card, area.w, room, size, area.h, blocks)
        if not layout.fits or layout.height > room + OVERSHOOT:
            continue
        if largest is None or best is None:
            largest = best = layout
        elif cost(layout, largest) < cost(best, largest):
            best = layout
        if best.wraps == 0:
            break
    # No size fits: the smallest one, drawn, reports what falls off the card.
    return best or lay_out(card, area.w, room, size, area.h)
