"""The Mind: cooperative, cards 1-100, no talking."""

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy as _

from .spec import GameSpec, Players

LIFE = "life"
SHURIKEN = "shuriken"


@dataclass(frozen=True)
class TheMindRules:
    """The numbers of The Mind."""

    # lowest and highest number
    cards: tuple[int, int] = field(metadata={"label": _("Cartes nombres (de, à)")})
    # last level by table size
    levels_by_players: Mapping[int, int] = field(
        metadata={"label": _("Dernier niveau selon le nombre de joueurs")})
    lives_by_players: Mapping[int, int] = field(
        metadata={"label": _("Vies de départ selon le nombre de joueurs")})
    start_shurikens: int = field(metadata={"label": _("Shurikens de départ")})
    # level completed → LIFE or SHURIKEN
    rewards: Mapping[int, str] = field(
        metadata={"label": _("Récompenses (niveau réussi : récompense)")})
    max_lives: int = field(metadata={"label": _("Vies au plus")})
    max_shurikens: int = field(metadata={"label": _("Shurikens au plus")})
    level_cards: int = field(metadata={"label": _("Cartes niveaux")})
    life_cards: int = field(metadata={"label": _("Cartes vies")})
    shuriken_cards: int = field(metadata={"label": _("Cartes shurikens")})


RULES = TheMindRules(
    cards=(1, 100),
    levels_by_players={2: 12, 3: 10, 4: 8},
    lives_by_players={2: 2, 3: 3, 4: 4},
    start_shurikens=1,
    rewards={2: SHURIKEN, 3: LIFE, 5: SHURIKEN, 6: LIFE, 8: SHURIKEN, 9: LIFE},
    max_lives=5,
    max_shurikens=3,
    level_cards=12,
    life_cards=5,
    shuriken_cards=3,
)

SPEC = GameSpec(
    slug="the-mind",
    order=4,
    name="The Mind",
    players=Players(minimum=2, maximum=4, coverage=4),
    rules=RULES,
    labels={SHURIKEN: _("shuriken"), LIFE: _("vie")},
    summary=_("Poser les cartes de 1 à 100 dans l’ordre, sans se parler."),
)
