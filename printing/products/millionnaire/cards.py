"""The millionnaire's cards: a question card per ladder question, the answer behind it,
and every player's four answer cards A, B, C, D."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache, partial
from typing import TYPE_CHECKING

from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cms.games.millionnaire import LADDER

from ...draw import WHITE, MeasurePen, Pen
from ...sheets import Rect
from ...text import BOLD, MIN_SIZE, amount, width
from ...units import to_mm, to_points
from ..base import Deck
from ..style import (
    GOLD,
    back_pattern,
    card_band,
    card_body,
    header_height,
    ink_on,
    scale,
)
from .look import (
    COLOUR,
    LETTERS,
    PLAYER_COLOURS,
    SAFE_LEVEL,
    at_least_readable,
    line_mm,
    lozenge,
    player_label,
)

if TYPE_CHECKING:
    from cms.models import Question
    from cms.validation import GameContent

# --- question cards -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)  # one a question: a deck holds thousands
class LadderCard:
    """One ladder question as its card prints it."""

    ref: str
    step: int
    amount: int
    safe: bool
    text: str
    propositions: tuple[str, ...]
    right: int  # index of the right proposition, -1 when there is none


def ladder_card(content: GameContent, question: Question) -> LadderCard:
    """Return a ladder question as its card prints it, its propositions in order."""
    rows = content.propositions.get(question.pk, [])
    flags = [row.is_right for row in rows]
    right = flags.index(True) if True in flags else -1
    step = LADDER[question.step - 1] if question.step else None
    return LadderCard(
        ref=question.ref,
        step=question.step or 0,
        amount=step.amount if step else 0,
        safe=bool(step and step.safe),
        text=question.text,
        propositions=tuple([row.text for row in rows]),
        right=right,
    )


def step_title(card: LadderCard) -> str:
    """Return a question card's title: « Question n° 7 »."""
    return _("Question n° %(n)s") % {"n": card.step}


QUESTION_LABEL = gettext_lazy("question")
RIGHT_LABEL = gettext_lazy("bonne réponse")
REFERENCE_LABEL = gettext_lazy("référence")


def proposition_label(letter: str) -> str:
    """« proposition A »: names the box in a report, in the language then active."""
    return _("proposition %(letter)s") % {"letter": letter}


# Lazy: a report names a box only when its text does not fit, so a print of a thousand
# cards translates no label (the pen renders a label when it reports).
PROPOSITION_LABELS = tuple(lazy(proposition_label, str)(letter) for letter in LETTERS)


BAND_PAD = 0.4  # mm between a band's text and the band's inner edge
# Some capitals reach a little past their advance (a bold J to the left, an accent above):
# text set against the safe zone's edge keeps this much more room for them.
OVERHANG = 0.3


def header_text_box(pen: Pen) -> Rect:
    """Return where the top band's text goes: the part of the band inside the safe zone."""
    safe = pen.safe.inset(OVERHANG)
    bottom = pen.h - header_height(pen) + BAND_PAD
    return Rect(safe.x, bottom, safe.w, safe.top - bottom)


def footer_text_box(pen: Pen) -> Rect:
    """Return where the bottom band's text goes: the part of the band inside the safe zone."""
    safe = pen.safe.inset(OVERHANG)
    return Rect(safe.x, safe.y, safe.w, header_height(pen) - BAND_PAD - safe.y)


def band_title(pen: Pen) -> float:
    """Return the size of a band's text on this face: 9 pt on a poker card."""
    return at_least_readable(9 * min(scale(pen), 1.3))


@dataclass(frozen=True)
class CardLayout:
    """Where a question card's parts go, for one card size: worked out once, then reused."""

    k: float  # text scale next to a poker card
    rows: tuple[Rect, ...]  # the four proposition boxes, top to bottom
    letter_size: float
    question: Rect
    propositions: tuple[Rect, ...]  # the text inside each box
    answer: Rect  # on the back, under the letter
    centre: tuple[float, float]
    ref: Rect  # on the back, at the bottom of the frame


