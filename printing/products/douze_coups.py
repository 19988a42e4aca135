"""Printable products of douze-coups."""

GAME = "douze-coups"

PRODUCTS = ()
