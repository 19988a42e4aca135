"""Quiz express: a toy sixth game, written along CONTRIBUTING.md to prove the checklist.

Each player in turn answers a question of three propositions; a right answer scores a
point. Not a real game of Plateau: tests/sixth_game copies it into a copy of the project.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy as _

from .spec import UNIT_QUESTION, ContentKind, GameSpec, Players


@dataclass(frozen=True)
class Rules:
    rounds: int = field(default=2, metadata={"label": _("Questions par joueur")})


RULES = Rules()

SPEC = GameSpec(
    slug="quiz-express",
    order=6,
    name="Quiz express",
    players=Players(minimum=2, maximum=4, coverage=4),
    kinds=(
        ContentKind(
            slug="express",
            label=_("Question express"),
            label_plural=_("Questions express"),
            unit=UNIT_QUESTION,
            propositions=3,
            right=1,
            full_game=8,
        ),
    ),
    rules=RULES,
    summary=_("Trois propositions, une seule bonne : un point par bonne réponse."),
)
