"""The Minotaure's look: its colours, and how its names and numbers are printed."""

from __future__ import annotations

from cms.games.minotaure import MINOTAUR_COLOUR as MINOTAUR_RED
from cms.games.minotaure import THESEE_COLOUR as THESEE_GOLD

COLOUR = "#5b3a1e"  # the labyrinth's brown: walls, headers and every back
PARCHMENT = "#f7f0e1"
ROOM_FLOOR = "#ead9b8"
THREAD_RED = "#b3261e"
HAIRLINE = 0.2


def colour_label(name: str) -> str:
    """Return a palette name as printed: « rouge » → « Rouge »."""
    return name[:1].upper() + name[1:]


def french_number(value: float, digits: int = 1) -> str:
    """Return `value` the French way, with no trailing zero: 2.50 → « 2,5 »."""
    return f"{value:.{digits}f}".rstrip("0").rstrip(".").replace(".", ",")
