"""The content cards: coups d'envoi, duels, coups fatals and coups de maître.

A coup d'envoi or coup de maître numbers its questions from 1, each over its
propositions; a duel pair shares a title and a colour, on the back too; a coup fatal's
face is in `fatal`.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ...draw import WHITE, Pen
from ...layout.rows import plan_rows
from ...sheets import Rect
from ...text import BOLD, REGULAR
from ...units import to_mm
from ..base import Deck
from ..style import GOLD, INK, PAPER, ink_on, scale
from .fatal import fatal_front
from .look import COLOUR, EMBLEM, RIGHT_INK, RIGHT_TINT, back_frame, frame, kind_back, pt, tick
from .printed import Printed, kind_label, padded, printed_card
from .questions import BlockLayout, question_block, report_overflow, separators

LETTERS = "ABCD"


def numbered_questions_front(pen: Pen, card: Printed) -> None:
    """Draw the card's questions numbered from 1, each over its propositions."""
    k = scale(pen)
    body = frame(pen, card.title, kind_label(card))
    layout = BlockLayout(k)
    gap = 1.4 * k
    questions = padded(card)
    plan = plan_rows(body, gap, 8.5 * k,
                     lambda size: [layout.need(q, size, body.w) for q in questions])
    if not plan.fits:
        report_overflow(pen, plan)
        return
    separators(pen, plan.rows, gap)
    for number, (row, question) in enumerate(zip(plan.rows, card.questions, strict=False), 1):
        question_block(pen, row, number, question, layout=layout, size=plan.size)


def duel_front(pen: Pen, card: Printed) -> None:
    """Draw the pair's title in the pair's colour, the question and its four propositions."""
    k = scale(pen)
    body = frame(pen, card.title, kind_label(card), colour=card.colour)
    question = card.first
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


def duel_back(pen: Pen, card: Printed) -> None:
    """Draw the pair's back: the game's emblem, then its title on a plate of its colour.

    Both cards of a pair share it, so the provoked player chooses one face down; the
    plate stays inside the frame, clear of everything else.
    """
    k = scale(pen)
    pen.background(COLOUR)
    inside = back_frame(pen)
    cx = inside.centre[0]
    pen.centred(EMBLEM, cx, inside.top - inside.h * 0.2, size=pt(26, k), font=BOLD, fill=GOLD)
    kind_size = pt(11, k)
    kind_y = inside.top - inside.h * 0.37
    pen.centred(kind_label(card).upper(), cx, kind_y, size=kind_size, font=BOLD, fill=WHITE)
    margin = 2.2 * k
    plate_top = kind_y - to_mm(kind_size) * 0.7 - 3.0 * k
    plate = Rect(inside.x + margin, inside.y + margin, inside.w - 2 * margin,
                 plate_top - inside.y - margin)
    pen.rect(plate, fill=card.colour, stroke=WHITE, width=0.5, radius=2.0)
    pen.text(card.title or kind_label(card), plate.inset(2.0 * k), size=pt(12, k),
             font=BOLD, fill=ink_on(card.colour), align="centre", valign="middle",
             label=_("titre"))


COUPS_D_ENVOI = Deck(
    slug="coups-d-envoi",
    label=gettext_lazy("Cartes « Coup d’envoi »"),
    description=gettext_lazy("4 questions numérotées, chacune avec une proposition visible "
                             "et une cachée ; la bonne réponse est cochée pour le lecteur."),
    kind="coup-d-envoi",
    to_item=printed_card,
    front=numbered_questions_front,
    back_form=kind_back("coup-d-envoi"),
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
    back_form=kind_back("coup-fatal"),
)

COUPS_DE_MAITRE = Deck(
    slug="coups-de-maitre",
    label=gettext_lazy("Cartes « Coup de maître »"),
    description=gettext_lazy("5 questions de difficulté croissante, 2 propositions "
                             "visibles et 1 cachée ; la bonne réponse est cochée."),
    kind="coup-de-maitre",
    to_item=printed_card,
    front=numbered_questions_front,
    back_form=kind_back("coup-de-maitre"),
)
