"""Printable products of minotaure."""

GAME = "minotaure"

PRODUCTS = ()
