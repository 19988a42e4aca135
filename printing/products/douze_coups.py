"""Printable products of Les 12 Coups de Midi: the box's cards, fiches, cover and parts."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from PIL import Image

from cms.games import kind_of
from cms.games.douze_coups import DUEL_COLOURS, SPEC
from cms.games.spec import PALETTE

from ..draw import WHITE, Issue, Pen, star_points
from ..sheets import Rect, paper_size
from ..text import (
    BOLD,
    CONDENSED,
    CONDENSED_BOLD,
    LEADING,
    MIN_SIZE,
    NBSP,
    NNBSP,
    REGULAR,
    amount,
    fit,
    french,
    width,
)
from .base import Deck, Page, Sheets
from .style import (
    ACCENT_RISE,
    DESCENT_SINK,
    GAME_COLOURS,
    GOLD,
    GREY,
    INK,
    LIGHT,
    PAGE_MARGIN,
    PAPER,
    SIDE_BEARING,
    back_pattern,
    framed,
    ink_box,
    ink_on,
    scale,
    title_size,
    top_inset,
)

GAME = "douze-coups"
POINTS_PER_MM = 72 / 25.4
RED = GAME_COLOURS[GAME]
RULES = SPEC.rules

RIGHT_INK = PALETTE["vert"]
RIGHT_TINT = "#e2f3e5"
WRONG_INK = PALETTE["rouge"]
HIDDEN_TINT = "#ececec"
RED_TINT = "#fbe7ea"
LETTERS = "ABCD"
QUESTION_FONT = CONDENSED

# Two to a sheet, turned a quarter, on A4 or Letter even with 3 mm of bleed; the image area
# is a 110 mm square.
FICHE_SIZE = (122.0, 182.0)
BANKNOTE_SIZE = (120.0, 60.0)
STAR_SIZE = (80.0, 80.0)  # the desk star and the token that covers it are the same square
NOTE_COLOURS = {10_000: PALETTE["violet"], 5_000: PALETTE["bleu"], 2_000: PALETTE["vert"],
                1_000: PALETTE["orange"]}


# --- what a card prints --------------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """One proposition as the reader sees it."""

    text: str
    right: bool
    hidden: bool


@dataclass(frozen=True)
class Asked:
    """One question of a card or fiche, with what the reader needs to judge the answer."""

    text: str
    choices: tuple[Choice, ...] = ()
    answer: str = ""
    variants: tuple[str, ...] = ()
    image: str = ""  # the file the question names, "" when it names none
    # Its size in pixels, read when the content is loaded; None when the file is gone or
    # unreadable. Part of the item, so a face measured once is measured again when it changes.
    pixels: tuple[int, int] | None = None


@dataclass(frozen=True)
class Printed:
    """A card or a fiche: its title, its pair colour and its questions in order."""

    ref: str
    kind: str
    title: str
    colour: str
    questions: tuple[Asked, ...]


def image_file(question) -> tuple[str, tuple[int, int] | None]:
    """Return the file the question's image is in and its size in pixels.

    ("", None) when the question has no image; (name, None) when its file is gone or is
    not an image any more.
    """
    if not question.image:
        return "", None
    try:
        path = question.image.path
    except (ValueError, NotImplementedError):  # a storage without local files
        return question.image.name, None
    try:
        with Image.open(path) as picture:
            return path, picture.size
    except (OSError, ValueError, Image.DecompressionBombError):
        return path, None


def printed_card(content, card) -> Printed:
    """Return what a card or fiche prints, read from the game's loaded content."""
    questions = []
    for question in content.card_questions.get(card.pk, []):
        rows = content.propositions.get(question.pk, [])
        image, pixels = image_file(question)
        questions.append(Asked(
            text=question.text,
            choices=tuple(Choice(row.text, row.is_right, row.is_hidden) for row in rows),
            answer=question.answer,
            variants=tuple(question.variant_list),
            image=image,
            pixels=pixels,
        ))
    return Printed(ref=card.ref, kind=card.kind, title=card.title,
                   colour=DUEL_COLOURS.get(card.colour, RED), questions=tuple(questions))


def slots(card: Printed) -> int:
    """Return how many question blocks the card is laid out for (its kind's count)."""
    return max(len(card.questions), kind_of(card.kind).questions_per_card)


def kind_label(card: Printed) -> str:
    return str(kind_of(card.kind).label)


def pt(base: float, k: float, floor: float = MIN_SIZE) -> float:
    """Return a text size that follows the face's scale but never drops below `floor`."""
    return max(base * k, floor)


# --- text boxes that keep their ink inside -------------------------------------------------

HAIR = 0.1  # mm added to a box measured for its text, so rounding never overflows it
MAX_BODY_SIZE = 10.0  # pt: the largest text a card's body starts from (a duel's question)


def ink_height(lines: int, size: float) -> float:
    """Return the height in mm `lines` lines of `size` pt take, strokes included."""
    em = size / POINTS_PER_MM
    return em * (LEADING * (lines - 1) + 1 + ACCENT_RISE + DESCENT_SINK)


def fits_on(value: str, font: str, size: float, box_w: float, lines: int) -> float | None:
    """Return the largest size from `size` down to MIN_SIZE at which `value` holds on
    `lines` lines of `box_w` mm, or None."""
    fitted = fit(french(value), font, size, box_w * POINTS_PER_MM, 1e6, MIN_SIZE, lines)
    return fitted.size if fitted is not None else None


# --- a card's header -----------------------------------------------------------------------

KIND_RATIO = 0.8  # the kind's size next to the title's
BAND_UNDER = 1.3  # mm of band under the title's line
HEADER_GAP = 1.3  # mm between the band and the body
TITLE_GAP = 2.0  # mm between the title and the kind on its right


@dataclass(frozen=True)
class Header:
    """A card's header band: its height and the title's lines and size."""

    band: float  # mm under the top edge
    size: float
    lines: int
    kind_w: float  # mm the kind takes on the right, 0 when the title is the kind


def header_of(pen: Pen, card: Printed) -> Header:
    """Lay the title (or kind) out on one line, two if it must, the kind on the right.

    The title's line starts where the safe zone does; the band holds it and a little
    more under it, so a long title makes its own card's band taller, not every card's.
    """
    size = title_size(pen)
    safe = pen.safe
    kind_w = 0.0
    if card.title:
        kind_w = width(kind_label(card), BOLD, max(size * KIND_RATIO, MIN_SIZE)) / POINTS_PER_MM
    # As wide as the title's ink box will be (see `ink_box`) at the largest size.
    title_w = (safe.w - (kind_w + TITLE_GAP if kind_w else 0.0)
               - 2 * SIDE_BEARING * size / POINTS_PER_MM)
    title = card.title or kind_label(card)
    lines, fitted = 1, fits_on(title, BOLD, size, title_w, 1)
    if fitted is None:
        lines, fitted = 2, fits_on(title, BOLD, size, title_w, 2)
    # Too long even on two lines: the band is laid out for two and the pen reports it.
    fitted = fitted or MIN_SIZE
    band = top_inset(pen) + ink_height(lines, fitted) + HAIR + BAND_UNDER
    return Header(band, fitted, lines, kind_w)


def frame(pen: Pen, card: Printed, *, colour: str = RED) -> Rect:
    """Draw the card's paper and header: its title (or kind) left, the kind right.

    Return the body: the safe zone under the band.
    """
    header = header_of(pen, card)
    pen.background(PAPER)
    pen.rect(Rect(-pen.bleed, pen.h - header.band, pen.w + 2 * pen.bleed,
                  header.band + pen.bleed), fill=colour)
    safe = pen.safe
    line = Rect(safe.x, pen.h - header.band + BAND_UNDER, safe.w,
                ink_height(header.lines, header.size) + HAIR)
    text = ink_on(colour)
    if header.kind_w:
        kind_size = max(header.size * KIND_RATIO, MIN_SIZE)
        pen.text(kind_label(card), ink_box(line, kind_size), size=kind_size, font=BOLD,
                 fill=text, align="right", valign="middle", max_lines=1, french=False,
                 label=_("type"))
        line = Rect(line.x, line.y, line.w - header.kind_w - TITLE_GAP, line.h)
    pen.text(card.title or kind_label(card), ink_box(line, header.size), size=header.size,
             font=BOLD, fill=text, valign="middle", max_lines=header.lines, label=_("titre"))
    # The last line's tails (g, p, q) may reach under its box: they stay in the safe zone.
    bottom = safe.y + DESCENT_SINK * MAX_BODY_SIZE / POINTS_PER_MM
    return Rect(safe.x, bottom, safe.w, pen.h - header.band - HEADER_GAP - bottom)


