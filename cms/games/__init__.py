"""The registry: every game's rules as frozen data, read by every layer.

A game is a module of this package that defines `SPEC`, a `GameSpec`: it is found here,
and nothing else names it. Each other layer finds the game's module of its own under
the same name (`printing.products.<name>`, `player.engines.<name>`) through
`modules_in`: a new game is one module per layer, and no list to edit.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from types import ModuleType

from .spec import ContentKind, GameSpec, SpecError


def discover_games() -> dict[str, ModuleType]:
    """Every module of this package that defines a game, by game slug, in `order`."""
    found: dict[str, ModuleType] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        if not hasattr(module, "SPEC"):
            continue  # a helper shared by games: spec, labyrinth…
        spec = module.SPEC
        if not isinstance(spec, GameSpec):
            raise SpecError(f"{module.__name__}.SPEC is a {type(spec).__name__}, not a GameSpec")
        if spec.slug in found:
            if found[spec.slug].SPEC is spec:
                continue  # a module that imports another game's SPEC
            raise SpecError(f"game {spec.slug!r} declared twice: in "
                            f"{found[spec.slug].__name__} and in {module.__name__}")
        found[spec.slug] = module
    orders: dict[int, str] = {}
    for slug, module in found.items():
        other = orders.setdefault(module.SPEC.order, slug)
        if other != slug:
            raise SpecError(f"games {other!r} and {slug!r} have the same order, "
                            f"{module.SPEC.order}: give each its own place in lists")
    return dict(sorted(found.items(), key=lambda item: item[1].SPEC.order))


_MODULES = discover_games()

GAMES: dict[str, GameSpec] = {slug: module.SPEC for slug, module in _MODULES.items()}


def modules_in(package: str) -> dict[str, ModuleType]:
    """Each game's module in another layer's `package`, by game slug, in the games' order.

    The module has the name of the game's module here (the_mind → `<package>.the_mind`);
    a game without one in that layer (nothing to print, not playable yet) is left out.
    """
    found: dict[str, ModuleType] = {}
    for slug, module in _MODULES.items():
        name = f"{package}.{module.__name__.rpartition('.')[2]}"
        if importlib.util.find_spec(name) is not None:
            found[slug] = importlib.import_module(name)
    return found


def _index_kinds() -> dict[str, tuple[GameSpec, ContentKind]]:
    kinds: dict[str, tuple[GameSpec, ContentKind]] = {}
    for game in GAMES.values():
        for kind in game.kinds:
            if kind.slug in kinds:
                raise SpecError(f"content kind {kind.slug!r} declared twice")
            kinds[kind.slug] = (game, kind)
    return kinds


KINDS = _index_kinds()


def game_of(kind_slug: str) -> GameSpec:
    """Return the game a content kind belongs to."""
    return KINDS[kind_slug][0]


def kind_of(kind_slug: str) -> ContentKind:
    """Return the content kind declared under this slug."""
    return KINDS[kind_slug][1]


# The longest prize ladder of any game: a question's step goes from 1 to this.
MAX_STEP = max((len(game.ladder) for game in GAMES.values()), default=0)

# Every colour a paired card may take, in the order the games declare them.
PAIR_COLOURS = tuple(dict.fromkeys(
    colour for game in GAMES.values() for kind in game.kinds for colour in kind.pair_colours))


def paired_kinds() -> list[ContentKind]:
    """Return the kinds whose cards come in pairs."""
    return [kind for game in GAMES.values() for kind in game.kinds if kind.paired]


def content_games() -> list[GameSpec]:
    """Return the games that have editable content."""
    return [game for game in GAMES.values() if game.kinds]


__all__ = ["GAMES", "KINDS", "MAX_STEP", "PAIR_COLOURS", "ContentKind", "GameSpec",
           "content_games", "game_of", "kind_of", "modules_in", "paired_kinds"]
