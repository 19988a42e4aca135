"""The circular labyrinth of Le jeu du Minotaure, as data: one geometry for print and play.

Millimetres, the board's centre at (0, 0), angles in degrees counter-clockwise from the
positive x axis. Walls are centre lines `wall_thickness` thick: concentric ring walls
(the first closes the central room, the last is the outer circle) broken by openings,
and radial walls across the corridors between them. The printer draws them; the web
player's physics builds its static bodies from `walls()` or `segments()`.

A `Labyrinth` checks itself when built (every passage lets the widest marble through,
every wall stays on the board, every corridor can be reached from the central room) and
raises SpecError otherwise, so its users trust it.
"""

from __future__ import annotations

import math
import random
from collections import deque
from dataclasses import dataclass
from functools import cache
from itertools import pairwise

from .minotaure import COLOURS, RULES
from .spec import SpecError

SEED = 1405  # the board every maker prints and every game plays on
BOARD_RADIUS = 250.0  # a board of about 50 cm across
RIM = 10.0  # board left outside the outer circle
ROOM_RADIUS = 48.0  # centre line of the central room's wall
CORRIDORS = 5
WALL_THICKNESS = 4.0
MARBLE_DIAMETER = 16.0  # the ten prisoners: ordinary marbles
MINOTAUR_DIAMETER = 22.0  # the Minotaur: a calot, bigger than the prisoners
PASSAGE_FACTOR = 1.5  # every passage is this many times the widest marble, to flick through
OPENING_WIDTH = 36.0  # clear width of a doorway between two walls' ends
# From the room outwards: doorways in each ring wall (the outer circle has none) …
OPENINGS = (2, 2, 3, 3, 4)
# … and radial walls across each corridor.
RADIALS = (1, 2, 2, 3, 4)
STAGGER = 25.0  # degrees between doorways of neighbouring rings: no straight run to the room
SHORTEST_WALL = MARBLE_DIAMETER  # a piece of ring wall between two doorways is no shorter
MAX_ATTEMPTS = 2000


@dataclass(frozen=True)
class Point:
    x: float
    y: float

    @property
    def radius(self) -> float:
        return math.hypot(self.x, self.y)

    @property
    def angle(self) -> float:
        return math.degrees(math.atan2(self.y, self.x)) % 360


@dataclass(frozen=True)
class Arc:
    """A piece of ring wall: from `start` to `end` degrees counter-clockwise (end > start)."""

    cx: float
    cy: float
    radius: float
    start: float
    end: float

    @property
    def sweep(self) -> float:
        return self.end - self.start

    def point_at(self, angle: float) -> Point:
        return polar(self.radius, angle, self.cx, self.cy)


@dataclass(frozen=True)
class Segment:
    """A straight wall from (x1, y1) to (x2, y2)."""

    x1: float
    y1: float
    x2: float
    y2: float


Wall = Arc | Segment


@dataclass(frozen=True)
class Opening:
    """A doorway in a ring wall: the angles where the wall stops and starts again."""

    start: float  # in [0, 360)
    end: float  # start < end < start + 360

    @property
    def centre(self) -> float:
        return ((self.start + self.end) / 2) % 360

    @property
    def sweep(self) -> float:
        return self.end - self.start

    def covers(self, angle: float) -> bool:
        return (angle - self.start) % 360 < self.sweep


@dataclass(frozen=True)
class Ring:
    """A circular wall around the centre, broken by its openings (sorted by start)."""

    radius: float
    openings: tuple[Opening, ...] = ()

    def arcs(self) -> tuple[Arc, ...]:
        """Return the pieces of wall between the openings."""
        if not self.openings:
            return (Arc(0.0, 0.0, self.radius, 0.0, 360.0),)
        pieces = []
        for here, after in zip(self.openings, (*self.openings[1:], self.openings[0]),
                               strict=True):
            start = here.end % 360
            pieces.append(Arc(0.0, 0.0, self.radius, start,
                              start + (after.start - here.end) % 360))
        return tuple(pieces)


@dataclass(frozen=True)
class Radial:
    """A straight wall across one corridor, from its inner ring to its outer ring."""

    angle: float
    inner: float
    outer: float

    @property
    def segment(self) -> Segment:
        a, b = polar(self.inner, self.angle), polar(self.outer, self.angle)
        return Segment(a.x, a.y, b.x, b.y)


