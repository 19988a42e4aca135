"""The registry: every game's rules as frozen data, read by every layer."""

from . import douze_coups, millionnaire, minotaure, prendre_sa_place, the_mind
from .spec import ContentKind, GameSpec, SpecError

GAMES: dict[str, GameSpec] = {
    module.SPEC.slug: module.SPEC
    for module in (douze_coups, millionnaire, prendre_sa_place, the_mind, minotaure)
}


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
           "content_games", "game_of", "kind_of", "paired_kinds"]
