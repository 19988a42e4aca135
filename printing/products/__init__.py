"""Every game's printable products: `PRODUCTS[game slug][product slug]`.

A game prints when this package holds a module (or package) named as its module in
`cms.games`, with a `PRODUCTS` tuple, and `SENTENCES`, the sentence
of each problem code its faces report, if it has codes of its own, and `IMAGE_PANELS`, the
panels that hide a kind's picture, if it has any. Nothing else changes.
"""

from cms.games import modules_in

from .base import Deck, ImagePanel, Page, Product, Sheets
from .calibration import CALIBRATION

BY_GAME = modules_in(__name__)

# Every game's products, then the calibration sheet a maker prints once per printer.
PRODUCTS: dict[str, dict[str, Product]] = {
    slug: {product.slug: product for product in (*module.PRODUCTS, CALIBRATION)}
    for slug, module in BY_GAME.items()
}

# The sentences of the problems a game's products report (an image too small…), by code.
PRODUCT_SENTENCES = {code: sentence
                     for module in BY_GAME.values()
                     for code, sentence in getattr(module, "SENTENCES", {}).items()}

# The panels that hide a kind's picture in play, by content kind (a game's `IMAGE_PANELS`).
IMAGE_PANELS = {kind: panels
                for module in BY_GAME.values()
                for kind, panels in getattr(module, "IMAGE_PANELS", {}).items()}

__all__ = ["IMAGE_PANELS", "PRODUCTS", "PRODUCT_SENTENCES", "Deck", "ImagePanel", "Page",
           "Product", "Sheets"]
