"""The engines, one per playable game, by game slug (see base.py for their shape)."""

from . import millionnaire, prendre_sa_place

ENGINES = {engine.slug: engine for engine in (millionnaire.ENGINE, prendre_sa_place.ENGINE)}
