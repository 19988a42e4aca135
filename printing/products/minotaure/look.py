"""The Minotaure's look: its colours, and how its names and numbers are printed."""

from __future__ import annotations

from cms.games.minotaure import MINOTAUR_COLOUR, THESEE_COLOUR

COLOUR = "#5b3a1e"  # the labyrinth's brown: walls, headers and every back
PARCHMENT = "#f7f0e1"
ROOM_FLOOR = "#ead9b8"
THREAD_RED = "#b3261e"
MINOTAUR_RED = MINOTAUR_COLOUR  # the registry's: the web player paints the same marbles
THESEE_GOLD = THESEE_COLOUR
HAIRLINE = 0.2


def colour_label(name: str) -> str:
    """Return a palette name as printed: « rouge » → « Rouge »."""
    return name[:1].upper() + name[1:]


def french_number(value: float, digits: int = 1) -> str:
    """Return `value` the French way, with no trailing zero: 2.50 → « 2,5 »."""
    return f"{value:.{digits}f}".rstrip("0").rstrip(".").replace(".", ",")
