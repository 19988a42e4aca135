"""The shape of a game's rules as frozen data, checked when built."""

from __future__ import annotations

import re
from dataclasses import FrozenInstanceError, dataclass, field, fields, is_dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    # Labels are lazy translations, declared at import and rendered in the active language.
    from django_stubs_ext import StrOrPromise

# How the questions of a card must be ordered by difficulty.
ORDER_NONE = ""
ORDER_STRICTLY_INCREASING = "strictly-increasing"
ORDER_BY_SLOT_FORMAT = "by-slot-format"
DIFFICULTY_ORDERS = (ORDER_NONE, ORDER_STRICTLY_INCREASING, ORDER_BY_SLOT_FORMAT)

# The unit an editor composes: a card (or fiche) that holds questions, or a question alone.
UNIT_CARD = "card"
UNIT_FICHE = "fiche"
UNIT_QUESTION = "question"
UNITS = (UNIT_CARD, UNIT_FICHE, UNIT_QUESTION)

DIFFICULTY_MIN = 1
DIFFICULTY_MAX = 5

# The colours games print with, by French name.
PALETTE = {
    "rouge": "#d62828",
    "orange": "#f77f00",
    "jaune": "#f2c200",
    "vert": "#2a9d3f",
    "turquoise": "#1a9e9e",
    "bleu": "#1d4e89",
    "violet": "#6a3d9a",
    "rose": "#e5579a",
    "marron": "#7b4a2a",
    "blanc": "#f4f1ea",
}


# A game's slug names it in addresses and file names: "douze-coups".
SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


class SpecError(ValueError):
    """Raised when a game spec describes something impossible."""


@dataclass(frozen=True)
class AnswerFormat:
    """A way a game lets a question be answered: how many propositions it shows, how many
    points it is worth (a game's `answer_formats`, ordered by its kinds' slots)."""

    slug: str  # "duo"
    label: str  # "DUO"
    propositions: int  # propositions shown (0: free answer)
    points: int


@dataclass(frozen=True)
class ContentKind:
    """One kind of content of a game: how a card is composed and ordered."""

    slug: str  # unique across all games: "coup-de-maitre"
    label: StrOrPromise
    label_plural: StrOrPromise
    unit: str = UNIT_CARD
    questions_per_card: int = 1  # for UNIT_QUESTION: always 1, the question is the card
    propositions: int = 0  # per question (0: none)
    right: int = 1  # right propositions per question (coup par coup: 6 VRAI)
    hidden: int = 0  # propositions revealed only after the choice
    free_answer: bool = False  # a typed answer with accepted variants
    needs_image: bool = False
    difficulty_order: str = ORDER_NONE
    slot_formats: tuple[str, ...] = ()  # format slug per position along the card
    paired: bool = False  # duel cards come in pairs sharing a title and a colour
    pair_colours: tuple[str, ...] = ()  # a paired kind's colours, names from PALETTE
    ladder: bool = False  # each question sits on a step of the game's prize ladder
    box_count: int = 0  # how many the physical box holds
    # A guess of the units one full game at the coverage table uses: engines draw no more;
    # coverage counts what the rules, played many times, use instead (player.coverage),
    # and falls back to this guess only for a game no engine plays.
    full_game: int = 0
    help_text: StrOrPromise = ""

    def __post_init__(self):
        if self.unit not in UNITS:
            raise SpecError(f"{self.slug}: unknown unit {self.unit!r}")
        if self.questions_per_card < 1:
            raise SpecError(f"{self.slug}: a card holds at least one question")
        if self.unit == UNIT_QUESTION and self.questions_per_card != 1:
            raise SpecError(f"{self.slug}: a standalone question is a card of one")
        if self.propositions < 0 or not 0 <= self.hidden <= self.propositions:
            raise SpecError(f"{self.slug}: impossible number of hidden propositions")
        if self.propositions and not 1 <= self.right < self.propositions:
            raise SpecError(f"{self.slug}: right propositions must leave at least one wrong")
        if not self.propositions and not self.free_answer and not self.needs_image:
            raise SpecError(f"{self.slug}: a question needs propositions or a free answer")
        if self.difficulty_order not in DIFFICULTY_ORDERS:
            raise SpecError(f"{self.slug}: unknown difficulty order {self.difficulty_order!r}")
        if self.slot_formats and len(self.slot_formats) != self.questions_per_card:
            raise SpecError(f"{self.slug}: one slot format per question on the card")
        if self.difficulty_order == ORDER_BY_SLOT_FORMAT and not self.slot_formats:
            raise SpecError(f"{self.slug}: ordering by slot format needs slot formats")
        if self.paired and self.unit == UNIT_QUESTION:
            raise SpecError(f"{self.slug}: only cards come in pairs")
        if self.difficulty_order == ORDER_STRICTLY_INCREASING and (
                self.unit == UNIT_QUESTION
                or self.questions_per_card > DIFFICULTY_MAX - DIFFICULTY_MIN + 1):
            raise SpecError(f"{self.slug}: strictly increasing difficulty needs a card of 2 to "
                            f"{DIFFICULTY_MAX - DIFFICULTY_MIN + 1} questions")
        if self.ladder and self.unit != UNIT_QUESTION:
            raise SpecError(f"{self.slug}: ladder questions stand alone, one step each")
        if self.paired != bool(self.pair_colours):
            raise SpecError(f"{self.slug}: paired cards, and only they, name their colours")
        unknown = [name for name in self.pair_colours if name not in PALETTE]
        if unknown:
            raise SpecError(f"{self.slug}: colours not in the palette: {unknown}")

    @property
    def is_card(self) -> bool:
        return self.unit != UNIT_QUESTION


