"""Printable products of Le jeu du Minotaure: the labyrinth board, Thésée and Ariane cards,
the Thésée marble variant's card, and the marbles' colour chart.

- `look`: the game's colours and how its names and numbers are printed;
- `board`: the labyrinth drawing, from the geometry the web player's physics uses;
- `tiles`: the board life size over several sheets to assemble, or reduced on one A3;
- `cards`: the Thésée, Ariane and Thésée variant cards, and their backs;
- `chart`: the marbles' colour chart.
"""

from __future__ import annotations

from .board import board_size
from .cards import (
    ARIANE,
    THESEE,
    THESEE_VARIANT,
    ariane_front,
    thesee_cards,
    thesee_front,
    thesee_variant_front,
)
from .chart import COULEURS
from .look import COLOUR, colour_label
from .tiles import PLATEAU, PLATEAU_A3

GAME = "minotaure"
PRODUCTS = (PLATEAU, PLATEAU_A3, THESEE, ARIANE, THESEE_VARIANT, COULEURS)

__all__ = ["ARIANE", "COLOUR", "COULEURS", "GAME", "PLATEAU", "PLATEAU_A3", "PRODUCTS",
           "THESEE", "THESEE_VARIANT", "ariane_front", "board_size", "colour_label",
           "thesee_cards", "thesee_front", "thesee_variant_front"]