@lru_cache(maxsize=16)
def card_layout(w: float, h: float, numbered: bool = False) -> CardLayout:
    """Return where a question card's parts go on a `w` × `h` mm face, front and back."""
    pen = MeasurePen(w, h, numbered=numbered)
    k = scale(pen)
    body = card_body(pen)
    gap = 1.2 * k
    row_h = min(9.0 * k, body.h * 0.13)
    rows = tuple(Rect(body.x, body.y + (3 - i) * (row_h + gap), body.w, row_h)
                 for i in range(len(LETTERS)))
    # The letter sits in the round end of its box; the text starts after it and keeps
    # clear of the other round end by as much as the box's curve needs.
    text_x = row_h * 1.05
    safe = pen.safe
    # The frame rises with the strip a numbered face keeps for its identifier.
    reserve = max(0.0, safe.y - (pen.h - safe.top))
    frame = pen.box.inset(pen.w * BACK_FRAME + BACK_FRAME_GAP)
    ref = Rect(frame.x + 1, max(safe.y, frame.y + reserve + 0.8), frame.w - 2,
               line_mm(MIN_SIZE) + 0.4)
    inner = pen.box.inset(pen.w * 0.12)
    cx, cy = pen.box.centre
    answer_bottom = max(inner.y + 6 * k, ref.top + 1)
    return CardLayout(
        k=k,
        rows=rows,
        letter_size=at_least_readable(8 * k),
        question=Rect(body.x, rows[0].top + 2, body.w, body.top - rows[0].top - 2),
        propositions=tuple(Rect(box.x + text_x, box.y + 0.5, box.w - text_x - box.h * 0.35,
                                box.h - 1) for box in rows),
        answer=Rect(inner.x, answer_bottom, inner.w, cy - 8 * k - answer_bottom),
        centre=(cx, cy),
        ref=ref,
    )


# style.back_pattern's frame: a white line pen.w * 0.07 inside the trim (above a numbered
# face's identifier), a gold one 1.4 mm further in. What sits at the bottom of a back stays
# inside both.
BACK_FRAME = 0.07
BACK_FRAME_GAP = 1.4


def layout_of(pen: Pen) -> CardLayout:
    """Return the layout of a question card of this face's size."""
    return card_layout(pen.w, pen.h, pen.numbered)


def question_front_form(pen: Pen) -> None:
    """What every question card shares: paper, band, the four lettered boxes."""
    card_band(pen, colour=COLOUR)
    layout = layout_of(pen)
    for letter, box in zip(LETTERS, layout.rows, strict=True):
        pen.rect(box, stroke=COLOUR, width=0.35, radius=box.h / 2)
        pen.centred(letter, box.x + box.h * 0.55, box.y + box.h / 2, size=layout.letter_size,
                    font=BOLD, fill=GOLD)


def question_front(pen: Pen, card: LadderCard) -> None:
    """The step, the question and its four propositions; the answer is on the back."""
    layout = layout_of(pen)
    # One form a step, holding what every card shares and the step's header: a card
    # places one form, the PDF holds each drawing once.
    pen.reuse(f"millionnaire-front-step-{card.step}", partial(step_front, card=card))
    pen.text(card.text, layout.question, size=10.5 * layout.k, valign="middle",
             label=QUESTION_LABEL)
    for rect, proposition, label in zip(layout.propositions, card.propositions,
                                        PROPOSITION_LABELS, strict=False):
        pen.text(proposition, rect, size=8.5 * layout.k, valign="middle", label=label)


def step_front(pen: Pen, *, card: LadderCard) -> None:
    """What every card of a step shows on its front, under its question."""
    pen.reuse("millionnaire-front", question_front_form)
    front_header(pen, card=card)


def front_header(pen: Pen, *, card: LadderCard) -> None:
    """The step and its amount in the band: the same on every card of that step."""
    box = header_text_box(pen)
    size = band_title(pen)
    title = box
    if card.amount:
        value = amount(card.amount)
        small = at_least_readable(size * 0.85)
        value_w = to_mm(width(value, BOLD, small))
        pen.text(value, Rect(box.right - value_w - 0.2, box.y, value_w + 0.2, box.h),
                 size=small, font=BOLD, fill=GOLD if card.safe else WHITE, align="right",
                 valign="middle", french=False, label=_("montant"))
        title = Rect(box.x, box.y, box.w - value_w - 1.5, box.h)
    pen.text(step_title(card), title, size=size, font=BOLD, fill=WHITE, valign="middle",
             label=_("numéro de la question"))


def back_header(pen: Pen, *, card: LadderCard) -> None:
    """The step and its amount on the back: the same on every card of that step."""
    k = scale(pen)
    inner = pen.box.inset(pen.w * 0.12)
    title_size = at_least_readable(10 * k)
    pen.text(step_title(card), Rect(inner.x, inner.top - 9 * k, inner.w, 6 * k),
             size=title_size, font=BOLD, fill=WHITE, align="centre", valign="middle",
             label=_("numéro de la question"))
    if card.amount:
        label = amount(card.amount)
        if card.safe:
            label = f"{label} · {SAFE_LEVEL}"
        pen.text(label, Rect(inner.x, inner.top - 18 * k, inner.w, 7 * k),
                 size=at_least_readable(11 * k), font=BOLD, fill=GOLD, align="centre",
                 valign="middle", french=False, label=_("montant"))


def question_back_form(pen: Pen) -> None:
    """What every question card's back shares: the navy pattern and the gold disc."""
    back_pattern(pen, colour=COLOUR, title="")
    k = scale(pen)
    cx, cy = pen.box.centre
    pen.circle(cx, cy + 2 * k, 8 * k, fill=GOLD)


