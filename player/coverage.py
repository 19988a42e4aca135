"""What one full game uses of each content kind, found by playing the rules many times.

A game's engine plays seeded games at the game's coverage table size on made-up content
(as much as the registry describes, never the library's: the figures depend on the rules
alone, so they are worked out once per game and process). Every pick is random; every
answer is right as often as its difficulty and luck allow (`chance`). Counted per game and
kind: the units whose questions were read or shown, and never fewer than the engine needs
to start at all (four Défi themes drawn for one played). A ladder kind is counted per
step. Over the games: the mean, the 90th percentile and the most.

A game with no engine that can simulate it (`simulated_action`), or none that seats its
coverage table, keeps the registry's guess (`ContentKind.full_game`), marked as such.
cms.rules reaches this module when its coverage rule runs.
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import json
import math
import os
import random
import sys
import time
from collections import defaultdict
from functools import cache
from pathlib import Path

from django.conf import settings

from cms.games import GAMES
from cms.games.spec import (
    DIFFICULTY_MAX,
    DIFFICULTY_MIN,
    ORDER_NONE,
    ORDER_STRICTLY_INCREASING,
    ContentKind,
    GameSpec,
)
from cms.validation import CALIBRATION_BANDS, CALIBRATION_BELOW_BANDS, Need, Needs, guessed_needs

from .engines import ENGINES, ROOM_ENGINES
from .engines.base import (
    ANSWERED,
    OVERRIDDEN,
    SHOWN,
    Choice,
    Content,
    Item,
    NotEnoughContent,
    Refused,
    Unit,
    states_handed_over,
)

GAMES_SIMULATED = 100
SEED = 2026
# A game that has not ended after this many actions is a bug in its simulated moves.
MAX_ACTIONS = 5_000
PERCENTILE = 0.9
ANSWER = "r"  # every made-up question's right answer


def knowledge(difficulty: int) -> float:
    """Return how often a player knows the answer to a question of this difficulty.

    The middle of the band of right answers that calibrates a question at this difficulty
    from play (cms.validation.CALIBRATION_BANDS): 1 → 92.5 %, 2 → 75 %, … 5 → 12.5 %.
    """
    tops = [100, *(low for low, _d in CALIBRATION_BANDS), 0]
    levels = [d for _low, d in CALIBRATION_BANDS] + [CALIBRATION_BELOW_BANDS]
    band = levels.index(min(max(difficulty, levels[0]), levels[-1]))
    return (tops[band] + tops[band + 1]) / 200


def chance(difficulty: int, luck: float) -> float:
    """Return how often a player answers right: known, or else guessed with `luck`."""
    known = knowledge(difficulty)
    return known + (1 - known) * luck


def difficulties(game: GameSpec, kind: ContentKind, rng: random.Random, step=None) -> list[int]:
    """Return plausible difficulties for one card's questions, in the kind's order."""
    if step is not None:
        return [rng.randint(*step.difficulty_band)]
    count = kind.questions_per_card
    if kind.difficulty_order == ORDER_STRICTLY_INCREASING:
        return sorted(rng.sample(range(DIFFICULTY_MIN, DIFFICULTY_MAX + 1), count))
    drawn = [rng.randint(DIFFICULTY_MIN, DIFFICULTY_MAX) for _ in range(count)]
    return drawn if kind.difficulty_order == ORDER_NONE else sorted(drawn)


class Deck:
    """Made-up content for a game: as many units of each kind as asked, numbered apart."""

    def __init__(self, game: GameSpec, seed: int):
        self.game = game
        self.rng = random.Random(f"{seed}:deck")
        self.next_id = 1
        self.where: dict[int, tuple[str, int, int | None]] = {}  # item id → kind, unit, step

    def _id(self) -> int:
        self.next_id += 1
        return self.next_id

    def item(self, kind: ContentKind, difficulty: int, unit: int, step: int | None) -> Item:
        number = self._id()
        self.where[number] = (kind.slug, unit, step)
        choices: tuple[Choice, ...] = ()
        if kind.propositions:
            right = set(self.rng.sample(range(kind.propositions), kind.right))
            choices = tuple(Choice(ANSWER if n in right else "", n in right,
                                   hidden=n >= kind.propositions - kind.hidden)
                            for n in range(kind.propositions))
        # Texts as short as an answer can be: the state the engine packs stays small.
        return Item(id=number, text="", difficulty=difficulty, step=step, choices=choices,
                    answer=ANSWER, has_image=kind.needs_image)

    def units(self, kind: ContentKind, count: int) -> tuple[Unit, ...]:
        """Return `count` units of a kind (per step for a ladder kind), pairs paired."""
        steps = self.game.ladder if kind.ladder else (None,)
        units = []
        for step in steps:
            numbers = [self._id() for _n in range(count)]
            for n, number in enumerate(numbers):
                partner = n + 1 if n % 2 == 0 else n - 1
                pair = numbers[partner] if kind.paired and partner < count else None
                colours = kind.pair_colours or ("",)
                items = tuple(self.item(kind, d, number, step.number if step else None)
                              for d in difficulties(self.game, kind, self.rng, step))
                units.append(Unit(id=number, kind=kind.slug, title=str(n // 2),
                                  colour=colours[(n // 2) % len(colours)], pair=pair,
                                  items=items))
        return tuple(units)


def engine_for(game: GameSpec, players: int):
    """Return an engine that seats this table and can be simulated, or None."""
    for engines in (ENGINES, ROOM_ENGINES):
        engine = engines.get(game.slug)
        if engine is not None and hasattr(engine, "simulated_action") and (
                engine.min_players <= players <= engine.max_players):
            return engine
    return None


def dealt(game: GameSpec, engine, players: int) -> dict[str, int]:
    """Return how many units of each kind to deal first: plenty beside every guess."""
    # The engine packs every dealt unit into its state: a game dealt twice the guess runs
    # faster than one dealt for the longest game, and the rare game that empties a deck is
    # played again with twice as much (`simulate`).
    wanted = engine.needs(players)
    counts = {}
    for kind in game.kinds:
        per_step = len(game.ladder) if kind.ladder else 1
        guess = kind.full_game or math.ceil(wanted.get(kind.slug, 0) / per_step)
        counts[kind.slug] = 2 * max(guess, 1) + 2
    return counts


def lifted(game: GameSpec, counts: dict[str, int]) -> GameSpec:
    """Return the game with each kind's full game as large as the units dealt.

    An engine draws at most the registry's guess of a full game (`full_game`): the
    simulation must let a game run until its rules end it, not its deck.
    """
    return dataclasses.replace(game, kinds=tuple(
        dataclasses.replace(kind, full_game=counts[kind.slug]) for kind in game.kinds))


def least_to_start(game: GameSpec, engine, players: list[str],
                   counts: dict[str, int]) -> dict[str, int]:
    """Return, per kind, the fewest units (per step, on a ladder) the engine starts with."""
    least = {}
    for kind in game.kinds:
        for count in range(counts[kind.slug] + 1):
            deck = Deck(game, 0)
            content = {k.slug: deck.units(k, count if k is kind else counts[k.slug])
                       for k in game.kinds}
            try:
                engine.start(lifted(game, {**counts, kind.slug: max(count, 1)}), content,
                             players, 0)
            except (NotEnoughContent, Refused):
                continue
            least[kind.slug] = count
            break
    return least


def play(game: GameSpec, engine, players: list[str], counts: dict[str, int],
         seed: int) -> tuple[dict[str, int], dict[str, dict[int, int]], set[str]]:
    """Play one game to its end; return the units used per kind, per step of a ladder kind,
    and the kinds whose every dealt unit was used (the deck, not the rules, ended them)."""
    deck = Deck(game, seed)
    content: Content = {kind.slug: deck.units(kind, counts[kind.slug]) for kind in game.kinds}
    rng = random.Random(f"{seed}:table")

    def knows(difficulty: int, luck: float) -> bool:
        return rng.random() < chance(difficulty, luck)

    state = engine.start(lifted(game, counts), content, players, seed, now=0.0)
    now, read = 0.0, set[int]()
    with states_handed_over():  # no state is read again once played on: no copies
        for _ in range(MAX_ACTIONS):
            if engine.finished(state):
                break
            delay, action = engine.simulated_action(state, rng, knows)
            now += delay
            deadline = engine.deadline(state)
            if deadline is not None and now >= deadline:
                now, action = deadline, {"type": "timeout"}
            state, events = engine.apply(state, {**action, "now": now})
            read.update(e["question"] for e in events
                        if e["type"] in (ANSWERED, SHOWN, OVERRIDDEN))
        else:
            raise RuntimeError(
                f"{game.slug}: a simulated game did not end in {MAX_ACTIONS} moves")
    units: dict[str, set[int]] = defaultdict(set)
    steps: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for question in read:
        kind, unit, step = deck.where[question]
        units[kind].add(unit)
        if step is not None:
            steps[kind][step] += 1
    used = {kind: len(ids) for kind, ids in units.items()}
    exhausted = {kind.slug for kind in game.kinds if (
        max(steps[kind.slug].values(), default=0) if kind.ladder
        else used.get(kind.slug, 0)) >= counts[kind.slug]}
    return used, steps, exhausted


def summary(values: list[int], simulated: bool = True) -> Need:
    ordered = sorted(values)
    p90 = ordered[max(0, math.ceil(PERCENTILE * len(ordered)) - 1)]
    # One decimal, as every page shows it: the warning and the dashboard say the same.
    return Need(mean=round(sum(values) / len(values), 1), p90=p90, most=ordered[-1],
                simulated=simulated)


def simulate(game: GameSpec, *, games: int = GAMES_SIMULATED, seed: int = SEED,
             players: int | None = None) -> Needs:
    """Play `games` seeded games of this game and return what a full game needs per kind."""
    began = time.perf_counter()
    players = players or game.players.coverage
    engine = engine_for(game, players)
    if engine is None:
        return dataclasses.replace(guessed_needs(game), players=players)
    names = [f"Joueur {n}" for n in range(1, players + 1)]
    counts = dealt(game, engine, players)
    least = least_to_start(game, engine, names, counts)
    used: dict[str, list[int]] = defaultdict(list)
    by_step: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for number in range(games):
        deal = dict(counts)
        while True:
            units, steps, exhausted = play(game, engine, names, deal, seed + number)
            if not exhausted:
                break
            for slug in exhausted:  # the deck ran dry first: play it again with more
                deal[slug] *= 2
        for kind in game.kinds:
            floor = least.get(kind.slug, 0)
            if not kind.ladder:
                used[kind.slug].append(max(units.get(kind.slug, 0), floor))
                continue
            # A ladder needs its floor on every step (per step), so its total is theirs.
            on_steps = [max(steps.get(kind.slug, {}).get(step.number, 0), floor)
                        for step in game.ladder]
            for step, value in zip(game.ladder, on_steps, strict=True):
                by_step[kind.slug][step.number].append(value)
            used[kind.slug].append(sum(on_steps))
    kinds = {}
    guessed = guessed_needs(game).kinds
    for kind in game.kinds:
        if not any(used[kind.slug]):
            kinds[kind.slug] = guessed[kind.slug]  # played by no simulated game
            continue
        need = summary(used[kind.slug])
        if kind.ladder:
            need = dataclasses.replace(need, steps={
                n: summary(values) for n, values in by_step[kind.slug].items()})
        kinds[kind.slug] = need
    return Needs(players, kinds, games=games, seconds=time.perf_counter() - began)


def fingerprint(game: GameSpec) -> str:
    """Return what the figures depend on: the game's spec, its engines' code and this one's."""
    sources = [repr(game), inspect.getsource(sys.modules[__name__])]
    for engines in (ENGINES, ROOM_ENGINES):
        if game.slug in engines:
            sources.append(inspect.getsource(sys.modules[type(engines[game.slug]).__module__]))
    sources.append(inspect.getsource(sys.modules[Unit.__module__]))
    return hashlib.sha256("\n".join(sources).encode()).hexdigest()[:16]


