"""What a Qualifs, Compet’ or Défi card prints: its theme and its questions, read once.

Each question carries what every answer format needs: its propositions in the editor's
order with the right one marked, the wrong one offered with it in DUO, the free answer for
CASH and the variants it accepts, and the format a Compet’ slot imposes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from cms.games.prendre_sa_place import SPEC

if TYPE_CHECKING:
    from cms.models import Card, Question
    from cms.validation import GameContent


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
        """The free answer for CASH: the right proposition when the editor left it empty."""
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


def played_question(content: GameContent, question: Question, number: int,
                    slot: str) -> PlayedQuestion:
    """Read one of a card's questions, numbered `number`, in the format `slot` imposes."""
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


def question_card(content: GameContent, card: Card) -> QuestionCard:
    """Read a card and its questions, each with the format its slot imposes, if any."""
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


# The parts of a question a report may name, beside the question itself.
PROPOSITION, CASH_ANSWER, VARIANTS = "proposition", "cash", "variants"


@dataclass(frozen=True)
class QuestionLabel:
    """Names a question, or a part of it, in a report: « question 3, variantes ».

    Translated by `str`, when a report shows it: a card's layout is tried at many sizes,
    and its labels compared, long before anything is reported (or nothing is).
    """

    number: int
    part: str = ""
    index: int = 0  # a proposition's number

    def __str__(self) -> str:
        label = _("question %(n)s") % {"n": self.number}
        if self.part == PROPOSITION:
            what = _("proposition %(n)s") % {"n": self.index}
        elif self.part == CASH_ANSWER:
            what = _("réponse CASH")
        elif self.part == VARIANTS:
            what = _("variantes")
        else:
            return label
        return f"{label}, {what}"


def question_label(question: PlayedQuestion, part: str = "", index: int = 0) -> QuestionLabel:
    """The label of a question, or of one of its parts (PROPOSITION, CASH_ANSWER…)."""
    return QuestionLabel(question.number, part, index)