def question_back(pen: Pen, card: LadderCard) -> None:
    """The step, its amount and the right answer, behind the question."""
    layout = layout_of(pen)
    # The step's back, holding what every back shares, then the right answer's letter.
    pen.reuse(f"millionnaire-back-step-{card.step}", partial(back_of_step, card=card))
    if card.right >= 0:
        letter = LETTERS[card.right]
        pen.reuse(f"millionnaire-back-letter-{letter}", partial(back_letter, letter=letter))
        pen.text(card.propositions[card.right], layout.answer, size=10 * layout.k,
                 font=BOLD, fill=WHITE, align="centre", valign="middle", label=RIGHT_LABEL)
    pen.text(card.ref, layout.ref, size=MIN_SIZE, fill=WHITE, align="centre",
             valign="middle", french=False, label=REFERENCE_LABEL)


def back_of_step(pen: Pen, *, card: LadderCard) -> None:
    """The back every card of a step shares: the pattern, the disc, the step's header."""
    pen.reuse("millionnaire-back", question_back_form)
    back_header(pen, card=card)


def back_letter(pen: Pen, *, letter: str) -> None:
    """The right answer's letter on the back's gold disc."""
    layout = layout_of(pen)
    cx, cy = layout.centre
    pen.centred(letter, cx, cy + 2 * layout.k, size=24 * layout.k, font=BOLD, fill=COLOUR)


QUESTION_CARDS = Deck(
    slug="questions",
    code="MIL",
    label=gettext_lazy("Cartes questions"),
    description=gettext_lazy("Une carte par question de l’échelle ; au dos, le palier et la bonne "
                             "réponse, exactement derrière la question."),
    kind="echelle",
    to_item=ladder_card,
    front=question_front,
    back=question_back,
)

# --- answer cards A, B, C, D --------------------------------------------------------------


@dataclass(frozen=True)
class AnswerCard:
    """One of a player's four answer cards."""

    player: int
    colour_name: str
    colour: str
    letter: str


def answer_cards() -> list[AnswerCard]:
    """Return every seat's four answer cards, seat by seat."""
    return [AnswerCard(player, name, colour, letter)
            for player, (name, colour) in enumerate(PLAYER_COLOURS, start=1)
            for letter in LETTERS]


def answer_front(pen: Pen, card: AnswerCard) -> None:
    """A big letter in the show's lozenge, framed by the player's colour and number."""
    k = scale(pen)
    band = header_height(pen)
    ink = ink_on(card.colour, dark=COLOUR)
    pen.background(WHITE)
    pen.rect(Rect(-pen.bleed, pen.h - band, pen.w + 2 * pen.bleed, band + pen.bleed),
             fill=card.colour)
    pen.rect(Rect(-pen.bleed, -pen.bleed, pen.w + 2 * pen.bleed, band + pen.bleed),
             fill=card.colour)
    head = header_text_box(pen)
    size = band_title(pen)
    small = at_least_readable(size * 0.85)
    colour_name = Rect(head.x + head.w * 0.55, head.y, head.w * 0.45, head.h)
    pen.text(player_label(card.player), Rect(head.x, head.y, head.w * 0.55 - 1, head.h),
             size=size, font=BOLD, fill=ink, valign="middle", label=_("joueur"))
    pen.text(card.colour_name, colour_name, size=small, font=BOLD, fill=ink, align="right",
             valign="middle", label=_("couleur"))
    pen.text(_("Réponse %(letter)s") % {"letter": card.letter}, footer_text_box(pen),
             size=small, font=BOLD, fill=ink, align="centre", valign="middle",
             label=_("réponse"))
    cx, cy = pen.box.centre
    box_w, box_h = pen.w * 0.86, min(pen.h - 2 * band - 8 * k, pen.w * 0.62)
    pen.polygon(lozenge(cx, cy, box_w, box_h), fill=COLOUR, stroke=GOLD, width=0.8 * k)
    # In points: the capital letter stands about half as tall as the lozenge.
    pen.centred(card.letter, cx, cy, size=to_points(box_h) * 0.7, font=BOLD, fill=GOLD)


def answer_back_form(pen: Pen) -> None:
    """The back every answer card shares."""
    back_pattern(pen, colour=COLOUR, title=_("Carte réponse"), emblem="?")


ANSWER_CARDS = Deck(
    slug="reponses",
    label=gettext_lazy("Cartes réponses A, B, C, D"),
    description=gettext_lazy("Quatre cartes par joueur, pour une table de huit : une couleur et un "
                             "numéro par joueur, le même dos pour toutes."),
    items=answer_cards,
    front=answer_front,
    back_form=answer_back_form,
)
