"""The Mind: cooperative, cards 1-100, no talking."""

from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from .spec import GameSpec, Players

LIFE = "life"
SHURIKEN = "shuriken"


@dataclass(frozen=True)
class TheMindRules:
    """The numbers of The Mind."""

    cards: tuple[int, int]  # lowest and highest number
    levels_by_players: Mapping[int, int]  # last level by table size
    lives_by_players: Mapping[int, int]
    start_shurikens: int
    rewards: Mapping[int, str]  # level completed → LIFE or SHURIKEN
    max_lives: int
    max_shurikens: int
    level_cards: int
    life_cards: int
    shuriken_cards: int


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
