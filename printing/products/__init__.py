"""Every game's printable products: `PRODUCTS[game slug][product slug]`.

A new game adds one module here with a `PRODUCTS` tuple; nothing else changes.
"""

from . import douze_coups, millionnaire, minotaure, prendre_sa_place, the_mind
from .base import Deck, Page, Product, Sheets
from .calibration import CALIBRATION

# Every game's products, then the calibration sheet a maker prints once per printer.
PRODUCTS: dict[str, dict[str, Product]] = {
    module.GAME: {product.slug: product for product in (*module.PRODUCTS, CALIBRATION)}
    for module in (douze_coups, millionnaire, prendre_sa_place, the_mind, minotaure)
}

__all__ = ["PRODUCTS", "Deck", "Page", "Product", "Sheets"]
