"""The coup fatal's card: ten quick questions, each with its answer and accepted variants."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from ...draw import Pen
from ...layout.rows import plan_rows
from ...sheets import Rect
from ...text import CONDENSED, CONDENSED_BOLD, LEADING, MIN_SIZE, NBSP, NNBSP, fit, french, width
from ...units import to_mm, to_points
from ..style import GREY, scale
from .look import COLOUR, RIGHT_TINT, frame
from .printed import Asked, Printed, kind_label, padded
from .questions import QUESTION_FONT, question_label, report_overflow, separators

# pt: the accepted variants, read only when an answer is doubtful: a point under the
# answer, grey and condensed, but never under the readable size.
VARIANT_SIZE = MIN_SIZE
ANSWER_PAD = 0.7  # mm of tint either side of an answer
ANSWER_SPACE = 1.5  # mm kept between a question's last word and an answer beside it
VARIANT_SPACE = 1.2  # mm between an answer and the variants beside it
UNDER_GAP = 0.3  # mm between an answer's tint and the variants under it
FATAL_GAP = 0.4  # mm between two questions of a coup fatal
TOO_MANY_LINES = 99  # a question or variants that cannot be wrapped: no row holds them


def variant_size(size: float) -> float:
    """Return the variants' size under an answer set at `size` pt."""
    return max(size - 1.0, VARIANT_SIZE)


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
        return to_mm(self.size * LEADING)

    @property
    def variant_size(self) -> float:
        return variant_size(self.size)

    @property
    def height(self) -> float:
        lines = self.question_lines + (0 if self.answer_inline else 1)
        height = lines * self.leading
        if self.variant_lines:
            height += UNDER_GAP + to_mm(self.variant_lines * self.variant_size * LEADING)
        return height


def variant_line(question: Asked, size: float, box_w: float) -> str:
    """Return the variants as one line to wrap only between them, where each one allows.

    The dot holds to the variant before it, so no line starts with one; a variant's words
    hold together unless it is wider than `box_w` mm on its own.
    """
    held = []
    for variant in question.variants:
        together = variant.replace(" ", NBSP)
        fits = to_mm(width(french(together), CONDENSED, size)) <= box_w
        held.append(together if fits else variant)
    return f"{NNBSP}· ".join(held)


def fatal_row(question: Asked, size: float, box_w: float) -> FatalRow:
    """Return the shortest arrangement of a question and its answer in `box_w` mm."""
    fitted = fit(french(question.text), QUESTION_FONT, size, to_points(box_w), 1e6, size)
    if fitted is None:  # a word wider than the card: reported when drawn
        return FatalRow(size, TOO_MANY_LINES, False, False, 0)
    lines = len(fitted.lines)
    last = to_mm(width(fitted.lines[-1], QUESTION_FONT, size)) if question.text else 0
    answer = to_mm(width(french(question.answer), CONDENSED_BOLD, size))
    answer += 2 * ANSWER_PAD
    small = variant_size(size)
    variants = variant_line(question, small, box_w)
    beside = (to_mm(width(french(variants), CONDENSED, small)) + VARIANT_SPACE
              if variants else 0.0)
    under = 0
    if variants:
        fitted_variants = fit(french(variants), CONDENSED, small, to_points(box_w), 1e6, small)
        under = len(fitted_variants.lines) if fitted_variants else TOO_MANY_LINES
    inline = last + ANSWER_SPACE + answer <= box_w
    options = [
        FatalRow(size, lines, inline, True, 0)
        if last + ANSWER_SPACE + answer + beside <= box_w else None,
        FatalRow(size, lines, True, False, under) if inline and variants else None,
        FatalRow(size, lines, False, True, 0) if answer + beside <= box_w else None,
        FatalRow(size, lines, False, False, under),
    ]
    return min((o for o in options if o is not None), key=lambda o: o.height)


def number_width(size: float) -> float:
    """Return the width of the column that numbers a coup fatal's questions up to 10."""
    return to_mm(width("10", CONDENSED_BOLD, size)) + 0.7


def fatal_front(pen: Pen, card: Printed) -> None:
    """Draw ten quick questions, each with its answer and the variants the reader accepts."""
    k = scale(pen)
    body = frame(pen, card.title, kind_label(card))
    questions = padded(card)
    plan = plan_rows(body, FATAL_GAP, 7.5 * k, lambda size: [
        fatal_row(q, size, body.w - number_width(size)).height for q in questions])
    if not plan.fits:
        # Drawn anyway, the rows would overlap: report them and draw no questions.
        report_overflow(pen, plan)
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
    line_h = to_mm(size)
    pen.centred(str(number), row.x + number_w / 2 - 0.2, top - line_h / 2, size=size,
                font=CONDENSED_BOLD, fill=COLOUR)
    x = row.x + number_w
    box_w = row.right - x
    prefix = question_label(number)
    question_h = (layout.question_lines - 1) * leading + line_h
    pen.text(question.text, Rect(x, top - question_h - 0.05, box_w, question_h + 0.1),
             size=size, min_size=floor, font=QUESTION_FONT, valign="top", label=prefix)
    # The top of the line the answer sits on.
    line_top = top - (layout.question_lines - (1 if layout.answer_inline else 0)) * leading
    small = layout.variant_size
    variants = variant_line(question, small, box_w)
    beside = 0.0
    if variants and layout.variants_beside:
        beside = to_mm(width(french(variants), CONDENSED, small)) + VARIANT_SPACE
    answer_w = to_mm(width(french(question.answer), CONDENSED_BOLD, size))
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
        small_h = to_mm(small)
        drop = line_h * 0.8 - small_h * 0.8
        box = Rect(tint.right + VARIANT_SPACE - 0.2, line_top - drop - small_h - 0.05,
                   beside - VARIANT_SPACE + 0.2, small_h + 0.1)
    else:
        lines_h = to_mm((layout.variant_lines - 1) * small * LEADING + small)
        under = tint.y - UNDER_GAP + 0.3
        box = Rect(x, under - lines_h - 0.05, box_w, lines_h + 0.1)
    pen.text(variants, box, size=small, min_size=min(small, VARIANT_SIZE), font=CONDENSED,
             fill=GREY, align="right", valign="top", label=label)