def need_of(data: dict) -> Need:
    steps = {int(n): need_of(step) for n, step in data.pop("steps", {}).items()}
    return Need(**data, steps=steps)


def stored(path: Path) -> Needs | None:
    """Return the figures kept in `path`, or None if there are none to trust."""
    try:
        data = json.loads(path.read_text())
        return Needs(players=data["players"], games=data["games"], seconds=data["seconds"],
                     kinds={slug: need_of(need) for slug, need in data["kinds"].items()})
    except (OSError, ValueError, KeyError, TypeError):
        return None


def store(path: Path, needs: Needs) -> None:
    """Keep the figures in `path`, whole or not at all; a read-only disk keeps nothing."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(json.dumps(dataclasses.asdict(needs)))
        os.replace(partial, path)
    except OSError:
        pass


@cache
def _needs(slug: str) -> Needs:
    # The figures depend on the rules alone, not on the library: kept on disk under a key
    # that changes with the spec and the engines' code, they are simulated once, not once
    # per process (a hundred games of the longest game take about two seconds, too long to
    # pay on every process's first save).
    game = GAMES[slug]
    path = Path(settings.COVERAGE_DIR) / (
        f"{slug}-{GAMES_SIMULATED}-{SEED}-{fingerprint(game)}.json")
    needs = stored(path)
    if needs is None:
        needs = simulate(game)
        if needs.games:
            store(path, needs)
    return needs


def full_game_needs(game: GameSpec) -> Needs:
    """Return what a full game of this registry game needs, simulated once per spec."""
    if GAMES.get(game.slug) is not game:
        return simulate(game)  # a spec built elsewhere (a test's): not cached by its slug
    return _needs(game.slug)