def disc(pen: Pen, number: int, x: float, y: float, *, radius: float, colour: str = RED,
         text_colour: str = WHITE) -> None:
    """Draw a numbered disc centred on (x, y), its number never under the readable size."""
    pen.circle(x, y, radius, fill=colour)
    pen.centred(str(number), x, y, size=max(radius * 2.6, MIN_SIZE), font=BOLD,
                fill=text_colour)


# --- marks ---------------------------------------------------------------------------------


def tick(pen: Pen, x: float, y: float, size: float, *, colour: str = RIGHT_INK) -> None:
    """Draw a check mark in a `size` mm square whose bottom-left corner is (x, y)."""
    stroke = max(0.35, size * 0.16)
    pen.line(x + size * 0.05, y + size * 0.5, x + size * 0.38, y + size * 0.12,
             stroke=colour, width=stroke)
    pen.line(x + size * 0.38, y + size * 0.12, x + size * 0.98, y + size * 0.9,
             stroke=colour, width=stroke)


# A hidden proposition wears "CACHÉE" on its top border, like a legend; the visible ones
# wear nothing: one word tells the reader which one not to read out.
TAG_SIZE = MIN_SIZE  # pt
TAG_H = 2.3  # mm: the tag's dark box, as tall as « É » at TAG_SIZE and a hair
TAG_RISE = 0.6  # mm the tag's middle sits above the border: most of it outside the box
TAG_CLEAR = 0.3  # mm between the tag and the text above or inside
CHIP_TOP = TAG_H / 2 - TAG_RISE + TAG_CLEAR  # mm between a box's top border and its text
CHIP_BOTTOM = 0.7
CHIP_PAD = CHIP_TOP + CHIP_BOTTOM  # mm a proposition's box adds to its text's height


def text_height(value: str, font: str, size: float, box_w: float) -> float:
    """Return the height in mm that `value` needs at `size` in a box `box_w` mm wide."""
    fitted = fit(french(value), font, size, box_w * POINTS_PER_MM, 1e6, size)
    if fitted is None:  # a word wider than the box: it will be reported when drawn
        return 1e6
    return (fitted.leading * (len(fitted.lines) - 1) + fitted.size) / POINTS_PER_MM


def sizes_from(largest: float, smallest: float = MIN_SIZE):
    """Yield text sizes from `largest` down to `smallest`, half a point apart."""
    size = max(largest, smallest)
    while size >= smallest - 1e-9:
        yield size
        size -= 0.5


@dataclass(frozen=True)
class Plan:
    """Rows of different heights in one column, and the text size they are drawn at."""

    size: float
    rows: tuple[Rect, ...]
    squeezed: tuple[bool, ...]  # rows that got less than their text needs

    alone: tuple[bool, ...]  # rows too long for the whole column on their own

    @property
    def fits(self) -> bool:
        return not any(self.squeezed)

    def report(self, pen: Pen) -> None:
        """Report the questions too long on their own, else all of them as too long together."""
        if any(self.alone):
            for number, alone in enumerate(self.alone, start=1):
                if alone:
                    pen.report(Issue("text_overflow", _("question %(n)s") % {"n": number}))
            return
        pen.report(Issue("text_overflow", _("l’ensemble des questions")))


def plan_rows(body: Rect, gap: float, largest: float, needs) -> Plan:
    """Give each row the height its text needs at the largest size where all rows fit.

    `needs(size)` returns each row's height at that size. What is left over is shared
    out equally. When even the smallest size does not fit, the plan says which rows are
    squeezed, and the face reports them instead of drawing overlapping text.
    """
    size, heights = MIN_SIZE, []
    for size in sizes_from(largest):
        heights = needs(size)
        if sum(heights) + gap * (len(heights) - 1) <= body.h + 1e-6:
            break
    room = body.h - gap * (len(heights) - 1)
    total = sum(heights) or 1.0
    needed = heights
    if total > room:
        heights = [h * room / total for h in heights]
    else:
        heights = [h + (room - total) / len(heights) for h in heights]
    rows, top = [], body.top
    for height in heights:
        rows.append(Rect(body.x, top - height, body.w, height))
        top -= height + gap
    squeezed = tuple(got < need - 1e-6 for got, need in zip(heights, needed, strict=True))
    alone = tuple(need > room + 1e-6 for need in needed)
    return Plan(size, tuple(rows), squeezed, alone)


def chip(pen: Pen, rect: Rect, choice: Choice, *, size: float, label: str) -> None:
    """Draw one proposition in its box, the hidden one tagged, the right one ticked."""
    fill = RIGHT_TINT if choice.right else (HIDDEN_TINT if choice.hidden else PAPER)
    border = RIGHT_INK if choice.right else GREY
    pen.rect(rect, fill=fill)
    if choice.hidden:
        pen.dashed_rect(rect, stroke=border, width=0.3, dash=(1.2, 0.8))
        tag_box = Rect(rect.x + 1.0, rect.top + TAG_RISE - TAG_H / 2, hidden_tag_width(), TAG_H)
        pen.rect(tag_box, fill=INK, radius=0.4)
        cx, cy = tag_box.centre
        # `centred` sets capitals' middle on cy; the accent on É rises above them.
        pen.centred(hidden_tag(), cx, cy - 0.1, size=TAG_SIZE, font=BOLD, fill=WHITE)
    else:
        pen.rect(rect, stroke=border, width=0.3)
    inner = chip_inner(rect, choice, size)
    if choice.right:
        mark = tick_size(size)
        tick(pen, rect.right - mark - 0.8, inner.y + (inner.h - mark) / 2, mark)
    pen.text(choice.text, inner, size=size, font=choice_font(choice), valign="middle",
             label=label)


def hidden_tag() -> str:
    return _("cachée").upper()


def hidden_tag_width() -> float:
    """Return the width in mm of the hidden proposition's tag, its padding included."""
    return width(hidden_tag(), BOLD, TAG_SIZE) / POINTS_PER_MM + 1.4


def tick_size(size: float) -> float:
    return size * 0.33


def chip_inner(rect: Rect, choice: Choice, size: float) -> Rect:
    """Return where a proposition's text goes inside its box (the tick keeps its room)."""
    mark = tick_size(size) + 0.6 if choice.right else 0.0
    return Rect(rect.x + 1.0, rect.y + CHIP_BOTTOM, rect.w - 2.0 - mark, rect.h - CHIP_PAD)


def choice_font(choice: Choice) -> str:
    return CONDENSED_BOLD if choice.right else CONDENSED


def longest_word(value: str, font: str, size: float) -> float:
    """Return the width in mm of the widest word of `value`."""
    # Split on plain spaces only, as wrapping does: « and » hold to their word.
    return max((width(word, font, size) for word in french(value).split(" ")),
               default=0.0) / POINTS_PER_MM


def chip_widths(choices: tuple[Choice, ...], size: float, room: float) -> list[float]:
    """Share a row's width between propositions: long ones get more, none breaks a word."""
    if not choices:
        return []
    pads = [2.0 + (tick_size(size) + 0.6 if c.right else 0.0) for c in choices]
    natural = [width(french(c.text), choice_font(c), size) / POINTS_PER_MM + pad
               for c, pad in zip(choices, pads, strict=True)]
    # A box is never narrower than its longest word, nor a hidden one than its tag.
    least = [max(longest_word(c.text, choice_font(c), size) + pad + 0.2,
                 hidden_tag_width() + 2.0 if c.hidden else 0.0)
             for c, pad in zip(choices, pads, strict=True)]
    natural = [max(n, m) for n, m in zip(natural, least, strict=True)]
    if sum(natural) <= room:
        extra = (room - sum(natural)) / len(choices)
        return [n + extra for n in natural]
    if sum(least) > room:
        return [room / len(choices)] * len(choices)
    stretch = sum(n - m for n, m in zip(natural, least, strict=True)) or 1.0
    spare = room - sum(least)
    return [m + (n - m) * spare / stretch for n, m in zip(natural, least, strict=True)]