@dataclass(frozen=True)
class Start:
    """Where one prisoner marble starts, by its colour's French name."""

    colour: str
    x: float
    y: float


@dataclass(frozen=True)
class Labyrinth:
    """The whole board: its walls, the marbles' starting places and the marbles it is for."""

    board_radius: float
    wall_thickness: float
    marble_diameter: float
    minotaur_diameter: float
    rings: tuple[Ring, ...]  # rings[0] is the central room's wall, rings[-1] the outer circle
    radials: tuple[Radial, ...]
    prisoner_starts: tuple[Start, ...]
    minotaur_start: Point
    seed: int | None = None

    def __post_init__(self):
        problems = _problems(self)
        if problems:
            raise SpecError("labyrinth: " + "; ".join(problems))

    # --- what the board is made of -------------------------------------------------------

    @property
    def room_radius(self) -> float:
        """Return the centre line of the central room's wall."""
        return self.rings[0].radius

    @property
    def room_inner_radius(self) -> float:
        """Return how far from the centre a marble is inside the central room."""
        return self.room_radius - self.wall_thickness / 2

    @property
    def doorways(self) -> tuple[Opening, ...]:
        return self.rings[0].openings

    @property
    def outer_radius(self) -> float:
        return self.rings[-1].radius

    @property
    def passage_min(self) -> float:
        """Return the narrowest clear width any passage may have."""
        return PASSAGE_FACTOR * max(self.marble_diameter, self.minotaur_diameter)

    @property
    def corridors(self) -> tuple[tuple[float, float], ...]:
        """Return each corridor's (inner, outer) ring radii, from the room outwards."""
        return tuple((a.radius, b.radius) for a, b in zip(self.rings, self.rings[1:],
                                                            strict=False))

    def radials_of(self, corridor: int) -> tuple[Radial, ...]:
        inner, _outer = self.corridors[corridor]
        return tuple(sorted((r for r in self.radials if r.inner == inner),
                            key=lambda r: r.angle))

    @property
    def intersections(self) -> tuple[Point, ...]:
        """Return where radial walls meet the outer circle, counter-clockwise from 0°."""
        return tuple(polar(self.outer_radius, r.angle)
                     for r in self.radials_of(len(self.corridors) - 1))

    def walls(self) -> list[Wall]:
        """Return every wall: the rings' arcs from the room outwards, then the radials."""
        arcs: list[Wall] = [arc for ring in self.rings for arc in ring.arcs()]
        return arcs + [radial.segment for radial in self.radials]

    def segments(self, step_mm: float = 5.0) -> list[Segment]:
        """Return every wall as straight segments, arcs flattened every `step_mm` or less."""
        flat: list[Segment] = []
        for wall in self.walls():
            if isinstance(wall, Segment):
                flat.append(wall)
                continue
            points = arc_points(wall, step_mm)
            flat.extend(Segment(a.x, a.y, b.x, b.y) for a, b in pairwise(points))
        return flat

    def in_room(self, x: float, y: float) -> bool:
        """Tell whether a marble centred on (x, y) is inside the central room."""
        return math.hypot(x, y) < self.room_inner_radius


# --- helpers for the printer and the physics ------------------------------------------------


def polar(radius: float, angle: float, cx: float = 0.0, cy: float = 0.0) -> Point:
    theta = math.radians(angle)
    return Point(cx + radius * math.cos(theta), cy + radius * math.sin(theta))


def arc_points(arc: Arc, step_mm: float = 5.0) -> tuple[Point, ...]:
    """Return points along an arc, no more than `step_mm` apart, both ends included."""
    if step_mm <= 0:
        raise ValueError("step_mm must be positive")
    length = math.radians(arc.sweep) * arc.radius
    pieces = max(1, math.ceil(length / step_mm))
    return tuple(arc.point_at(arc.start + arc.sweep * i / pieces) for i in range(pieces + 1))


def chord(radius: float, degrees: float) -> float:
    """Return the straight distance between two points of a circle `degrees` apart."""
    return 2 * radius * math.sin(math.radians(min(abs(degrees), 360.0)) / 2)


def angular_distance(a: float, b: float) -> float:
    """Return the smaller angle between two directions, in degrees."""
    d = (a - b) % 360
    return min(d, 360 - d)