@dataclass(frozen=True)
class LadderStep:
    """One step of the prize ladder."""

    number: int  # 1-based
    amount: int  # euros
    safe: bool  # a palier: money kept after a later wrong answer
    difficulty_band: tuple[int, int]


@dataclass(frozen=True)
class Players:
    """How many can play; `coverage` is the table size a full deck is counted for."""

    minimum: int
    maximum: int | None  # None: the rules set no maximum
    coverage: int

    def __post_init__(self):
        if self.minimum < 1:
            raise SpecError("a game needs at least one player")
        if self.maximum is not None and self.maximum < self.minimum:
            raise SpecError("maximum players below minimum")
        top = self.maximum if self.maximum is not None else self.coverage
        if not self.minimum <= self.coverage <= top:
            raise SpecError("coverage must be a playable table size")

    @property
    def label(self) -> str:
        if self.maximum is None:
            return _("%(n)s joueurs ou plus") % {"n": self.minimum}
        return _("%(a)s à %(b)s joueurs") % {"a": self.minimum, "b": self.maximum}


def _frozen_dataclass(value) -> bool:
    """Return whether `value` is a dataclass instance whose fields cannot be set."""
    if not is_dataclass(value) or isinstance(value, type) or not fields(value):
        return False
    name = fields(value)[0].name
    try:
        setattr(value, name, getattr(value, name))  # the same value: harmless if it works
    except FrozenInstanceError:
        return True
    return False


@dataclass(frozen=True)
class GameSpec:
    """A game's rules as data: the registry entry every layer reads."""

    slug: str
    name: str
    players: Players
    kinds: tuple[ContentKind, ...] = ()
    ladder: tuple[LadderStep, ...] = ()
    # The game's numbers (money, points, lives, pairings…) as its own frozen dataclass.
    rules: object = None
    labels: dict = field(default_factory=dict)  # French words for identifiers in `rules`
    # How a question may be answered, by slug, in play order: the slot formats a kind orders
    # its questions by (other slots, such as a pool drawn from, are not ordered).
    answer_formats: dict = field(default_factory=dict)
    summary: StrOrPromise = ""
    order: int = 0  # where the game comes in every list of games, from 1, each its own

    def __post_init__(self):
        slugs = [k.slug for k in self.kinds]
        if len(set(slugs)) != len(slugs):
            raise SpecError(f"{self.slug}: duplicate content kind")
        if any(k.ladder for k in self.kinds) and not self.ladder:
            raise SpecError(f"{self.slug}: a ladder kind needs a prize ladder")
        for i, step in enumerate(self.ladder, start=1):
            low, high = step.difficulty_band
            if step.number != i or not DIFFICULTY_MIN <= low <= high <= DIFFICULTY_MAX:
                raise SpecError(f"{self.slug}: bad ladder step {step.number}")
        amounts = [s.amount for s in self.ladder]
        if amounts != sorted(set(amounts)):
            raise SpecError(f"{self.slug}: ladder amounts must rise")
        if any(kind.difficulty_order == ORDER_BY_SLOT_FORMAT for kind in self.kinds) and not (
                self.answer_formats):
            raise SpecError(f"{self.slug}: ordering by slot format needs answer formats")
        if self.rules is not None and not _frozen_dataclass(self.rules):
            raise SpecError(f"{self.slug}: rules must be a frozen dataclass")
        if not SLUG.fullmatch(self.slug):
            raise SpecError(f"{self.slug!r}: a game's slug is lower-case words joined by '-'")
        if self.order < 1:
            raise SpecError(f"{self.slug}: order, its place in lists of games, starts at 1")
        unlabelled = [f.name for f in fields(self.rules) if "label" not in f.metadata] if (
            is_dataclass(self.rules)) else []
        if unlabelled:
            # Editors read the rules in the admin: each number is named in French there.
            raise SpecError(f"{self.slug}: rules fields without a label: {unlabelled}")

    def kind(self, slug: str) -> ContentKind:
        for kind in self.kinds:
            if kind.slug == slug:
                return kind
        raise KeyError(slug)

    @property
    def card_kinds(self) -> tuple[ContentKind, ...]:
        return tuple(k for k in self.kinds if k.is_card)

    @property
    def question_kinds(self) -> tuple[ContentKind, ...]:
        return tuple(k for k in self.kinds if not k.is_card)

    def step(self, number: int) -> LadderStep:
        return self.ladder[number - 1]

    def fallback_amount(self, number: int) -> int:
        """Return what a wrong answer at this step still pays: the last safe level below."""
        safe = [s.amount for s in self.ladder if s.safe and s.number < number]
        return safe[-1] if safe else 0
