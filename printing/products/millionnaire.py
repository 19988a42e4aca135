"""Printable products of Qui veut gagner des millions ?."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from cms.games.millionnaire import LADDER

from ..draw import WHITE, Pen
from ..sheets import Rect
from ..text import BOLD, amount
from .base import Deck
from .style import GAME_COLOURS, GOLD, back_pattern, card_frame, footer, scale

GAME = "millionnaire"
NAVY = GAME_COLOURS[GAME]
LETTERS = "ABCD"


@dataclass(frozen=True)
class LadderCard:
    """One ladder question as its card prints it."""

    ref: str
    step: int
    amount: int
    safe: bool
    text: str
    propositions: tuple[str, ...]
    right: int  # index of the right proposition, -1 when there is none


def ladder_card(content, question) -> LadderCard:
    rows = content.propositions.get(question.pk, [])
    right = next((i for i, row in enumerate(rows) if row.is_right), -1)
    step = LADDER[question.step - 1] if question.step else None
    return LadderCard(
        ref=question.ref,
        step=question.step or 0,
        amount=step.amount if step else 0,
        safe=bool(step and step.safe),
        text=question.text,
        propositions=tuple(row.text for row in rows),
        right=right,
    )


def step_title(card: LadderCard) -> str:
    return str(_("Question n°\u00a0%(n)s") % {"n": card.step})


def question_front(pen: Pen, card: LadderCard) -> None:
    """The question and its four propositions; the answer is on the back."""
    k = scale(pen)
    body = card_frame(pen, colour=NAVY, title=step_title(card),
                      subtitle=amount(card.amount) if card.amount else "")
    if card.safe:
        pen.rect(Rect(-pen.bleed, pen.h - 1.2, pen.w + 2 * pen.bleed, 1.2 + pen.bleed),
                 fill=GOLD)
    gap = 1.2 * k
    row_h = min(9.0 * k, body.h * 0.13)
    props_h = len(card.propositions) * (row_h + gap)
    question = Rect(body.x, body.y + props_h + 2, body.w, body.h - props_h - 2)
    pen.text(card.text, question, size=10.5 * k, valign="middle", label=str(_("question")))
    y = body.y + props_h - row_h
    for letter, proposition in zip(LETTERS, card.propositions, strict=False):
        box = Rect(body.x, y, body.w, row_h)
        pen.rect(box, stroke=NAVY, width=0.35, radius=row_h / 2)
        pen.centred(letter, box.x + row_h * 0.55, box.y + row_h / 2, size=8 * k, font=BOLD,
                    fill=GOLD)
        pen.text(proposition, Rect(box.x + row_h * 1.1, box.y + 0.5, box.w - row_h * 1.5,
                                   row_h - 1), size=8.5 * k, min_size=6, valign="middle",
                 label=str(_("proposition %(letter)s") % {"letter": letter}))
        y -= row_h + gap


def question_back_form(pen: Pen) -> None:
    back_pattern(pen, colour=NAVY, title="")


def question_back(pen: Pen, card: LadderCard) -> None:
    """The step, its amount and the right answer, behind the question."""
    k = scale(pen)
    inner = pen.box.inset(pen.w * 0.12)
    pen.text(step_title(card), Rect(inner.x, inner.top - 9 * k, inner.w, 8 * k),
             size=10 * k, font=BOLD, fill=WHITE, align="centre", valign="middle",
             label=str(_("palier")))
    if card.amount:
        label = amount(card.amount)
        if card.safe:
            label = f"{label} · {_('palier')}"
        pen.text(label, Rect(inner.x, inner.top - 18 * k, inner.w, 8 * k), size=11 * k,
                 font=BOLD, fill=GOLD, align="centre", valign="middle",
                 label=str(_("montant")), french=False)
    if card.right >= 0:
        cx, cy = pen.box.centre
        pen.circle(cx, cy + 2 * k, 8 * k, fill=GOLD)
        pen.centred(LETTERS[card.right], cx, cy + 2 * k, size=24 * k, font=BOLD, fill=NAVY)
        pen.text(card.propositions[card.right],
                 Rect(inner.x, inner.y + 6 * k, inner.w, cy - 8 * k - inner.y - 6 * k),
                 size=10 * k, font=BOLD, fill=WHITE, align="centre", valign="middle",
                 label=str(_("bonne réponse")))
    footer_text = card.ref
    pen.text(footer_text, Rect(inner.x, inner.y, inner.w, 4 * k), size=5.5, min_size=4.5,
             fill=WHITE, align="centre", valign="bottom", french=False, label="référence")


QUESTION_CARDS = Deck(
    slug="questions",
    label=_("Cartes questions"),
    description=_("Une carte par question de l’échelle ; au dos, le palier et la bonne "
                  "réponse, exactement derrière la question."),
    kind="echelle",
    to_item=ladder_card,
    front=question_front,
    back=question_back,
    back_form=question_back_form,
)

PRODUCTS = (QUESTION_CARDS,)

__all__ = ["PRODUCTS", "footer"]
