"""Quiz express's printable products: one card per question, its answer on the back."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ...draw import WHITE, Pen
from ...sheets import Rect
from ...text import BOLD
from ..base import Deck
from ..style import back_pattern, card_frame

GAME = "quiz-express"
COLOUR = "#2a7f62"
LETTERS = "ABC"


@dataclass(frozen=True)
class ExpressCard:
    text: str
    propositions: tuple[str, ...]
    right: int  # index of the right proposition, -1 when there is none


def express_card(content, question) -> ExpressCard:
    rows = content.propositions.get(question.pk, [])
    flags = [row.is_right for row in rows]
    return ExpressCard(text=question.text, propositions=tuple(row.text for row in rows),
                       right=flags.index(True) if True in flags else -1)


def front(pen: Pen, card: ExpressCard) -> None:
    body = card_frame(pen, colour=COLOUR, title=_("Quiz express"))
    question = Rect(body.x, body.top - body.h * 0.45, body.w, body.h * 0.45)
    pen.text(card.text, question, size=10, font=BOLD, label=_("question"))
    row_h = body.h * 0.5 / 3
    for index, proposition in enumerate(card.propositions):
        row = Rect(body.x, question.y - (index + 1) * row_h, body.w, row_h)
        pen.text(f"{LETTERS[index]}  {proposition}", row, size=9, valign="middle",
                 label=_("proposition %(letter)s") % {"letter": LETTERS[index]})


def back(pen: Pen, card: ExpressCard) -> None:
    answer = LETTERS[card.right] if card.right >= 0 else "?"
    pen.text(_("Réponse %(letter)s") % {"letter": answer}, pen.safe.inset(6), size=14,
             font=BOLD, fill=WHITE, align="centre", valign="middle", label=_("réponse"))


def back_form(pen: Pen) -> None:
    back_pattern(pen, colour=COLOUR, title="")


CARDS = Deck(
    slug="cartes",
    label=gettext_lazy("Cartes express"),
    description=gettext_lazy("Une carte par question ; au dos, la bonne réponse."),
    kind="express",
    to_item=express_card,
    front=front,
    back=back,
    back_form=back_form,
)

PRODUCTS = (CARDS,)
