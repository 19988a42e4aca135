"""Le jeu du Minotaure: flick marbles through a circular labyrinth."""

from django.utils.translation import gettext_lazy as _

from .spec import GameSpec, Players

COLOURS = {
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
