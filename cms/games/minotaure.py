"""Le jeu du Minotaure: flick marbles through a circular labyrinth."""

from django.utils.translation import gettext_lazy as _

from .spec import PALETTE, GameSpec, Players

COLOURS = dict(PALETTE)  # ten prisoner marbles, one per colour

SPEC = GameSpec(
    slug="minotaure",
    name="Le jeu du Minotaure",
    players=Players(minimum=3, maximum=10, coverage=10),
    scoring={
        "colours": COLOURS,
        "prisoners": 10,
        "thesee_cards": 10,
        "ariane_cards": 10,
    },
    summary=_("Pichenettes et bluff : le dernier prisonnier dans le labyrinthe gagne."),
)
