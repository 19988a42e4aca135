"""The engines, one per playable game, by game slug (see base.py for their shape).

A game is playable when this package holds a module named as its module in `cms.games`,
with `ENGINE`; nothing else names it.
"""

from cms.games import modules_in

ENGINES = {slug: module.ENGINE for slug, module in modules_in(__name__).items()}
