"""Benchmark: Le jeu du Minotaure's flicks, simulated on the server, against bare pymunk.

Run `make bench` or `python bench/minotaure.py [N]` (default 500). Plays N seeded random
flicks (any marble, any direction, 5 % to 100 % strength) with
`player.engines.minotaure_physics.simulate` on
the printed board, each from where the previous one left the marbles (the start again
every 50 flicks, or once the Minotaur or most prisoners are gone; a foul leaves them where
they were). The baseline, timed in the same run flick by flick: pymunk alone, the same space
(walls, marbles, masses) built and stepped as many times, with pymunk's damping instead of
our friction and no rules (no collision callbacks, no room check, no trajectory).

Prints the simulation's p50/p95/max in milliseconds (target: p95 < 50 ms) and its ratio to
the baseline; the pauses of the cyclic garbage collector in each one's turns (every pymunk
shape sits in a reference cycle, so each flick's space is freed by the collector, not at
once: the long pauses land on whichever flick is running); the trajectory's JSON size as the
page receives it; then N flicks played through the engine at a table of ten (both
variants, a new game when one ends): the time of a whole action (`ENGINE.apply`) and the
size of the whole view the page is built from.
"""

import gc
import json
import math
import random
import statistics
import sys
import time

import _throwaway

_throwaway.setup()

import pymunk  # noqa: E402

from cms.games import GAMES  # noqa: E402
from cms.games.labyrinth import standard_labyrinth  # noqa: E402
from player.engines import minotaure_physics as physics  # noqa: E402
from player.engines.base import TABLE  # noqa: E402
from player.engines.minotaure import ENGINE, board_geometry  # noqa: E402

SEED = 1405
ROUND = 50  # flicks simulated, then the same flicks' baseline, in turn
FRESH_EVERY = 50  # flicks from the starting position again, now and then
TARGET_P95_MS = 50.0
WARM_UP = 10
PLAYERS = [f"Joueur {n}" for n in range(1, 11)]


def compact(data) -> int:
    """Return the bytes of `data` as JSON, without spaces, as it goes to the page."""
    return len(json.dumps(data, separators=(",", ":")).encode())


def bare_pymunk(lab, places: dict, flick: physics.Flick, steps: int) -> None:
    """Build the same space as a flick's and step it `steps` times, rules left out."""
    space = pymunk.Space()
    space.iterations = 10
    space.damping = math.exp(-physics.DRAG)  # the share of speed kept after a second
    for wall in lab.segments(physics.WALL_SEGMENT):
        shape = pymunk.Segment(space.static_body, (wall.x1, wall.y1), (wall.x2, wall.y2),
                               lab.wall_thickness / 2)
        shape.elasticity = physics.WALL_ELASTICITY
        space.add(shape)
    for name in sorted(places):
        radius = physics.radius_of(name, lab)
        body = pymunk.Body(mass=radius ** 3 / 512, moment=math.inf)
        body.position = places[name]
        shape = pymunk.Circle(body, radius)
        shape.elasticity = physics.MARBLE_ELASTICITY
        space.add(body, shape)
        if name == flick.marble:
            body.velocity = flick.velocity
    for _ in range(steps):
        space.step(physics.STEP)


def random_flick(rng: random.Random, marbles) -> physics.Flick:
    return physics.Flick(rng.choice(sorted(marbles)), rng.uniform(0, 360),
                         rng.uniform(0.05, 1.0))


def worn_out(places: dict) -> bool:
    prisoners = [m for m in places if m not in (physics.MINOTAUR, physics.THESEE)]
    return physics.MINOTAUR not in places or len(prisoners) < 3


class Collections:
    """The cyclic garbage collector's pauses while `phase` is set, by phase, in ms: each
    flick's space leaves pymunk's shapes in reference cycles, freed only by the collector."""

    def __init__(self):
        self.phase = ""
        self.pauses: dict[str, list[float]] = {}
        self._began = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, event: str, info: dict) -> None:
        if event == "start":
            self._began = time.perf_counter()
        elif self.phase:
            pause = (time.perf_counter() - self._began) * 1000
            self.pauses.setdefault(self.phase, []).append(pause)


