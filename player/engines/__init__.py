"""The engines, one per playable game, by game slug (see base.py for their shape).

A game is playable when this package holds a module named as its module in `cms.games`,
with `ENGINE`; nothing else names it. On one shared screen only if its engine says no
seat holds secrets (`private_hands`); a game whose seats do is played in a room. A game is
played in a room, each player on their own device, when its module also has `ROOM_ENGINE`
(the same engine, or another one for the game's party mode).
"""

from cms.games import modules_in


def checked(engines: dict) -> dict:
    """Return the engines, once each says whether it may be played on one shared screen."""
    for slug, engine in engines.items():
        if not isinstance(getattr(engine, "private_hands", None), bool):
            raise TypeError(f"player/engines: the {slug} engine must set private_hands to True"
                            " (each seat holds secrets: played in a room) or False (one "
                            "shared screen).")
    return engines


_MODULES = modules_in(__name__)
ENGINES = checked({slug: module.ENGINE for slug, module in _MODULES.items()})
ROOM_ENGINES = checked({slug: module.ROOM_ENGINE for slug, module in _MODULES.items()
                        if hasattr(module, "ROOM_ENGINE")})