def sweep_for(width: float, radius: float, thickness: float) -> float:
    """Return the opening, in degrees, that leaves `width` mm clear between two wall ends."""
    ratio = (width + thickness) / (2 * radius)
    if ratio >= 1:
        raise SpecError(f"labyrinth: a doorway of {width:g} mm does not fit a ring of "
                        f"{radius:g} mm")
    return math.degrees(2 * math.asin(ratio))


# --- checks, shared by the generator and the built labyrinth -------------------------------


def _opening_problems(ring: Ring, thickness: float, passage: float) -> list[str]:
    problems = []
    for opening in ring.openings:
        if chord(ring.radius, opening.sweep) - thickness < passage - 1e-6:
            problems.append(f"a doorway of ring {ring.radius:g} is narrower than {passage:g} mm")
    if not ring.openings:
        return problems
    # Overlapping doorways show as wall pieces that wrap the whole way round.
    total = sum(o.sweep for o in ring.openings) + sum(a.sweep for a in ring.arcs())
    if abs(total - 360) > 1e-6 or any(
            math.radians(arc.sweep) * ring.radius < SHORTEST_WALL - 1e-6 for arc in ring.arcs()):
        problems.append(f"doorways of ring {ring.radius:g} overlap or nearly touch")
    return problems


def _radial_clearance(angle: float, ring: Ring, thickness: float) -> float:
    """Return the clear width between a radial wall ending on `ring` and its nearest doorway."""
    clearance = math.inf
    for opening in ring.openings:
        if opening.covers(angle):
            return -math.inf
        nearest = min(angular_distance(angle, opening.start),
                      angular_distance(angle, opening.end))
        clearance = min(clearance, chord(ring.radius, nearest) - thickness)
    return clearance


def _radial_fits(angle: float, inner: Ring, outer: Ring, others: list[float],
                 thickness: float, passage: float) -> bool:
    if _radial_clearance(angle, inner, thickness) < passage:
        return False
    if _radial_clearance(angle, outer, thickness) < passage:
        return False
    return all(chord(inner.radius, angular_distance(angle, other)) - thickness >= passage
               for other in others)


def _compartment(angle: float, walls: list[float]) -> int:
    """Return which part of a corridor cut by radial walls at `walls` (sorted) holds `angle`."""
    if len(walls) < 2:
        return 0
    for i, start in enumerate(walls):
        end = walls[(i + 1) % len(walls)]
        if (angle - start) % 360 < (end - start) % 360:
            return i
    return 0


def _unreachable(rings: tuple[Ring, ...], radials: tuple[Radial, ...]) -> list[tuple]:
    """Return the corridor compartments a marble cannot reach from the central room."""
    cuts = [sorted(r.angle for r in radials if r.inner == inner.radius) for inner in rings[:-1]]
    nodes = {("room",)} | {(c, i) for c, walls in enumerate(cuts)
                           for i in range(max(1, len(walls)))}
    links: dict[tuple, set[tuple]] = {node: set() for node in nodes}
    for wall, ring in enumerate(rings[:-1]):
        for opening in ring.openings:
            below = ("room",) if wall == 0 else (wall - 1,
                                                 _compartment(opening.centre, cuts[wall - 1]))
            above = (wall, _compartment(opening.centre, cuts[wall]))
            links[below].add(above)
            links[above].add(below)
    seen = {("room",)}
    queue = deque(seen)
    while queue:
        for neighbour in links[queue.popleft()] - seen:
            seen.add(neighbour)
            queue.append(neighbour)
    return sorted(nodes - seen)


def _problems(lab: Labyrinth) -> list[str]:
    """Return what makes a labyrinth unplayable or unprintable, in plain words."""
    problems = []
    t = lab.wall_thickness
    if min(lab.board_radius, t, lab.marble_diameter, lab.minotaur_diameter) <= 0:
        return ["sizes must be positive"]
    if len(lab.rings) < 2:
        return ["a labyrinth needs a central room and an outer circle"]
    radii = [ring.radius for ring in lab.rings]
    if radii != sorted(set(radii)):
        return ["rings must grow outwards"]
    passage = lab.passage_min
    if not lab.doorways:
        problems.append("the central room has no doorway")
    if lab.rings[-1].openings:
        problems.append("the outer circle is closed: marbles stay on the board")
    if lab.outer_radius + t / 2 > lab.board_radius + 1e-6:
        problems.append("the outer circle runs off the board")
    if lab.room_inner_radius - t / 2 < passage:
        problems.append("the central room is too small to enter")
    for inner, outer in lab.corridors:
        if outer - inner - t < passage - 1e-6:
            problems.append(f"the corridor at {inner:g} mm is narrower than {passage:g} mm")
    for ring in lab.rings:
        problems.extend(_opening_problems(ring, t, passage))
    problems.extend(_radial_problems(lab, passage))
    problems.extend(_start_problems(lab))
    unreachable = _unreachable(lab.rings, lab.radials)
    if unreachable:
        problems.append(f"{len(unreachable)} part(s) of the corridors cannot be reached")
    return problems


