"""The engines, one per playable game, by game slug (see base.py for their shape)."""

from . import douze_coups, millionnaire, prendre_sa_place

ENGINES = {engine.slug: engine for engine in (
    douze_coups.ENGINE, millionnaire.ENGINE, prendre_sa_place.ENGINE)}
