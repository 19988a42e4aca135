"""The engines, one per playable game, by game slug (see base.py for their shape)."""

from . import millionnaire

ENGINES = {engine.slug: engine for engine in (millionnaire.ENGINE,)}
