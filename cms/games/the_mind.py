"""The Mind: cooperative, cards 1-100, no talking."""

from django.utils.translation import gettext_lazy as _

from .spec import GameSpec, Players

SPEC = GameSpec(
    slug="the-mind",
    name="The Mind",
    players=Players(minimum=2, maximum=4, coverage=4),
    scoring={
        "cards": (1, 100),
        "levels_by_players": {2: 12, 3: 10, 4: 8},
        "lives_by_players": {2: 2, 3: 3, 4: 4},
        "start_shurikens": 1,
        "rewards": {2: "shuriken", 3: "life", 5: "shuriken", 6: "life", 8: "shuriken", 9: "life"},
        "max_lives": 5,
        "max_shurikens": 3,
        "level_cards": 12,
        "life_cards": 5,
        "shuriken_cards": 3,
    },
    labels={"shuriken": _("shuriken"), "life": _("vie")},
    summary=_("Poser les cartes de 1 à 100 dans l’ordre, sans se parler."),
)