def _radial_problems(lab: Labyrinth, passage: float) -> list[str]:
    problems = []
    by_radius = {ring.radius: ring for ring in lab.rings}
    corridors = set(lab.corridors)
    for radial in lab.radials:
        if (radial.inner, radial.outer) not in corridors:
            problems.append(f"the radial wall at {radial.angle:.1f}° does not span a corridor")
            continue
        others = [r.angle for r in lab.radials if r.inner == radial.inner and r != radial]
        if not _radial_fits(radial.angle, by_radius[radial.inner], by_radius[radial.outer],
                            others, lab.wall_thickness, passage):
            problems.append(f"the radial wall at {radial.angle:.1f}° narrows a passage")
    if len(lab.intersections) < 2:
        problems.append("the outer circle needs two intersections around the Minotaur")
    return problems


def _start_problems(lab: Labyrinth) -> list[str]:
    problems = []
    marble = lab.marble_diameter / 2
    for start in lab.prisoner_starts:
        if math.hypot(start.x, start.y) + marble > lab.room_inner_radius + 1e-6:
            problems.append(f"the {start.colour} prisoner starts outside the central room")
    for i, a in enumerate(lab.prisoner_starts):
        for b in lab.prisoner_starts[i + 1:]:
            if math.hypot(a.x - b.x, a.y - b.y) < lab.marble_diameter - 1e-6:
                problems.append(f"the {a.colour} and {b.colour} prisoners overlap")
    inner, outer = lab.corridors[-1]
    minotaur = lab.minotaur_start
    half = lab.minotaur_diameter / 2 + lab.wall_thickness / 2
    if not inner + half <= minotaur.radius <= outer - half:
        problems.append("the Minotaur does not start in the outer corridor")
    for point in lab.intersections:
        if angular_distance(point.angle, minotaur.angle) * math.pi / 180 * minotaur.radius < half:
            problems.append("the Minotaur starts against a radial wall")
    return problems


# --- building the board ---------------------------------------------------------------------


def prisoner_places(count: int, marble: float, spacing: float = 1.15) -> list[Point]:
    """Return `count` marble places packed around the centre: a small ring inside a larger."""
    pitch = marble * spacing
    if count <= 6:
        inner_count, outer_count = 0, count
    else:
        inner_count = count // 3
        outer_count = count - inner_count
    places = []
    inner = pitch / (2 * math.sin(math.pi / inner_count)) if inner_count > 1 else 0.0
    for i in range(inner_count):
        places.append(polar(inner, 90 + i * 360 / inner_count))
    outer = pitch / (2 * math.sin(math.pi / outer_count)) if outer_count > 1 else 0.0
    if inner_count:
        outer = max(outer, inner + pitch)
    for i in range(outer_count):
        places.append(polar(outer, 90 + (i + 0.5) * 360 / outer_count))
    return places


def _sample_openings(rng: random.Random, ring_radius: float, count: int, width: float,
                     thickness: float, below: Ring | None) -> Ring | None:
    """Return a ring wall with `count` doorways spread round it, or None if they collide."""
    sweep = sweep_for(width, ring_radius, thickness)
    turn = rng.uniform(0, 360)
    spacing = 360 / count
    centres = sorted((turn + i * spacing + rng.uniform(-0.2, 0.2) * spacing) % 360
                     for i in range(count))
    starts = sorted(round((c - sweep / 2) % 360, 3) for c in centres)
    ring = Ring(ring_radius, tuple(Opening(start, round(start + sweep, 3)) for start in starts))
    if _opening_problems(ring, thickness, 0.0):
        return None
    if below is not None and any(angular_distance(a.centre, b.centre) < STAGGER
                                 for a in ring.openings for b in below.openings):
        return None
    return ring


