"""Qui veut gagner des millions ?: a 15-step prize ladder, three safe levels, three jokers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _

from .spec import UNIT_QUESTION, ContentKind, GameSpec, LadderStep, Players, SpecError

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

AMOUNTS = (200, 300, 500, 800, 1_500, 3_000, 6_000, 12_000, 24_000, 48_000,
           72_000, 100_000, 150_000, 300_000, 1_000_000)
SAFE_STEPS = (5, 10, 15)


def _band(step: int) -> tuple[int, int]:
    if step <= 5:
        return (1, 2)
    if step <= 10:
        return (2, 4)
    return (4, 5)


LADDER = tuple(
    LadderStep(number=n, amount=amount, safe=n in SAFE_STEPS, difficulty_band=_band(n))
    for n, amount in enumerate(AMOUNTS, start=1)
)

JOKERS = {
    "cinquante": _("50:50"),
    "public": _("Vote du public"),
    "ami": _("Coup de fil à un ami"),
}



@dataclass(frozen=True)
class MillionnaireRules:
    """The jokers of Qui veut gagner des millions ? (the ladder is the spec's own)."""

    # slug → label; each once per game
    jokers: Mapping[str, StrOrPromise] = field(
        metadata={"label": _("Jokers (un de chaque par partie)")})
    # wrong answers the 50:50 takes away
    fifty_fifty_removes: int = field(
        metadata={"label": _("Mauvaises réponses retirées par le 50:50")})
    # The simulated audience and friend are right this often at the first and last step,
    # in a straight line between.
    audience_accuracy: tuple[float, float] = field(
        metadata={"label": _("Justesse du public (de, à)")})
    friend_accuracy: tuple[float, float] = field(metadata={"label": _("Justesse de l’ami (de, à)")})
    # two-player variant: the public joker gives this many tries
    public_tries_two_players: int = field(
        metadata={"label": _("Essais du joker public à deux joueurs")})
    friend_tries_two_players: int = field(
        metadata={"label": _("Essais du joker ami à deux joueurs")})

    def __post_init__(self):
        for low, high in (self.audience_accuracy, self.friend_accuracy):
            if not 0 <= high <= low <= 1:
                raise SpecError("millionnaire: a joker's accuracy falls as the step rises")

    def accuracy(self, joker: str, step: int, steps: int) -> float:
        """Return how often the audience or the friend is right at this step."""
        first, last = self.audience_accuracy if joker == "public" else self.friend_accuracy
        return first + (last - first) * (step - 1) / max(steps - 1, 1)


RULES = MillionnaireRules(
    jokers=JOKERS,
    fifty_fifty_removes=2,
    audience_accuracy=(0.9, 0.4),
    friend_accuracy=(0.85, 0.5),
    public_tries_two_players=3,
    friend_tries_two_players=2,
)

SPEC = GameSpec(
    slug="millionnaire",
    order=2,
    name="Qui veut gagner des millions ?",
    # No maximum in the rules; decks are counted for a table of four (one round each).
    players=Players(minimum=2, maximum=None, coverage=6),
    kinds=(
        ContentKind(
            slug="echelle",
            label=_("Question de l’échelle"),
            label_plural=_("Questions de l’échelle"),
            unit=UNIT_QUESTION,
            propositions=4,
            right=1,
            ladder=True,
            # Per step: every player is game master for one round.
            full_game=4,
        ),
    ),
    ladder=LADDER,
    rules=RULES,
    summary=_("Quinze questions vers le million, trois paliers, trois jokers."),
)

