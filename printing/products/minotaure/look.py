"""The Minotaure's look: its colours, and how its names and numbers are printed."""

from __future__ import annotations

COLOUR = "#5b3a1e"  # the labyrinth's brown: walls, headers and every back
PARCHMENT = "#f7f0e1"
ROOM_FLOOR = "#ead9b8"
MINOTAUR_RED = "#8e1b12"
THREAD_RED = "#b3261e"
THESEE_GOLD = "#e2b93b"  # the Thésée marble, in no prisoner's colour
HAIRLINE = 0.2


def colour_label(name: str) -> str:
    """Return a palette name as printed: « rouge » → « Rouge »."""
    return name[:1].upper() + name[1:]


def french_number(value: float, digits: int = 1) -> str:
    """Return `value` the French way, with no trailing zero: 2.50 → « 2,5 »."""
    return f"{value:.{digits}f}".rstrip("0").rstrip(".").replace(".", ",")
