"""What a card or fiche of Les 12 Coups de Midi prints, read from the game's content.

The select stage's output: frozen data the faces draw, with no database behind it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PIL import Image

from cms.games import kind_of
from cms.games.douze_coups import DUEL_COLOURS

from .look import COLOUR, kind_name

if TYPE_CHECKING:
    from cms.models import Card, Question
    from cms.validation import GameContent


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

    @property
    def first(self) -> Asked:
        """Return the card's one question (a duel's, a fiche's); an empty one if it has none."""
        return self.questions[0] if self.questions else Asked("")


def image_file(question: Question) -> tuple[str, tuple[int, int] | None]:
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


def printed_card(content: GameContent, card: Card) -> Printed:
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
                   colour=DUEL_COLOURS.get(card.colour, COLOUR), questions=tuple(questions))


def kind_label(card: Printed) -> str:
    """Return the name of the card's kind: « Coup fatal »."""
    return kind_name(card.kind)


def slots(card: Printed) -> int:
    """Return how many question blocks the card is laid out for (its kind's count)."""
    return max(len(card.questions), kind_of(card.kind).questions_per_card)


def padded(card: Printed) -> tuple[Asked, ...]:
    """Return the card's questions with empty ones after them, up to its count of slots."""
    return card.questions + (Asked(""),) * (slots(card) - len(card.questions))