@dataclass(frozen=True)
class BlockLayout:
    """How a numbered question block is cut: disc, question and a row of propositions."""

    k: float

    @property
    def radius(self) -> float:
        return max(2.1, 2.2 * self.k)

    @property
    def gap(self) -> float:
        """Between the question and its propositions' top border (a tag rises into it)."""
        return TAG_H / 2 + TAG_RISE + TAG_CLEAR

    @property
    def chip_gap(self) -> float:
        return 1.4 * self.k

    @property
    def indent(self) -> float:
        """Where the question's text starts: right of the disc."""
        return 2 * self.radius + 1.2

    def text_w(self, block_w: float) -> float:
        return block_w - self.indent

    def chips(self, question: Asked, size: float, block_w: float) -> tuple[list[float], float]:
        """Return the propositions' widths and the height of their row."""
        room = block_w - self.chip_gap * (len(question.choices) - 1)
        widths = chip_widths(question.choices, size, room)
        height = max((text_height(c.text, choice_font(c), size,
                                  chip_inner(Rect(0, 0, w, 100), c, size).w)
                      for c, w in zip(question.choices, widths, strict=True)), default=0.0)
        return widths, height + CHIP_PAD

    def question_h(self, question: Asked, size: float, block_w: float) -> float:
        """Return the height of the disc and the question, its first line on the disc."""
        asked = text_height(question.text, QUESTION_FONT, size, self.text_w(block_w))
        return max(self.radius - size / POINTS_PER_MM / 2 + asked, 2 * self.radius)

    def need(self, question: Asked, size: float, block_w: float) -> float:
        return (self.question_h(question, size, block_w) + self.gap
                + self.chips(question, size, block_w)[1])


def question_block(pen: Pen, block: Rect, number: int, question: Asked, *,
                   layout: BlockLayout, size: float, colour: str = RED) -> None:
    """Draw a numbered question over its row of propositions."""
    widths, chip_h = layout.chips(question, size, block.w)
    radius = layout.radius
    # Centre the question and its propositions in the block, the disc on the first line.
    # Room to spare goes a third between them, the rest above and below.
    spare = max(0.0, block.h - layout.need(question, size, block.w))
    gap = layout.gap + spare / 3
    top = block.top - spare / 3
    bottom = max(block.y, top - layout.question_h(question, size, block.w) - gap - chip_h)
    centre_y = top - radius
    disc(pen, number, block.x + radius, centre_y, radius=radius, colour=colour)
    text_top = centre_y + size / POINTS_PER_MM / 2
    text_y = bottom + chip_h + gap
    text = Rect(block.x + layout.indent, text_y, layout.text_w(block.w), text_top - text_y)
    prefix = _("question %(n)s") % {"n": number}
    pen.text(question.text, text, size=size, font=QUESTION_FONT, valign="top", label=prefix)
    x = block.x
    for index, (choice, chip_w) in enumerate(zip(question.choices, widths, strict=True)):
        chip(pen, Rect(x, bottom, chip_w, chip_h), choice, size=size,
             label=_("%(question)s, proposition %(n)s") % {"question": prefix, "n": index + 1})
        x += chip_w + layout.chip_gap


def separators(pen: Pen, rows, gap: float) -> None:
    for upper in rows[:-1]:
        y = upper.y - gap / 2
        pen.line(upper.x, y, upper.right, y, stroke=LIGHT, width=0.3)


def padded(questions: tuple[Asked, ...], count: int) -> tuple[Asked, ...]:
    """Return the questions with empty ones after them, up to the card's count of slots."""
    return questions + (Asked(""),) * (count - len(questions))


# --- coup d'envoi and coup de maître -------------------------------------------------------


def numbered_questions_front(pen: Pen, card: Printed) -> None:
    """Draw the card's questions numbered from 1, each over its propositions."""
    k = scale(pen)
    body = frame(pen, card)
    layout = BlockLayout(k)
    gap = 1.4 * k
    questions = padded(card.questions, slots(card))
    plan = plan_rows(body, gap, 8.5 * k,
                     lambda size: [layout.need(q, size, body.w) for q in questions])
    if not plan.fits:
        plan.report(pen)
        return
    separators(pen, plan.rows, gap)
    for number, (row, question) in enumerate(zip(plan.rows, card.questions, strict=False), 1):
        question_block(pen, row, number, question, layout=layout, size=plan.size)


def content_back_form(title: str):
    """Return a back drawing: the game's red pattern with the kind's name."""

    def draw(pen: Pen) -> None:
        back_pattern(pen, colour=RED, title=title, emblem="12")

    return draw


# --- duel ----------------------------------------------------------------------------------


def duel_front(pen: Pen, card: Printed) -> None:
    """Draw the pair's title in the pair's colour, the question and its four propositions."""
    k = scale(pen)
    body = frame(pen, card, colour=card.colour)
    question = card.questions[0] if card.questions else Asked("")
    gap = 1.3 * k
    row_h = min(8.5 * k, body.h * 0.12)
    count = max(len(question.choices), 4)
    props_h = count * row_h + (count - 1) * gap
    pen.text(question.text, Rect(body.x, body.y + props_h + 2, body.w, body.h - props_h - 2),
             size=pt(11, k), valign="middle", label=_("question"))
    y = body.y + props_h - row_h
    # A light pair colour (yellow) reads badly on white: its letters go in ink.
    letters = card.colour if ink_on(card.colour) == WHITE else INK
    for letter, choice in zip(LETTERS, question.choices, strict=False):
        box = Rect(body.x, y, body.w, row_h)
        pen.rect(box, fill=RIGHT_TINT if choice.right else PAPER,
                 stroke=RIGHT_INK if choice.right else card.colour,
                 width=0.5 if choice.right else 0.3, radius=row_h / 2)
        pen.centred(letter, box.x + row_h * 0.55, box.y + row_h / 2, size=pt(8, k),
                    font=BOLD, fill=letters)
        mark = row_h * 0.5 if choice.right else 0.0
        if mark:
            tick(pen, box.right - row_h * 0.45 - mark, box.y + row_h * 0.25, mark)
        pen.text(choice.text, Rect(box.x + row_h * 1.1, box.y + 0.4,
                                   box.w - row_h * 1.5 - mark, row_h - 0.8),
                 size=pt(8.5, k), font=BOLD if choice.right else REGULAR, valign="middle",
                 label=_("proposition %(letter)s") % {"letter": letter})
        y -= row_h + gap


BACK_FRAME = 0.07  # of the face's width: the white frame of a back, as the game's backs have


def back_frame(pen: Pen) -> Rect:
    """Draw a back's white and gold frames, above the face's identifier if it has one.

    Return the inside of the gold frame.
    """
    outer = framed(pen, pen.w * BACK_FRAME)
    pen.rect(outer, stroke=WHITE, width=0.6, radius=2.5)
    gold = outer.inset(1.4)
    pen.rect(gold, stroke=GOLD, width=0.3, radius=2)
    return gold


def duel_back(pen: Pen, card: Printed) -> None:
    """Draw the pair's back: the game's emblem, then its title on a plate of its colour.

    Both cards of a pair share it, so the provoked player chooses one face down; the
    plate stays inside the frame, clear of everything else.
    """
    k = scale(pen)
    pen.background(RED)
    inside = back_frame(pen)
    cx = inside.centre[0]
    pen.centred("12", cx, inside.top - inside.h * 0.2, size=pt(26, k), font=BOLD, fill=GOLD)
    kind_size = pt(11, k)
    kind_y = inside.top - inside.h * 0.37
    pen.centred(kind_label(card).upper(), cx, kind_y, size=kind_size, font=BOLD, fill=WHITE)
    margin = 2.2 * k
    plate_top = kind_y - kind_size / POINTS_PER_MM * 0.7 - 3.0 * k
    plate = Rect(inside.x + margin, inside.y + margin, inside.w - 2 * margin,
                 plate_top - inside.y - margin)
    pen.rect(plate, fill=card.colour, stroke=WHITE, width=0.5, radius=2.0)
    pen.text(card.title or kind_label(card), plate.inset(2.0 * k), size=pt(12, k),
             font=BOLD, fill=ink_on(card.colour), align="centre", valign="middle",
             label=_("titre"))


# --- coup fatal ----------------------------------------------------------------------------


