"""Printable products of prendre-sa-place."""

GAME = "prendre-sa-place"

PRODUCTS = ()
