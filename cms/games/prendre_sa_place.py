"""Tout le monde veut prendre sa place: DUO, CARRÉ or CASH against the Champion."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypedDict

from django.utils.translation import gettext_lazy as _

from .spec import ORDER_BY_SLOT_FORMAT, AnswerFormat, ContentKind, GameSpec, Players

DUO = AnswerFormat(slug="duo", label="DUO", propositions=2, points=1)
CARRE = AnswerFormat(slug="carre", label="CARRÉ", propositions=4, points=3)
CASH = AnswerFormat(slug="cash", label="CASH", propositions=0, points=5)
FORMATS = {f.slug: f for f in (DUO, CARRE, CASH)}

SUPER_CASH_POINTS = 5  # +5 right, -5 wrong
SUPER_CASH_POOL = tuple(range(9, 15))  # question numbers on a Compet' card
# Questions 1-9 are played in order; 10-14 only fill the Super Cash pool (with question 9).
COMPET_SLOTS = ("duo",) * 3 + ("carre",) * 3 + ("cash",) * 3 + ("super-cash",) * 5


class _QuestionShape(TypedDict):
    """The ContentKind arguments every kind of this game shares."""

    propositions: int
    right: int
    free_answer: bool


# Every question can be played in the three formats: 1 right + 3 wrong, and a free answer.
_QUESTION: _QuestionShape = {"propositions": 4, "right": 1, "free_answer": True}



@dataclass(frozen=True)
class PrendreSaPlaceRules:
    """The numbers of Tout le monde veut prendre sa place."""

    # in play order: DUO, CARRÉ, CASH
    formats: Mapping[str, AnswerFormat] = field(
        metadata={"label": _("Formats de réponse, dans l’ordre du jeu")})
    # per challenger
    qualifs_questions: int = field(metadata={"label": _("Questions des Qualifs par challenger")})
    qualifs_track: tuple[int, int] = field(metadata={"label": _("Piste des Qualifs (de, à)")})
    # best Qualifs score first; the others on the last
    compet_starts: tuple[int, ...] = field(metadata={"label": _("Cases de départ de la Compet’")})
    # questions 1-9 of the card, in order
    compet_played: int = field(metadata={"label": _("Questions jouées par carte de Compet’")})
    # +5 right, -5 wrong
    super_cash_points: int = field(metadata={"label": _("Points du Super Cash (gagnés ou perdus)")})
    # question numbers on a Compet' card
    super_cash_pool: tuple[int, ...] = field(
        metadata={"label": _("Questions du Super Cash sur une carte de Compet’")})
    # the Champion picks one among these
    defi_themes_drawn: int = field(metadata={"label": _("Thèmes tirés pour le Défi")})
    # to the Challenger, then to the Champion
    defi_questions: int = field(metadata={"label": _("Questions du Défi par joueur")})


RULES = PrendreSaPlaceRules(
    formats=FORMATS,
    qualifs_questions=2,
    qualifs_track=(1, 10),
    compet_starts=(-1, -2, -3),
    compet_played=9,
    super_cash_points=SUPER_CASH_POINTS,
    super_cash_pool=SUPER_CASH_POOL,
    defi_themes_drawn=4,
    defi_questions=6,
)

SPEC = GameSpec(
    slug="prendre-sa-place",
    order=3,
    name="Tout le monde veut prendre sa place",
    # No maximum in the rules; decks are counted for a Champion and three challengers.
    players=Players(minimum=2, maximum=None, coverage=6),
    kinds=(
        ContentKind(
            slug="qualifs",
            label=_("Les Qualifs"),
            label_plural=_("Les Qualifs"),
            questions_per_card=2,
            full_game=3,  # one card per challenger
            **_QUESTION,
        ),
        ContentKind(
            slug="compet",
            label=_("La Compet’"),
            label_plural=_("La Compet’"),
            questions_per_card=14,
            slot_formats=COMPET_SLOTS,
            difficulty_order=ORDER_BY_SLOT_FORMAT,
            full_game=1,
            **_QUESTION,
        ),
        ContentKind(
            slug="defi",
            label=_("Le Défi"),
            label_plural=_("Le Défi"),
            questions_per_card=6,
            full_game=4,  # four themes drawn, the Champion picks one
            **_QUESTION,
        ),
    ),
    rules=RULES,
    answer_formats=FORMATS,
    summary=_("Qualifs, Compet’ et Défi : battre le Champion ou garder sa place."),
)