@dataclass(frozen=True)
class FatalRow:
    """How one coup fatal question sits: its lines, and where its answer goes.

    The answer is right-aligned, on the question's last line when there is room, else on
    a line of its own; the accepted variants follow it in small grey letters, beside it
    when they fit, else on the lines under it.
    """

    size: float
    question_lines: int
    answer_inline: bool  # on the question's last line
    variants_beside: bool  # on the answer's line
    variant_lines: int  # lines of their own under the answer

    @property
    def leading(self) -> float:
        return self.size * LEADING / POINTS_PER_MM

    @property
    def variant_size(self) -> float:
        return variant_size(self.size)

    @property
    def height(self) -> float:
        lines = self.question_lines + (0 if self.answer_inline else 1)
        height = lines * self.leading
        if self.variant_lines:
            height += UNDER_GAP + self.variant_lines * self.variant_size * LEADING / POINTS_PER_MM
        return height


# pt: the accepted variants, read only when an answer is doubtful: a point under the
# answer, grey and condensed, but never under the readable size.
VARIANT_SIZE = MIN_SIZE
ANSWER_PAD = 0.7  # mm of tint either side of an answer
ANSWER_SPACE = 1.5  # mm kept between a question's last word and an answer beside it
VARIANT_SPACE = 1.2  # mm between an answer and the variants beside it
UNDER_GAP = 0.3  # mm between an answer's tint and the variants under it


def variant_size(size: float) -> float:
    return max(size - 1.0, VARIANT_SIZE)


def fatal_row(question: Asked, size: float, box_w: float) -> FatalRow:
    """Return the shortest arrangement of a question and its answer in `box_w` mm."""
    fitted = fit(french(question.text), QUESTION_FONT, size, box_w * POINTS_PER_MM, 1e6, size)
    if fitted is None:  # a word wider than the card: reported when drawn
        return FatalRow(size, 99, False, False, 0)
    lines = len(fitted.lines)
    last = width(fitted.lines[-1], QUESTION_FONT, size) / POINTS_PER_MM if question.text else 0
    answer = width(french(question.answer), CONDENSED_BOLD, size) / POINTS_PER_MM
    answer += 2 * ANSWER_PAD
    small = variant_size(size)
    variants = variant_line(question, small, box_w)
    beside = (width(french(variants), CONDENSED, small) / POINTS_PER_MM + VARIANT_SPACE
              if variants else 0.0)
    under = 0
    if variants:
        fitted_variants = fit(french(variants), CONDENSED, small, box_w * POINTS_PER_MM, 1e6,
                              small)
        under = len(fitted_variants.lines) if fitted_variants else 99
    inline = last + ANSWER_SPACE + answer <= box_w
    options = [
        FatalRow(size, lines, inline, True, 0)
        if last + ANSWER_SPACE + answer + beside <= box_w else None,
        FatalRow(size, lines, True, False, under) if inline and variants else None,
        FatalRow(size, lines, False, True, 0) if answer + beside <= box_w else None,
        FatalRow(size, lines, False, False, under),
    ]
    return min((o for o in options if o is not None), key=lambda o: o.height)


def variant_line(question: Asked, size: float, box_w: float) -> str:
    """Return the variants as one line to wrap only between them, where each one allows.

    The dot holds to the variant before it, so no line starts with one; a variant's words
    hold together unless it is wider than `box_w` mm on its own.
    """
    held = []
    for variant in question.variants:
        together = variant.replace(" ", NBSP)
        fits = width(french(together), CONDENSED, size) / POINTS_PER_MM <= box_w
        held.append(together if fits else variant)
    return f"{NNBSP}· ".join(held)


FATAL_GAP = 0.4  # mm between two questions of a coup fatal


def number_width(size: float) -> float:
    """Return the width of the column that numbers a coup fatal's questions up to 10."""
    return width("10", CONDENSED_BOLD, size) / POINTS_PER_MM + 0.7


def fatal_front(pen: Pen, card: Printed) -> None:
    """Draw ten quick questions, each with its answer and the variants the reader accepts."""
    k = scale(pen)
    body = frame(pen, card)
    questions = padded(card.questions, slots(card))
    plan = plan_rows(body, FATAL_GAP, 7.5 * k, lambda size: [
        fatal_row(q, size, body.w - number_width(size)).height for q in questions])
    if not plan.fits:
        # Drawn anyway, the rows would overlap: report them and draw no questions.
        plan.report(pen)
        return
    separators(pen, plan.rows, FATAL_GAP)
    number_w = number_width(plan.size)
    for number, (row, question) in enumerate(zip(plan.rows, card.questions, strict=False), 1):
        layout = fatal_row(question, plan.size, body.w - number_w)
        fatal_question(pen, row, number, question, layout, number_w)


def fatal_question(pen: Pen, row: Rect, number: int, question: Asked, layout: FatalRow,
                   number_w: float) -> None:
    """Draw one question of a coup fatal in its row: number, question, answer, variants."""
    size = layout.size
    floor = min(size, MIN_SIZE)
    leading = layout.leading
    top = row.top - max(0.0, (row.h - layout.height) / 2)
    line_h = size / POINTS_PER_MM
    pen.centred(str(number), row.x + number_w / 2 - 0.2, top - line_h / 2, size=size,
                font=CONDENSED_BOLD, fill=RED)
    x = row.x + number_w
    box_w = row.right - x
    prefix = _("question %(n)s") % {"n": number}
    question_h = (layout.question_lines - 1) * leading + line_h
    pen.text(question.text, Rect(x, top - question_h - 0.05, box_w, question_h + 0.1),
             size=size, min_size=floor, font=QUESTION_FONT, valign="top", label=prefix)
    # The top of the line the answer sits on.
    line_top = top - (layout.question_lines - (1 if layout.answer_inline else 0)) * leading
    small = layout.variant_size
    variants = variant_line(question, small, box_w)
    beside = 0.0
    if variants and layout.variants_beside:
        beside = width(french(variants), CONDENSED, small) / POINTS_PER_MM + VARIANT_SPACE
    answer_w = width(french(question.answer), CONDENSED_BOLD, size) / POINTS_PER_MM
    tint = Rect(row.right - beside - answer_w - 2 * ANSWER_PAD, line_top - line_h - 0.3,
                answer_w + 2 * ANSWER_PAD, line_h + 0.6)
    pen.rect(tint, fill=RIGHT_TINT, radius=0.8)
    pen.text(question.answer, Rect(tint.x, line_top - line_h - 0.05, tint.w, line_h + 0.1),
             size=size, min_size=floor, font=CONDENSED_BOLD, align="centre", valign="top",
             label=_("%(question)s, réponse") % {"question": prefix})
    if not variants:
        return
    label = _("%(question)s, variantes") % {"question": prefix}
    if layout.variants_beside:
        # Same baseline as the answer: the block ends where the answer's line ends.
        small_h = small / POINTS_PER_MM
        drop = line_h * 0.8 - small_h * 0.8
        box = Rect(tint.right + VARIANT_SPACE - 0.2, line_top - drop - small_h - 0.05,
                   beside - VARIANT_SPACE + 0.2, small_h + 0.1)
    else:
        lines_h = ((layout.variant_lines - 1) * small * LEADING + small) / POINTS_PER_MM
        under = tint.y - UNDER_GAP + 0.3
        box = Rect(x, under - lines_h - 0.05, box_w, lines_h + 0.1)
    pen.text(variants, box, size=small, min_size=min(small, VARIANT_SIZE), font=CONDENSED,
             fill=GREY, align="right", valign="top", label=label)


# --- fiches and the tableau révélateur -----------------------------------------------------


@dataclass(frozen=True)
class FicheAreas:
    """Where things lie on a fiche, and so on the tableau révélateur laid over it.

    The image area is cut into rows: on the left the large panels (the coup par coup's
    propositions), on the right the small panels (its VRAI / FAUX).
    """

    header: Rect
    image: Rect
    answer: Rect
    large: tuple[Rect, ...]
    small: tuple[Rect, ...]


def fiche_areas(w: float = FICHE_SIZE[0], h: float = FICHE_SIZE[1]) -> FicheAreas:
    """Return the areas of a fiche `w` × `h` mm: one geometry for fiches and cover."""
    margin, gap = 6.0, 4.0
    inner_w = w - 2 * margin
    answer = Rect(margin, margin, inner_w, 24.0)
    # A square image area: the mystery pictures are square.
    image = Rect(margin, answer.top + gap, inner_w, inner_w)
    header = Rect(margin, image.top + gap, inner_w, h - margin - image.top - gap)
    rows = RULES.large_panels
    if RULES.small_panels != rows:
        raise ValueError("the tableau pairs each large panel with a small one")
    row_h = image.h / rows
    large_w = round(image.w * RULES.large_panel_width, 2)
    large = tuple(Rect(image.x, image.top - (i + 1) * row_h, large_w, row_h)
                  for i in range(rows))
    small = tuple(Rect(image.x + large_w, r.y, image.w - large_w, row_h) for r in large)
    return FicheAreas(header, image, answer, large, small)


