"""A card's questions in rows: a numbered question over its row of propositions.

The coups d'envoi and coups de maître print their questions this way; the coups fatals
share the rows' separators and the way a card too full says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from ...draw import WHITE, Issue, Pen
from ...layout.rows import Plan, text_height
from ...sheets import Rect
from ...text import BOLD, CONDENSED, CONDENSED_BOLD, MIN_SIZE, french, width
from ...units import to_mm
from ..style import GREY, INK, LIGHT, PAPER, numbered
from .look import COLOUR, HIDDEN_TINT, RIGHT_INK, RIGHT_TINT, tick
from .printed import Asked, Choice

QUESTION_FONT = CONDENSED

# A hidden proposition wears "CACHÉE" on its top border, like a legend; the visible ones
# wear nothing: one word tells the reader which one not to read out.
TAG_SIZE = MIN_SIZE  # pt
TAG_H = 2.3  # mm: the tag's dark box, as tall as « É » at TAG_SIZE and a hair
TAG_RISE = 0.6  # mm the tag's middle sits above the border: most of it outside the box
TAG_CLEAR = 0.3  # mm between the tag and the text above or inside
CHIP_TOP = TAG_H / 2 - TAG_RISE + TAG_CLEAR  # mm between a box's top border and its text
CHIP_BOTTOM = 0.7
CHIP_PAD = CHIP_TOP + CHIP_BOTTOM  # mm a proposition's box adds to its text's height


def question_label(number: int) -> str:
    """Return how a problem names the card's question `number`: « question 3 »."""
    return _("question %(n)s") % {"n": number}


def report_overflow(pen: Pen, plan: Plan) -> None:
    """Report the questions too long on their own, else all of them as too long together."""
    if any(plan.alone):
        for index in plan.culprits():
            pen.report(Issue("text_overflow", question_label(index + 1)))
        return
    pen.report(Issue("text_overflow", _("l’ensemble des questions")))


def separators(pen: Pen, rows: Sequence[Rect], gap: float) -> None:
    """Draw a light rule in the middle of the gap under each row but the last."""
    for upper in rows[:-1]:
        y = upper.y - gap / 2
        pen.line(upper.x, y, upper.right, y, stroke=LIGHT, width=0.3)


# --- propositions --------------------------------------------------------------------------


def hidden_tag() -> str:
    return _("cachée").upper()


def hidden_tag_width() -> float:
    """Return the width in mm of the hidden proposition's tag, its padding included."""
    return to_mm(width(hidden_tag(), BOLD, TAG_SIZE)) + 1.4


def tick_size(size: float) -> float:
    """Return the side in mm of the tick beside a right proposition set at `size` pt."""
    return size * 0.33


def choice_font(choice: Choice) -> str:
    return CONDENSED_BOLD if choice.right else CONDENSED


def chip_inner(rect: Rect, choice: Choice, size: float) -> Rect:
    """Return where a proposition's text goes inside its box (the tick keeps its room)."""
    mark = tick_size(size) + 0.6 if choice.right else 0.0
    return Rect(rect.x + 1.0, rect.y + CHIP_BOTTOM, rect.w - 2.0 - mark, rect.h - CHIP_PAD)


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


def longest_word(value: str, font: str, size: float) -> float:
    """Return the width in mm of the widest word of `value`."""
    # Split on plain spaces only, as wrapping does: « and » hold to their word.
    return to_mm(max((width(word, font, size) for word in french(value).split(" ")),
                     default=0.0))


def chip_widths(choices: tuple[Choice, ...], size: float, room: float) -> list[float]:
    """Share a row's width between propositions: long ones get more, none breaks a word."""
    if not choices:
        return []
    pads = [2.0 + (tick_size(size) + 0.6 if c.right else 0.0) for c in choices]
    natural = [to_mm(width(french(c.text), choice_font(c), size)) + pad
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


# --- a numbered question block -------------------------------------------------------------


@dataclass(frozen=True)
class BlockLayout:
    """How a numbered question block is cut: disc, question and a row of propositions."""

    k: float  # the face's scale (`style.scale`)

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
        return max(self.radius - to_mm(size) / 2 + asked, 2 * self.radius)

    def need(self, question: Asked, size: float, block_w: float) -> float:
        """Return the height the block needs at `size` pt in a row `block_w` mm wide."""
        return (self.question_h(question, size, block_w) + self.gap
                + self.chips(question, size, block_w)[1])


def question_block(pen: Pen, block: Rect, number: int, question: Asked, *,
                   layout: BlockLayout, size: float, colour: str = COLOUR) -> None:
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
    numbered(pen, number, block.x + radius, centre_y, radius=radius, colour=colour)
    text_top = centre_y + to_mm(size) / 2
    text_y = bottom + chip_h + gap
    text = Rect(block.x + layout.indent, text_y, layout.text_w(block.w), text_top - text_y)
    prefix = question_label(number)
    pen.text(question.text, text, size=size, font=QUESTION_FONT, valign="top", label=prefix)
    x = block.x
    for index, (choice, chip_w) in enumerate(zip(question.choices, widths, strict=True)):
        chip(pen, Rect(x, bottom, chip_w, chip_h), choice, size=size,
             label=_("%(question)s, proposition %(n)s") % {"question": prefix, "n": index + 1})
        x += chip_w + layout.chip_gap
