"""Lengths: faces are laid out in millimetres; ReportLab and type sizes speak points.

The one conversion every printing module uses. `POINTS_PER_MM` is ReportLab's own `mm`,
so a length converted here lands on the very point the canvas would compute.
"""

from __future__ import annotations

from reportlab.lib.units import mm

POINTS_PER_MM: float = mm
MM_PER_POINT: float = 1 / mm


def to_points(millimetres: float) -> float:
    """The length `millimetres` in points (1/72 inch)."""
    return millimetres * POINTS_PER_MM


def to_mm(points: float) -> float:
    """The length `points` in millimetres: a text's width, a type size's height."""
    return points / POINTS_PER_MM
