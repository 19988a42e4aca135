"""The millionnaire's look: its navy, the show's lozenge, the players' seats and colours,
and the text measures every product shares."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from cms.games.spec import PALETTE

from ...text import LEADING, MIN_SIZE
from ...units import to_mm

COLOUR = "#16235a"  # the show's navy: bands, backs, the score pad and the poster
LETTERS = "ABCD"
# "palier" is both a ladder step and a safe level; printed alone, it means the safe level.
SAFE_LEVEL = pgettext_lazy("niveau garanti", "palier")

# The players' sets: one colour and one number per seat.
# The rules set no maximum: sets are printed for a table of eight, the most one pad holds.
TABLE_SIZE = 8
PLAYER_COLOURS = tuple((name, PALETTE[name]) for name in (
    "rouge", "orange", "jaune", "vert", "turquoise", "bleu", "violet", "rose"))


def player_label(player: int) -> str:
    """Return a seat's name: « Joueur 3 »."""
    return _("Joueur %(n)s") % {"n": player}


def line_mm(size: float, lines: int = 1) -> float:
    """Return the height in mm that `lines` lines of `size` pt take once fitted."""
    return to_mm(size * LEADING * (lines - 1) + size)


def at_least_readable(size: float) -> float:
    """Return `size`, raised to the smallest readable size if a small card scaled it under."""
    return max(size, MIN_SIZE)


def lozenge(cx: float, cy: float, w: float, h: float) -> list[tuple[float, float]]:
    """Return the corners of the show's answer box: a hexagon pointed left and right."""
    tip = h / 2
    return [(cx - w / 2, cy), (cx - w / 2 + tip, cy + h / 2), (cx + w / 2 - tip, cy + h / 2),
            (cx + w / 2, cy), (cx + w / 2 - tip, cy - h / 2), (cx - w / 2 + tip, cy - h / 2)]
