"""Le jeu du Minotaure: flick marbles through a circular labyrinth."""

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy as _

from .spec import PALETTE, GameSpec, Players

COLOURS = dict(PALETTE)  # ten prisoner marbles, one per colour
MINOTAUR_COLOUR = "#8e1b12"  # the Minotaur's calot, printed and played
THESEE_COLOUR = "#e2b93b"  # the Thésée marble, in no prisoner's colour


@dataclass(frozen=True)
class MinotaureRules:
    """The pieces of Le jeu du Minotaure (the board is cms.games.labyrinth's)."""

    # prisoner marble colours, by French name
    colours: Mapping[str, str] = field(metadata={"label": _("Couleurs des prisonniers")})
    prisoners: int = field(metadata={"label": _("Prisonniers")})
    thesee_cards: int = field(metadata={"label": _("Cartes Thésée")})
    ariane_cards: int = field(metadata={"label": _("Cartes Ariane")})


RULES = MinotaureRules(colours=COLOURS, prisoners=10, thesee_cards=10, ariane_cards=10)

SPEC = GameSpec(
    slug="minotaure",
    order=5,
    name="Le jeu du Minotaure",
    players=Players(minimum=3, maximum=10, coverage=10),
    rules=RULES,
    summary=_("Pichenettes et bluff : le dernier prisonnier dans le labyrinthe gagne."),
)
