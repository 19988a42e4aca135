"""Printable products of The Mind: the number cards, level cards, lives and shurikens.

- `look`: the game's colours, the number cards' gradient, the heart and shuriken icons,
  and the back every card shares;
- `cards`: the number, level and reward cards' fronts, and their decks.
"""

from __future__ import annotations

from .cards import (
    LEVEL_CARDS,
    LIFE_CARDS,
    NUMBER_CARDS,
    SHURIKEN_CARDS,
    LevelCard,
    NumberCard,
    RewardCard,
    level_cards,
    needs_underline,
)
from .look import COLOUR, colour_for

GAME = "the-mind"
PRODUCTS = (NUMBER_CARDS, LEVEL_CARDS, LIFE_CARDS, SHURIKEN_CARDS)

__all__ = ["COLOUR", "GAME", "LEVEL_CARDS", "LIFE_CARDS", "NUMBER_CARDS", "PRODUCTS",
           "SHURIKEN_CARDS", "LevelCard", "NumberCard", "RewardCard", "colour_for",
           "level_cards", "needs_underline"]