AREAS = fiche_areas()


def same_words(first: str, second: str) -> bool:
    """Whether two labels say the same, articles, case and apostrophes aside."""

    def words(value: str) -> str:
        value = value.casefold().replace("’", "'").strip()
        for article in ("l'", "la ", "le ", "les "):
            value = value.removeprefix(article)
        return " ".join(value.split())

    return words(first) == words(second)


FICHE_BAND = 7.0  # mm: the red band at the top of a fiche's header


def fiche_header(pen: Pen, card: Printed, areas: FicheAreas, statement: str) -> None:
    """Draw the kind and title on a red band, then the statement the players read.

    A title that only repeats the kind (« L’étoile mystérieuse ») is left out.
    """
    header = areas.header
    band = Rect(header.x, header.top - FICHE_BAND, header.w, FICHE_BAND)
    pen.rect(band, fill=RED, radius=1.5)
    line = ink_box(band.inset(2.5, 0), 10)
    kind = kind_label(card)
    kind_w = width(kind, BOLD, 10) / POINTS_PER_MM
    pen.text(kind, Rect(line.x, line.y, kind_w + HAIR, line.h), size=10, font=BOLD,
             fill=WHITE, valign="middle", max_lines=1, label=_("type"), french=False)
    if card.title and not same_words(card.title, kind):
        pen.text(card.title, Rect(line.x + kind_w + 4, line.y, line.w - kind_w - 4, line.h),
                 size=10, font=BOLD, fill=WHITE, align="right", valign="middle",
                 max_lines=1, label=_("titre"))
    pen.text(statement, Rect(header.x + 1, header.y, header.w - 2, header.h - band.h - 1.5),
             size=13, font=BOLD, align="centre", valign="middle", label=_("énoncé"))


def coup_par_coup_front(pen: Pen, card: Printed) -> None:
    """Draw the statement, 7 propositions on the large panels, VRAI or FAUX on the small."""
    areas = AREAS
    pen.background(PAPER)
    question = card.questions[0] if card.questions else Asked("")
    fiche_header(pen, card, areas, question.text)
    for number, (large, small) in enumerate(zip(areas.large, areas.small, strict=True), 1):
        pen.rect(large, stroke=GREY, width=0.3)
        pen.rect(small, fill=LIGHT, stroke=GREY, width=0.3)
        disc(pen, number, large.x + 5, large.y + large.h / 2, radius=3.2)
        if number > len(question.choices):
            continue
        choice = question.choices[number - 1]
        pen.text(choice.text, Rect(large.x + 10, large.y + 1, large.w - 12, large.h - 2),
                 size=12, min_size=7, valign="middle",
                 label=_("proposition %(n)s") % {"n": number})
        word, colour = (_("VRAI"), RIGHT_INK) if choice.right else (_("FAUX"), WRONG_INK)
        cx, cy = small.centre
        pen.centred(word, cx, cy, size=16 if not choice.right else 14, font=BOLD, fill=colour)
    intruders = [c.text for c in question.choices if not c.right]
    answer = areas.answer
    pen.rect(answer, fill=RED_TINT, stroke=RED, width=0.3, radius=1.5)
    pen.text(_("L’intrus (FAUX)"), Rect(answer.x + 3, answer.top - 7, answer.w - 6, 5),
             size=8, font=BOLD, fill=RED, valign="middle", label=_("intrus"))
    pen.text(" · ".join(intruders), Rect(answer.x + 3, answer.y + 2, answer.w - 6,
                                         answer.h - 10),
             size=13, min_size=7, font=BOLD, align="centre", valign="middle",
             label=_("intrus"))


MIN_DPI = 200  # under this, a picture's pixels show as stairs on paper


def grouped(number: int) -> str:
    """Return a whole number the French way, thousands apart: « 1 200 »."""
    return f"{number:,}".replace(",", NNBSP)


def picture_problem(question: Asked, area: Rect) -> Issue | None:
    """Return what stops the question's picture from printing sharp in `area`, or None.

    A picture is drawn as large as the area allows, its shape kept; it must have at least
    MIN_DPI pixels an inch at that size.
    """
    if question.pixels is None:
        return Issue("image_file_missing", _("image"), os.path.basename(question.image))
    pixels_w, pixels_h = question.pixels
    mm_per_pixel = min(area.w / pixels_w, area.h / pixels_h)
    if 25.4 / mm_per_pixel >= MIN_DPI - 1e-6:
        return None
    printed_w, printed_h = pixels_w * mm_per_pixel, pixels_h * mm_per_pixel
    need_w = math.ceil(printed_w / 25.4 * MIN_DPI - 1e-6)
    need_h = math.ceil(printed_h / 25.4 * MIN_DPI - 1e-6)
    return Issue("image_low_resolution", _("image"), _(
        "l’image fait %(w)s × %(h)s px : il en faut au moins "
        "%(need_w)s × %(need_h)s pour %(dpi)s dpi à sa taille imprimée, "
        "%(size_w)s × %(size_h)s mm") % {
            "w": grouped(pixels_w), "h": grouped(pixels_h),
            "need_w": grouped(need_w), "need_h": grouped(need_h), "dpi": MIN_DPI,
            "size_w": round(printed_w), "size_h": round(printed_h)})


def _missing_image(problem) -> str:
    return _(
        "Image introuvable ou illisible : « %(name)s ». Importez-la de nouveau sur la "
        "question de cette fiche.") % {"name": problem.args["detail"]}


def _small_image(problem) -> str:
    return _(
        "Image trop petite pour être imprimée nette : %(detail)s. Importez une image plus "
        "grande.") % {"detail": problem.args["detail"]}


# The sentences of the problems this module's issues become.
SENTENCES = {"image_file_missing": _missing_image, "image_low_resolution": _small_image}


def etoile_front(pen: Pen, card: Printed) -> None:
    """Draw the mystery image in the image area, the answer and its variants under it.

    A picture whose file is gone, or too small to print sharp, is reported: the fiche
    is refused, never printed with a blank or a blurred picture.
    """
    areas = AREAS
    pen.background(PAPER)
    question = card.questions[0] if card.questions else Asked("")
    fiche_header(pen, card, areas, question.text)
    pen.rect(areas.image, fill=LIGHT)
    # With no image at all, the content's own rule (image_missing) refuses the fiche.
    problem = picture_problem(question, areas.image) if question.image else None
    if problem is not None:
        pen.report(problem)
    elif question.image:
        pen.image(question.image, areas.image)
    pen.rect(areas.image, stroke=GREY, width=0.3)
    answer = areas.answer
    pen.rect(answer, fill=RED_TINT, stroke=RED, width=0.3, radius=1.5)
    pen.text(_("Réponse"), Rect(answer.x + 3, answer.top - 6.5, answer.w * 0.3, 5), size=8,
             font=BOLD, fill=RED, valign="middle", label=_("réponse"))
    has_variants = bool(question.variants)
    pen.text(question.answer, Rect(answer.x + 3, answer.y + (8 if has_variants else 2),
                                   answer.w - 6, answer.h - (15 if has_variants else 9)),
             size=14, min_size=7, font=BOLD, align="centre", valign="middle",
             label=_("réponse"))
    if has_variants:
        pen.text(_("Aussi accepté : %(variants)s") % {
            "variants": f"{NNBSP}· ".join(question.variants)},
            Rect(answer.x + 3, answer.y + 1.2, answer.w - 6, 6.3), size=8,
            fill=INK, align="centre", valign="middle", label=_("variantes"))


def fiche_back_form(title: str):
    """Return a fiche's back drawing: the game's red pattern with the kind's name."""

    def draw(pen: Pen) -> None:
        back_pattern(pen, colour=RED, title=title, emblem="12")

    return draw


# --- the fiche cache -----------------------------------------------------------------------

CACHE_DARK = "#7d0a1c"  # the cache's ground: dark enough that no fiche shows through it