def flicks(count: int, collections: Collections) -> dict[str, list]:
    """Simulate `count` flicks and, taking turns with them round by round, their baseline;
    return what was measured. Each one's garbage is collected in its own turn."""
    lab = standard_labyrinth()
    start = physics.starting_places(lab, thesee=True)
    rng = random.Random(SEED)
    measured = {"ms": [], "bare_ms": [], "bytes": [], "steps": [], "fouls": [], "eaten": []}
    places = start
    for _ in range(WARM_UP):
        physics.simulate(start, random_flick(rng, start), lab)
        bare_pymunk(lab, start, random_flick(rng, start), 100)
    played = 0
    while played < count:
        batch = []
        collections.phase = "simulation"
        for _ in range(min(ROUND, count - played)):
            if played % FRESH_EVERY == 0 or worn_out(places):
                places = start
            flick = random_flick(rng, places)
            began = time.perf_counter()
            outcome = physics.simulate(places, flick, lab)
            measured["ms"].append((time.perf_counter() - began) * 1000)
            batch.append((places, flick, outcome.steps))
            measured["bytes"].append(compact(outcome.trajectory()))
            measured["steps"].append(outcome.steps)
            measured["fouls"].append(bool(outcome.foul))
            measured["eaten"].append(len(outcome.eaten))
            if not outcome.foul:
                places = outcome.places
            played += 1
        collections.phase = "baseline"
        for before, flick, steps in batch:
            began = time.perf_counter()
            bare_pymunk(lab, before, flick, steps)
            measured["bare_ms"].append((time.perf_counter() - began) * 1000)
        collections.phase = ""
    return measured


def dealt(seed: int) -> dict:
    state = ENGINE.start(GAMES["minotaure"], {}, PLAYERS, seed,
                         options={"thesee": True, "ariane": True})
    for seat in range(len(PLAYERS)):
        state, _ = ENGINE.apply(state, {"type": "show", "seat": str(seat)})
        state, _ = ENGINE.apply(state, {"type": "hide", "seat": str(seat)})
    return state


def actions(count: int) -> dict[str, list]:
    """Play `count` random flicks through the engine; return each action's time and the
    size of the view after it."""
    rng = random.Random(SEED + 1)
    measured = {"ms": [], "view": [], "games": 1, "eaten": 0}
    state = dealt(SEED)
    for _ in range(count):
        if ENGINE.finished(state):
            state = dealt(SEED + measured["games"])
            measured["games"] += 1
        choices = [c["id"] for c in ENGINE.view(state, TABLE)["choices"]]
        flick = random_flick(rng, choices)
        action = {"type": "flick", "marble": flick.marble, "angle": f"{flick.angle:.1f}",
                  "strength": str(max(1, round(flick.strength * 100))),
                  "move": str(state["move"])}
        began = time.perf_counter()
        state, _ = ENGINE.apply(state, action)
        measured["ms"].append((time.perf_counter() - began) * 1000)
        measured["eaten"] += len(state["last"]["eaten"])
        measured["view"].append(compact(ENGINE.view(state, TABLE)))
    return measured


def spread(values) -> tuple[float, float, float]:
    """Return the p50, p95 and max of some values."""
    # "inclusive": with few values, the p95 stays within them (never above the max).
    p95 = statistics.quantiles(values, n=20, method="inclusive")[-1]
    return statistics.median(values), p95, max(values)


def describe(name: str, values, unit: str, digits: int = 1) -> None:
    p50, p95, top = spread(values)
    print(f"{name:<28} p50 {p50:8.{digits}f} {unit:<3} p95 {p95:8.{digits}f} {unit:<3} "
          f"max {top:8.{digits}f} {unit}")


def main(count: int) -> None:
    collections = Collections()
    measured = flicks(count, collections)
    fouls = sum(measured["fouls"])
    print(f"Minotaure: {count} random flicks on the printed board (seed {SEED}), "
          f"{fouls} fouls, {sum(measured['eaten'])} prisoners eaten")
    describe("simulation", measured["ms"], "ms", 2)
    describe("bare pymunk, same steps", measured["bare_ms"], "ms", 2)
    describe("steps simulated (1/240 s)", measured["steps"], "", 0)
    ratio = sum(measured["ms"]) / sum(measured["bare_ms"])
    print(f"ratio {ratio:.2f}× bare pymunk's time for the same steps (what the rules, the "
          f"friction and the trajectory cost on top of the physics)")
    p95 = spread(measured["ms"])[1]
    print(f"p95 {p95:.1f} ms (target < {TARGET_P95_MS:.0f} ms): "
          f"{'met' if p95 < TARGET_P95_MS else 'NOT met'}")
    for phase, pauses in sorted(collections.pauses.items(), reverse=True):
        print(f"{'GC pauses, ' + phase:<28} {sum(pauses):8.0f} ms in all, "
              f"{len(pauses)} collections, the longest {max(pauses):.1f} ms")
    describe("trajectory JSON", measured["bytes"], "B", 0)
    played = actions(count)
    print(f"Through the engine: {count} flicks at a table of {len(PLAYERS)}, both variants, "
          f"{played['games']} game(s), {played['eaten']} prisoners eaten")
    describe("whole action (apply)", played["ms"], "ms", 2)
    describe("view JSON", played["view"], "B", 0)
    print(f"{'of which the board':<28} {compact(board_geometry()):8d} B, the same in every view")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500)