def _sample_radials(rng: random.Random, inner: Ring, outer: Ring, count: int,
                    thickness: float, passage: float) -> tuple[Radial, ...] | None:
    angles: list[float] = []
    for _ in range(count * 60):
        if len(angles) == count:
            break
        angle = round(rng.uniform(0, 360), 3)
        if _radial_fits(angle, inner, outer, angles, thickness, passage):
            angles.append(angle)
    if len(angles) < count:
        return None
    return tuple(Radial(a, inner.radius, outer.radius) for a in sorted(angles))


def _minotaur_place(rings: tuple[Ring, ...], radials: tuple[Radial, ...]) -> Point:
    """Return the middle of the longest stretch of outer corridor between two intersections."""
    inner, outer = rings[-2].radius, rings[-1].radius
    angles = sorted(r.angle for r in radials if r.inner == inner)
    stretches = [((after - here) % 360 or 360, here) for here, after
                 in zip(angles, (*angles[1:], angles[0]), strict=True)]
    length, start = max(stretches)
    return polar((inner + outer) / 2, (start + length / 2) % 360)


def build_labyrinth(seed: int = SEED, *, board_radius: float = BOARD_RADIUS,
                    rim: float = RIM, room_radius: float = ROOM_RADIUS,
                    openings: tuple[int, ...] = OPENINGS, radials: tuple[int, ...] = RADIALS,
                    wall_thickness: float = WALL_THICKNESS,
                    marble_diameter: float = MARBLE_DIAMETER,
                    minotaur_diameter: float = MINOTAUR_DIAMETER,
                    opening_width: float = OPENING_WIDTH,
                    colours: tuple[str, ...] | None = None) -> Labyrinth:
    """Build the labyrinth these parameters and this seed describe, the same every time."""
    if colours is None:
        colours = tuple(COLOURS)[:RULES.prisoners]
    if len(openings) != len(radials) or not openings:
        raise SpecError("labyrinth: one count of doorways and of radial walls per corridor")
    outer_radius = board_radius - rim
    spacing = (outer_radius - room_radius) / len(radials)
    radii = [room_radius + i * spacing for i in range(len(radials) + 1)]
    passage = PASSAGE_FACTOR * max(marble_diameter, minotaur_diameter)
    if spacing - wall_thickness < passage or opening_width < passage:
        raise SpecError(f"labyrinth: passages of {spacing - wall_thickness:g} mm are too "
                        f"narrow for marbles of {max(marble_diameter, minotaur_diameter):g} mm")
    places = prisoner_places(len(colours), marble_diameter)
    starts = tuple(Start(colour, round(p.x, 3), round(p.y, 3))
                   for colour, p in zip(colours, places, strict=True))
    rng = random.Random(seed)
    for _ in range(MAX_ATTEMPTS):
        rings = _sample_rings(rng, radii, openings, opening_width, wall_thickness)
        if rings is None:
            continue
        walls = _sample_all_radials(rng, rings, radials, wall_thickness, passage)
        if walls is None or _unreachable(rings, walls):
            continue
        minotaur = _minotaur_place(rings, walls)
        return Labyrinth(board_radius=board_radius, wall_thickness=wall_thickness,
                         marble_diameter=marble_diameter, minotaur_diameter=minotaur_diameter,
                         rings=rings, radials=walls, prisoner_starts=starts,
                         minotaur_start=Point(round(minotaur.x, 3), round(minotaur.y, 3)),
                         seed=seed)
    raise SpecError(f"labyrinth: no playable layout after {MAX_ATTEMPTS} attempts")


def _sample_rings(rng, radii, openings, width, thickness) -> tuple[Ring, ...] | None:
    rings: list[Ring] = []
    for radius, count in zip(radii, openings, strict=False):
        for _ in range(50):
            ring = _sample_openings(rng, radius, count, width, thickness,
                                    rings[-1] if rings else None)
            if ring is not None:
                rings.append(ring)
                break
        else:
            return None
    rings.append(Ring(radii[-1]))
    return tuple(rings)


def _sample_all_radials(rng, rings, counts, thickness, passage) -> tuple[Radial, ...] | None:
    walls: list[Radial] = []
    for inner, outer, count in zip(rings, rings[1:], counts, strict=False):
        corridor = _sample_radials(rng, inner, outer, count, thickness, passage)
        if corridor is None:
            return None
        walls.extend(corridor)
    return tuple(walls)


@cache
def standard_labyrinth() -> Labyrinth:
    """Return the game's board: the one the printer draws and the web player plays on."""
    return build_labyrinth()