def cache_front(pen: Pen, _item) -> None:
    """Draw the fiche cache: opaque all over, its name and how to use it in the middle.

    It hides a fiche while the tableau révélateur is laid over it and its flaps set.
    """
    pen.background(CACHE_DARK)
    # Rows of the game's stars, staggered, every one whole inside the trim: the cache
    # reads as a cover, not as a fiche.
    step, radius = 16.0, 4.2
    columns = int((pen.w - 2 * radius) // step)
    rows = int((pen.h - 2 * radius) // (step * 0.75))
    left = (pen.w - columns * step) / 2
    bottom = (pen.h - rows * step * 0.75) / 2
    for row in range(rows + 1):
        shift = step / 2 if row % 2 else 0.0
        for column in range(columns + (0 if row % 2 else 1)):
            pen.polygon(star_points(left + shift + column * step, bottom + row * step * 0.75,
                                    radius, radius * 0.43), fill=RED)
    safe = pen.safe
    panel = Rect(safe.x + 6, safe.y + safe.h * 0.18, safe.w - 12, safe.h * 0.64)
    pen.rect(panel, fill=PAPER, stroke=GOLD, width=0.8, radius=3)
    inner = panel.inset(7)
    title_h = 14.0
    pen.text(_("Fiche cache"), Rect(inner.x, inner.top - title_h, inner.w, title_h),
             size=24, font=BOLD, fill=RED, align="centre", valign="middle", max_lines=1,
             label=_("titre"))
    steps = [
        _("Posez la fiche cache sur la table et, dessus, la fiche de la manche face "
          "cachée."),
        _("Retournez-les ensemble : la fiche cache couvre la fiche, personne n’en voit rien."),
        _("Posez le tableau révélateur dessus, bord à bord. Coup par coup : grands volets "
          "ouverts, petits volets et volet du bas fermés. Étoile mystérieuse : tous les "
          "volets fermés."),
        _("Retirez délicatement la fiche cache en la faisant glisser."),
    ]
    size, indent, radius = 11.0, 9.0, 3.2
    text_w = inner.w - indent
    heights = [max(text_height(step_text, REGULAR, size, text_w), 2 * radius)
               for step_text in steps]
    room = inner.h - title_h
    gap = max(2.0, (room - sum(heights)) / len(steps))
    top = inner.top - title_h - gap / 2
    for number, (step_text, height) in enumerate(zip(steps, heights, strict=True), start=1):
        line = size / POINTS_PER_MM
        disc(pen, number, inner.x + radius, top - line * 0.45, radius=radius)
        pen.text(step_text, Rect(inner.x + indent, top - height - HAIR, text_w, height + HAIR),
                 size=size, fill=INK, valign="top", label=_("consigne"))
        top -= height + gap


def cache_back(pen: Pen) -> None:
    """The cache's back: the fiches' back, so it is no lighter than the fiche it covers."""
    back_pattern(pen, colour=CACHE_DARK, title=_("Fiche cache"), emblem="12")


FOLD_DASH = (0.5, 0.7)
LARGE_FLAP = "#d8334d"
SMALL_FLAP = "#a50c25"
CUT_DASH = (2.2, 1.2)


def flap(pen: Pen, rect: Rect, *, fold: str, cut: str = WHITE) -> None:
    """Draw a flap's cut lines dashed on three sides and its fold dotted on the fourth."""
    corners = {
        "bottom": (rect.x, rect.y, rect.right, rect.y),
        "top": (rect.x, rect.top, rect.right, rect.top),
        "left": (rect.x, rect.y, rect.x, rect.top),
        "right": (rect.right, rect.y, rect.right, rect.top),
    }
    for side, (x1, y1, x2, y2) in corners.items():
        if side == fold:
            pen.line(x1, y1, x2, y2, stroke=GOLD, width=0.55, dash=FOLD_DASH)
        else:
            pen.line(x1, y1, x2, y2, stroke=cut, width=0.35, dash=CUT_DASH)


def tableau_front(pen: Pen, _item) -> None:
    """Draw the cover: a window on the statement, 7 large and 7 small flaps, an answer flap."""
    areas = AREAS
    pen.background(RED)
    header = areas.header
    pen.rect(header, fill=PAPER)
    pen.dashed_rect(header, stroke=INK, width=0.35, dash=CUT_DASH)
    title = _("Tableau révélateur")
    pen.centred(title, header.centre[0], header.top - 5, size=12, font=BOLD, fill=RED)
    pen.text(_("Évidez cette fenêtre. Découpez les volets le long des tirets, pliez-les le "
               "long des pointillés dorés. Posez le tableau exactement sur une fiche « coup "
               "par coup » ou « étoile mystérieuse »."),
             Rect(header.x + 3, header.y + 1.5, header.w - 6, header.h - 10), size=8,
             min_size=6.5, fill=INK, align="centre", valign="middle", label=_("consigne"))
    for large in areas.large:
        pen.rect(large, fill=LARGE_FLAP)
    for small in areas.small:
        pen.rect(small, fill=SMALL_FLAP)
    for number, (large, small) in enumerate(zip(areas.large, areas.small, strict=True), 1):
        lx, ly = large.centre
        disc(pen, number, lx, ly, radius=4.2, colour=GOLD, text_colour=RED)
        sx, sy = small.centre
        disc(pen, number, sx, sy, radius=3.0, colour=WHITE, text_colour=SMALL_FLAP)
        flap(pen, large, fold="left")
        flap(pen, small, fold="right")
    answer = areas.answer
    pen.rect(answer, fill="#fff1c9")
    ax, ay = answer.centre
    pen.centred(_("RÉPONSE"), ax, ay + 2.5, size=14, font=BOLD, fill=RED)
    pen.centred(_("à soulever en secret"), ax, ay - 4.5, size=8, font=BOLD, fill=INK)
    flap(pen, answer, fold="bottom", cut=INK)
    pen.centred(_("grands volets"), areas.large[0].centre[0], areas.image.top + 2, size=6.5,
                font=BOLD, fill=WHITE)
    pen.centred(_("petits volets"), areas.small[0].centre[0], areas.image.top + 2, size=6.5,
                font=BOLD, fill=WHITE)


# --- banknotes -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Banknote:
    """One note of the box: its value and its number among the notes of that value."""

    value: int
    number: int  # 1 to the box's count of this value


def banknotes() -> list[Banknote]:
    """Return the box's notes, the biggest first."""
    counts = RULES.banknotes
    return [Banknote(value, n) for value in sorted(counts, reverse=True)
            for n in range(1, counts[value] + 1)]


NOTE_BORDER = 4.0  # mm of the note's colour around its frame


def note_frame(pen: Pen) -> Rect:
    """Return a note's frame: NOTE_BORDER inside the cut, more above and below when the
    note's identifier needs the bottom of the border (the frame stays centred)."""
    vertical = max(NOTE_BORDER, pen.safe.y + 0.8)
    return Rect(NOTE_BORDER, vertical, pen.w - 2 * NOTE_BORDER, pen.h - 2 * vertical)


def banknote_front(pen: Pen, note: Banknote) -> None:
    """Draw the amount in big letters on the note's colour, with the game's star."""
    colour = NOTE_COLOURS[note.value]
    pen.background(colour)
    inner = note_frame(pen)
    pen.rect(inner, fill=PAPER, stroke=GOLD, width=0.8, radius=3)
    pen.rect(inner.inset(1.5), stroke=colour, width=0.3, radius=2)
    label = amount(note.value)
    pen.text(label, Rect(inner.x + 22, inner.y + 9, inner.w - 26, inner.h - 18), size=34,
             min_size=12, font=BOLD, fill=colour, align="centre", valign="middle",
             label=_("montant"), french=False)
    star_x, star_y = inner.x + 12, inner.y + inner.h / 2
    pen.polygon(star_points(star_x, star_y, 9.5, 4.0), fill=colour, stroke=GOLD, width=0.6)
    pen.centred("12", star_x, star_y - 0.4, size=9, font=BOLD, fill=WHITE)
    pen.centred(SPEC.name, inner.x + inner.w / 2 + 11, inner.top - 5, size=8, font=BOLD,
                fill=INK)
    pen.centred(_("Banque de Midi"), inner.x + inner.w / 2 + 11, inner.y + 5, size=7,
                font=REGULAR, fill=GREY)
    corner = grouped(note.value)
    for x, y in ((inner.x + 8, inner.top - 4.5), (inner.right - 8, inner.y + 4.5)):
        pen.centred(corner, x, y, size=7, font=BOLD, fill=colour)


def banknote_back_form(pen: Pen) -> None:
    pen.background(RED)
    inner = note_frame(pen)
    pen.rect(inner, stroke=GOLD, width=0.8, radius=3)
    cx, cy = inner.centre
    pen.polygon(star_points(cx, cy, min(22.0, inner.h * 0.47), min(9.0, inner.h * 0.19)),
                fill=GOLD)
    pen.centred("12", cx, cy - 0.5, size=16, font=BOLD, fill=RED)


def banknote_back(pen: Pen, note: Banknote) -> None:
    """Repeat the value on the back, so a note counts the same whichever side is up."""
    inner = note_frame(pen)
    label = amount(note.value)
    pen.centred(label, inner.x + 18, inner.top - 5, size=11, font=BOLD, fill=WHITE)
    pen.centred(label, inner.right - 18, inner.y + 5, size=11, font=BOLD, fill=WHITE)


# --- desk stars and star tokens ------------------------------------------------------------


def star_face(pen: Pen, colour: str, tint: str, caption: str = "") -> None:
    """Draw a big star of one colour on a light square of the same hue."""
    pen.background(tint)
    cx, cy = pen.box.centre
    outer = pen.w * 0.37
    lift = 3.5 if caption else 0.0
    pen.polygon(star_points(cx, cy + lift, outer, outer * 0.42), fill=colour, stroke=WHITE,
                width=1.2)
    pen.centred("12", cx, cy + lift - 1, size=22, font=BOLD, fill=WHITE)
    if caption:
        pen.centred(french(caption), cx, pen.safe.y + 2.5, size=9, font=BOLD, fill=colour)


def desk_star_front(pen: Pen, _number) -> None:
    star_face(pen, PALETTE["vert"], "#dff1e3")


def desk_star_back(pen: Pen) -> None:
    star_face(pen, PALETTE["violet"], "#ebe2f3")


def token_front(pen: Pen, _number) -> None:
    star_face(pen, PALETTE["orange"], "#fdebd6", _("1re erreur"))


def token_back(pen: Pen) -> None:
    star_face(pen, PALETTE["rouge"], "#f9dcdc", _("2e erreur : duel !"))


# --- the rules summary ---------------------------------------------------------------------


def rules_sections() -> list[tuple[str, list[str]]]:
    """Return the summary's sections: a title and its points, in French, numbers from SPEC."""
    s = RULES
    notes = " + ".join(amount(v) for v in s.start_notes)
    stake = amount(s.duel_stake)
    return [
        (_("Le but"), [
            _("De 2 à 4 joueurs. Répondez juste, gagnez de l’argent : à la fin, le joueur le "
              "plus riche devient « Maître de Midi ». Deviner l’étoile mystérieuse rapporte "
              "%(jackpot)s et fait gagner la partie sur-le-champ.") % {
                "jackpot": amount(s.etoile_jackpot)},
        ]),
        (_("Le matériel"), [
            _("Les cartes coup d’envoi, duel, coup fatal et coup de maître ; les fiches coup "
              "par coup et étoile mystérieuse ; le tableau révélateur et la fiche cache ; "
              "%(notes)s billets ; "
              "%(stars)s étoiles pupitres et %(stars)s jetons étoile.") % {
                "notes": sum(s.banknotes.values()), "stars": SPEC.players.maximum},
            _("Le tableau révélateur se pose exactement sur une fiche : évidez sa fenêtre, "
              "découpez ses volets le long des tirets et pliez-les le long des pointillés. "
              "La fiche cache couvre la fiche pendant qu’on pose le tableau dessus."),
            _("Il faut aussi deux sabliers (ou deux minuteurs) pour le coup fatal."),
        ]),
        (_("Mise en place"), [
            _("Chaque joueur pose devant lui une étoile pupitre, côté vert, et prend un jeton "
              "étoile (orange d’un côté, rouge de l’autre)."),
            _("Faites une pile par manche : coups d’envoi, fiches coup par coup, coups "
              "fatals, coups de maître, fiches étoile mystérieuse."),
            _("Tirez une paire de cartes Duel au hasard (même titre, même couleur) ; rangez "
              "les autres."),
            _("Chacun reçoit %(start)s : %(notes)s. Le reste forme la banque.") % {
                "start": amount(s.start_money), "notes": notes},
        ]),
        (_("1re manche : le coup d’envoi"), [
            _("Le plus jeune commence et choisit un numéro de 1 à 4. Son voisin de gauche "
              "pioche une carte et lit la question de ce numéro et ses deux propositions : "
              "l’une visible, l’autre cachée, dévoilée après le choix."),
            _("Bonne réponse : au suivant. Mauvaise réponse : le jeton orange couvre "
              "l’étoile verte. À la %(n)se erreur, l’étoile devient rouge : le joueur perd "
              "la manche et provoque un duel.") % {"n": s.errors_before_duel},
        ]),
        (_("Le duel"), [
            _("Le joueur rouge choisit son adversaire. Le provoqué lit le titre de la paire "
              "et choisit l’une des deux cartes (l’autre servira au 2e duel). Son voisin de "
              "gauche lui lit la question et ses 4 propositions."),
            _("Bonne réponse : le provocateur lui paie %(stake)s. Mauvaise réponse : il paie "
              "%(stake)s au provocateur. Toutes les étoiles repassent au vert.") % {
                "stake": stake},
        ]),
        (_("2e manche : le coup par coup"), [
            _("Glissez une fiche sous le tableau révélateur, couverte par la fiche cache que "
              "vous retirez ensuite : les grands volets sont ouverts, les petits volets et le "
              "volet du bas fermés."),
            _("Le perdant du 1er duel commence. Chacun à son tour choisit l’une des 7 "
              "propositions et ouvre le petit volet à sa droite. VRAI : au suivant. FAUX : "
              "étoile orange, et l’on passe à la fiche suivante. Une fiche s’arrête aussi "
              "quand ses 6 VRAI sont ouverts."),
            _("Au 2e FAUX, l’étoile devient rouge : 2e duel, avec l’autre carte de la "
              "paire."),
        ]),
        (_("3e manche : le coup fatal"), [
            _("Face-à-face, un sablier chacun. Chaque joueur pioche une carte et la donne à "
              "un lecteur. Le plus riche commence : son sablier coule jusqu’à ce qu’il "
              "donne une bonne réponse ; il le couche alors et le sablier de l’autre "
              "coule."),
            _("Le premier dont le temps est écoulé paie %(stake)s à l’autre.") % {
                "stake": amount(s.face_a_face_stake)},
            _("À 2 joueurs : un face-à-face. À 3 : les deux plus riches, puis le vainqueur "
              "contre le troisième. À 4 : le plus pauvre choisit son adversaire (égalité : "
              "le plus jeune choisit), les deux autres s’affrontent."),
        ]),
        (_("Finale : le coup de maître et l’étoile mystérieuse"), [
            _("Glissez une fiche étoile mystérieuse sous le tableau avec la fiche cache, "
              "tous volets fermés, puis retirez la cache. Le plus pauvre commence (égalité : "
              "le plus jeune)."),
            _("À tour de rôle, chacun répond à la question n°%(first)s, puis n°2… jusqu’à "
              "la n°%(last)s, chaque fois sur une carte coup de maître piochée : 3 "
              "propositions, 2 visibles et 1 cachée.") % {"first": 1, "last": 5},
            _("Bonne réponse : %(gain)s de la banque et un grand volet s’ouvre. Mauvaise "
              "réponse : un petit volet s’ouvre.") % {
                "gain": amount(s.coup_de_maitre_gain)},
            _("À tout moment, même hors de son tour, un joueur peut proposer l’étoile : il "
              "soulève en secret le volet du bas. Juste : %(jackpot)s et il gagne la partie. "
              "Faux : il est éliminé. Après la 5e question sans bonne réponse, personne ne "
              "gagne les %(jackpot)s.") % {"jackpot": amount(s.etoile_jackpot)},
        ]),
        (_("Fin de la partie"), [
            _("Chacun compte son argent : le plus riche est « Maître de Midi »."),
        ]),
    ]


RULE_SIZE = 8.8
HEADING_SIZE = 10.5
RULE_GUTTER = 7.0  # mm between the two columns
BULLET_INDENT = 3.0
TITLE_BAND = 20.0  # mm under the top margin taken by the title


@dataclass(frozen=True)
class Placed:
    """One block of the rules summary where it goes: its text, box and style."""

    text: str
    rect: Rect
    size: float
    font: str
    fill: str
    bullet: bool


def rules_blocks() -> list[tuple[str, float, str, str, bool, float]]:
    """Return the summary as blocks: text, size, font, colour, bullet, space above (mm)."""
    blocks = []
    for title, points in rules_sections():
        blocks.append((title, HEADING_SIZE, BOLD, RED, False, 3.0))
        blocks.extend((point, RULE_SIZE, REGULAR, INK, True, 1.2) for point in points)
    return blocks


def rules_layout(page_w: float, page_h: float) -> list[list[Placed]]:
    """Pour the summary into two columns a page, as many pages as it takes."""
    margin = PAGE_MARGIN
    col_w = (page_w - 2 * margin - RULE_GUTTER) / 2
    top = page_h - margin - TITLE_BAND
    bottom = margin + 6
    columns = (margin, margin + col_w + RULE_GUTTER)
    pages: list[list[Placed]] = [[]]
    column, y = 0, top
    blocks = rules_blocks()
    for index, (value, size, font, fill, bullet, space) in enumerate(blocks):
        box_w = col_w - (BULLET_INDENT if bullet else 0.0)
        height = text_height(value, font, size, box_w)
        # A heading keeps its first point with it.
        keep = 0.0
        if not bullet and index + 1 < len(blocks):
            following = blocks[index + 1]
            keep = following[5] + text_height(following[0], following[2], following[1],
                                              col_w - BULLET_INDENT)
        if y - space - height - keep < bottom and y < top:
            column += 1
            if column == len(columns):
                pages.append([])
                column = 0
            y = top
        elif y < top:
            y -= space
        x = columns[column] + (BULLET_INDENT if bullet else 0.0)
        pages[-1].append(Placed(value, Rect(x, y - height, box_w, height), size, font, fill,
                                bullet))
        y -= height
    return pages


def rules_page(placed: list[Placed], *, first: bool):
    """Return the drawing of one page of the summary."""

    def draw(pen: Pen) -> None:
        margin = PAGE_MARGIN
        if first:
            pen.rect(Rect(0, pen.h - margin - 14, pen.w, 14 + margin), fill=RED)
            pen.centred(SPEC.name, pen.w / 2, pen.h - margin - 5, size=20, font=BOLD,
                        fill=WHITE)
            pen.centred(_("Résumé de la règle · %(players)s") % {
                "players": SPEC.players.label}, pen.w / 2, pen.h - margin - 11, size=9.5,
                fill=WHITE)
        for block in placed:
            # The box is the measured height; a hair more absorbs rounding.
            box = Rect(block.rect.x, block.rect.y - 0.2, block.rect.w, block.rect.h + 0.4)
            pen.text(block.text, box, size=block.size, min_size=block.size, font=block.font,
                     fill=block.fill, label=_("règle"))
            if block.bullet:
                pen.circle(block.rect.x - BULLET_INDENT / 2,
                           block.rect.top - block.size * 0.45 / POINTS_PER_MM, 0.6, fill=RED)

    return draw


def rules_pages(options, _items):
    """The rules summary on the maker's paper: two columns, one page when it fits."""
    page_w, page_h = paper_size(options.paper)
    pages = rules_layout(page_w, page_h)
    return [Page(draw=rules_page(placed, first=index == 0))
            for index, placed in enumerate(pages)]


# --- the products --------------------------------------------------------------------------

COUPS_D_ENVOI = Deck(
    slug="coups-d-envoi",
    label=gettext_lazy("Cartes « Coup d’envoi »"),
    description=gettext_lazy("4 questions numérotées, chacune avec une proposition visible "
                             "et une cachée ; la bonne réponse est cochée pour le lecteur."),
    kind="coup-d-envoi",
    to_item=printed_card,
    front=numbered_questions_front,
    back_form=content_back_form(str(kind_of("coup-d-envoi").label)),
)

DUELS = Deck(
    slug="duels",
    code="DUE",
    label=gettext_lazy("Cartes « Duel »"),
    description=gettext_lazy("Les deux cartes d’une paire partagent titre et couleur ; le "
                             "titre est aussi au dos, pour choisir sa carte face cachée."),
    kind="duel",
    to_item=printed_card,
    front=duel_front,
    back=duel_back,
)

COUPS_FATALS = Deck(
    slug="coups-fatals",
    label=gettext_lazy("Cartes « Coup fatal »"),
    description=gettext_lazy("10 questions éclair, la réponse et ses variantes en face."),
    kind="coup-fatal",
    to_item=printed_card,
    front=fatal_front,
    back_form=content_back_form(str(kind_of("coup-fatal").label)),
)

COUPS_DE_MAITRE = Deck(
    slug="coups-de-maitre",
    label=gettext_lazy("Cartes « Coup de maître »"),
    description=gettext_lazy("5 questions de difficulté croissante, 2 propositions "
                             "visibles et 1 cachée ; la bonne réponse est cochée."),
    kind="coup-de-maitre",
    to_item=printed_card,
    front=numbered_questions_front,
    back_form=content_back_form(str(kind_of("coup-de-maitre").label)),
)

COUPS_PAR_COUP = Deck(
    slug="coups-par-coup",
    label=gettext_lazy("Fiches « Coup par coup »"),
    description=gettext_lazy("L’énoncé et 7 propositions, VRAI ou FAUX sous les petits "
                             "volets du tableau révélateur."),
    kind="coup-par-coup",
    to_item=printed_card,
    front=coup_par_coup_front,
    back_form=fiche_back_form(str(kind_of("coup-par-coup").label)),
    size=FICHE_SIZE,
)

ETOILES = Deck(
    slug="etoiles",
    label=gettext_lazy("Fiches « Étoile mystérieuse »"),
    description=gettext_lazy("L’image à deviner et, en bas, la réponse et ses variantes."),
    kind="etoile-mysterieuse",
    to_item=printed_card,
    front=etoile_front,
    back_form=fiche_back_form(str(kind_of("etoile-mysterieuse").label)),
    size=FICHE_SIZE,
)

TABLEAU_REVELATEUR = Deck(
    slug="tableau-revelateur",
    label=gettext_lazy("Tableau révélateur"),
    description=gettext_lazy("Le cache à volets posé sur les fiches : 7 grands volets, 7 "
                             "petits et le volet de la réponse. Recto seul."),
    items=lambda: ["tableau-revelateur"],
    front=tableau_front,
    size=FICHE_SIZE,
    duplex=False,
)

FICHE_CACHE = Deck(
    slug="fiche-cache",
    label=gettext_lazy("Fiche cache"),
    description=gettext_lazy("Opaque, à la taille des fiches : elle couvre la fiche de la "
                             "manche pendant qu’on pose le tableau révélateur et règle ses "
                             "volets, puis on la retire."),
    items=lambda: ["fiche-cache"],
    front=cache_front,
    back_form=cache_back,
    size=FICHE_SIZE,
)

BILLETS = Deck(
    slug="billets",
    code="BIL",
    label=gettext_lazy("Billets"),
    description=gettext_lazy("Les billets de la boîte, une couleur par valeur."),
    items=banknotes,
    front=banknote_front,
    back=banknote_back,
    back_form=banknote_back_form,
    size=BANKNOTE_SIZE,
)

ETOILES_PUPITRE = Deck(
    slug="etoiles-pupitre",
    label=gettext_lazy("Étoiles pupitres"),
    description=gettext_lazy("Une par joueur : verte au recto, violette au verso."),
    items=lambda: range(1, SPEC.players.maximum + 1),
    front=desk_star_front,
    back_form=desk_star_back,
    size=STAR_SIZE,
)

JETONS_ETOILE = Deck(
    slug="jetons-etoile",
    label=gettext_lazy("Jetons étoile"),
    description=gettext_lazy("Une par joueur : orange au recto (1re erreur), rouge au verso "
                             "(2e erreur) ; il couvre l’étoile pupitre."),
    items=lambda: range(1, SPEC.players.maximum + 1),
    front=token_front,
    back_form=token_back,
    size=STAR_SIZE,
)

REGLES = Sheets(
    slug="regles",
    label=gettext_lazy("Résumé de la règle"),
    description=gettext_lazy("Une page, en deux colonnes."),
    pages=rules_pages,
)

PRODUCTS = (COUPS_D_ENVOI, DUELS, COUPS_FATALS, COUPS_DE_MAITRE, COUPS_PAR_COUP, ETOILES,
            TABLEAU_REVELATEUR, FICHE_CACHE, BILLETS, ETOILES_PUPITRE, JETONS_ETOILE, REGLES)
