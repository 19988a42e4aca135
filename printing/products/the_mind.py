"""Printable products of the-mind."""

GAME = "the-mind"

PRODUCTS = ()
