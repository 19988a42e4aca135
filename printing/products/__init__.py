"""Every game's printable products: `PRODUCTS[game slug][product slug]`.

A new game adds one module here with a `PRODUCTS` tuple (and `SENTENCES`, the sentence of
each problem code its faces report, if it has codes of its own); nothing else changes.
"""

from . import douze_coups, millionnaire, minotaure, prendre_sa_place, the_mind
from .base import Deck, Page, Product, Sheets
from .calibration import CALIBRATION

GAME_MODULES = (douze_coups, millionnaire, prendre_sa_place, the_mind, minotaure)

# Every game's products, then the calibration sheet a maker prints once per printer.
PRODUCTS: dict[str, dict[str, Product]] = {
    module.GAME: {product.slug: product for product in (*module.PRODUCTS, CALIBRATION)}
    for module in GAME_MODULES
}

# The sentences of the problems a game's products report (an image too small…), by code.
PRODUCT_SENTENCES = {code: sentence
                     for module in GAME_MODULES
                     for code, sentence in getattr(module, "SENTENCES", {}).items()}

__all__ = ["PRODUCTS", "PRODUCT_SENTENCES", "Deck", "Page", "Product", "Sheets"]
