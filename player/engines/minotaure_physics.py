"""Le jeu du Minotaure's flicks, simulated with pymunk on the board that printing draws.

Millimetres and seconds, the board's centre at (0, 0), as in `cms.games.labyrinth`: the
walls are that module's segments (arcs flattened), thick as the printed walls. A flick gives
one marble a speed in a direction; marbles roll with friction (a constant rolling
resistance and a little air drag), bounce off the walls and off one another, and stop.

What the rules need from a flick is recorded as it happens:
- a prisoner touching the Minotaur is eaten, and taken off the board at once;
- the Minotaur inside the central room eats every prisoner in the room;
- Thésée touching the Minotaur slays it;
- a marble reaching a wall faster than `JUMP_SPEED` (head on), or found off the board, has
  jumped a wall: the flick is a foul, and the simulation stops there.

The simulation is a pure function of the marbles' places and the flick: a fresh space, the
bodies added in one order, a fixed time step. The same state and flick give the same result.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache

import pymunk

from cms.games.labyrinth import Labyrinth, Point, standard_labyrinth

MINOTAUR = "minotaure"
THESEE = "thesee"

STEP = 1 / 240  # seconds: a marble at the top speed moves 6 mm a step, under its radius
FRAME_STEPS = 8  # a frame of the trajectory every 8 steps: 30 frames a second
MAX_SECONDS = 15.0  # no flick rolls longer (air drag stops the fastest in about 8 s)
TOP_SPEED = 1500.0  # mm/s: a flick at full strength
JUMP_SPEED = 1100.0  # mm/s into a wall, head on: a real marble would hop over it
ROLLING = 250.0  # mm/s², the rolling resistance's deceleration
DRAG = 0.5  # per second: the share of its speed a marble loses to drag, besides rolling
STOPPED = 4.0  # mm/s: slower than this, a marble has stopped
WALL_ELASTICITY = 0.6  # marble on cardboard: loses about two thirds of its energy head on
MARBLE_ELASTICITY = 0.95  # glass on glass
WALL_SEGMENT = 8.0  # mm: arcs are flattened in pieces no longer than this for the physics
THESEE_DIAMETER = 16.0  # Thésée is a marble like the prisoners
COORDINATE_SCALE = 10  # trajectory coordinates are sent in tenths of a millimetre

# Collision types.
WALL, PRISONER, MINOTAUR_TYPE, THESEE_TYPE = 1, 2, 3, 4


@dataclass(frozen=True)
class Flick:
    """One marble sent off: `angle` in degrees counter-clockwise from the x axis, `strength`
    from 0 to 1 of the top speed."""

    marble: str
    angle: float
    strength: float

    @property
    def velocity(self) -> tuple[float, float]:
        speed = TOP_SPEED * min(1.0, max(0.0, self.strength))
        theta = math.radians(self.angle)
        return speed * math.cos(theta), speed * math.sin(theta)


@dataclass
class Outcome:
    """What a flick did. `places` is where every marble left on the board stands after it
    (the places before it, when it was a foul)."""

    places: dict[str, tuple[float, float]]
    eaten: list[str] = field(default_factory=list)  # prisoners eaten, in order
    thesee_won: bool = False  # Thésée touched the Minotaur
    foul: str | None = None  # the marble that jumped a wall
    # For the page: each moving marble's track and what happened at which frame.
    tracks: dict[str, dict] = field(default_factory=dict)
    events: list[dict] = field(default_factory=list)
    frames: int = 0
    steps: int = 0

    def trajectory(self) -> dict:
        """Return what the page animates: JSON-ready and small (see `record`)."""
        return {"fps": round(1 / (STEP * FRAME_STEPS)), "frames": self.frames,
                "scale": COORDINATE_SCALE, "tracks": self.tracks, "events": self.events}


def radius_of(marble: str, lab: Labyrinth) -> float:
    if marble == MINOTAUR:
        return lab.minotaur_diameter / 2
    if marble == THESEE:
        return THESEE_DIAMETER / 2
    return lab.marble_diameter / 2


def thesee_start(lab: Labyrinth) -> Point:
    """Return where Thésée starts: in the central room beside the prisoners, as near the
    centre as the room allows, on the board's own geometry (the same for every game)."""
    taken = [(s.x, s.y) for s in lab.prisoner_starts]
    radius = THESEE_DIAMETER / 2
    clear = (lab.marble_diameter + THESEE_DIAMETER) / 2 + 0.5
    best: Point | None = None
    steps = 72
    r = 0.0
    while r + radius <= lab.room_inner_radius - 0.5:
        for i in range(steps if r else 1):
            angle = 90 + 360 * i / steps
            x, y = r * math.cos(math.radians(angle)), r * math.sin(math.radians(angle))
            if all(math.hypot(x - a, y - b) >= clear for a, b in taken):
                best = Point(round(x, 3), round(y, 3))
                break
        if best is not None:
            return best
        r += 0.5
    raise ValueError("no room for Thésée in the central room")


def starting_places(lab: Labyrinth, *, thesee: bool) -> dict[str, tuple[float, float]]:
    """Return every marble's starting place: the prisoners by colour, the Minotaur, Thésée."""
    places = {s.colour: (s.x, s.y) for s in lab.prisoner_starts}
    places[MINOTAUR] = (lab.minotaur_start.x, lab.minotaur_start.y)
    if thesee:
        point = thesee_start(lab)
        places[THESEE] = (point.x, point.y)
    return places


@cache
def _wall_segments(lab: Labyrinth) -> tuple[tuple[tuple[float, float], tuple[float, float]], ...]:
    return tuple(((s.x1, s.y1), (s.x2, s.y2)) for s in lab.segments(WALL_SEGMENT))


class _Run:
    """One flick's simulation: the space, the bodies and what the callbacks saw."""

    def __init__(self, lab: Labyrinth, places: dict[str, tuple[float, float]]):
        self.lab = lab
        self.space = space = pymunk.Space()
        space.iterations = 10
        walls = space.static_body
        for a, b in _wall_segments(lab):
            shape = pymunk.Segment(walls, a, b, lab.wall_thickness / 2)
            shape.elasticity = WALL_ELASTICITY
            shape.collision_type = WALL
            space.add(shape)
        self.bodies: dict[str, pymunk.Body] = {}
        self.names: dict[pymunk.Body, str] = {}
        for name in sorted(places):  # one order, whatever the state's
            radius = radius_of(name, lab)
            body = pymunk.Body(mass=radius ** 3 / 512, moment=math.inf)  # a prisoner: 1
            body.position = places[name]
            ball = pymunk.Circle(body, radius)
            ball.elasticity = MARBLE_ELASTICITY
            ball.collision_type = {MINOTAUR: MINOTAUR_TYPE, THESEE: THESEE_TYPE}.get(
                name, PRISONER)
            space.add(body, ball)
            self.bodies[name] = body
            self.names[body] = name
        self.eaten: list[str] = []
        self.thesee_won = False
        self.foul: str | None = None
        self.step = 0
        space.on_collision(PRISONER, MINOTAUR_TYPE, begin=self._prisoner_meets_minotaur)
        space.on_collision(THESEE_TYPE, MINOTAUR_TYPE, begin=self._thesee_meets_minotaur)
        for kind in (PRISONER, MINOTAUR_TYPE, THESEE_TYPE):
            space.on_collision(kind, WALL, pre_solve=self._marble_meets_wall)

    def _prisoner_meets_minotaur(self, arbiter: pymunk.Arbiter, space, data) -> None:
        prisoner = self.names[arbiter.bodies[0]]
        if prisoner not in self.eaten:
            self.eaten.append(prisoner)

    def _thesee_meets_minotaur(self, arbiter: pymunk.Arbiter, space, data) -> None:
        self.thesee_won = True

    def _marble_meets_wall(self, arbiter: pymunk.Arbiter, space, data) -> None:
        if not arbiter.is_first_contact or self.foul:
            return
        body = arbiter.bodies[0]
        # The normal points from the marble to the wall: the speed it hits the wall with.
        if body.velocity.dot(arbiter.normal) > JUMP_SPEED:
            self.foul = self.names[body]


def simulate(places: dict[str, tuple[float, float]], flick: Flick,
             lab: Labyrinth | None = None) -> Outcome:
    """Simulate `flick` from these places until every marble stops; see the module's doc."""
    lab = lab or standard_labyrinth()
    if flick.marble not in places:
        raise ValueError(f"no marble {flick.marble!r} on the board")
    run = _Run(lab, places)
    run.bodies[flick.marble].velocity = flick.velocity
    record = _Recorder(run)
    room = lab.room_inner_radius
    off_board = lab.outer_radius
    max_steps = round(MAX_SECONDS / STEP)
    rolling, drag = ROLLING * STEP, 1 - DRAG * STEP
    moving = {flick.marble}
    while run.step < max_steps:
        # Counted before the step: its collisions may eat prisoners too (see _Run).
        eaten_before = len(run.eaten)
        run.space.step(STEP)
        run.step += 1
        # The Minotaur in the central room eats every prisoner there.
        minotaur = run.bodies.get(MINOTAUR)
        if minotaur is not None and minotaur.position.length < room:
            for name, body in run.bodies.items():
                if (name not in (MINOTAUR, THESEE) and name not in run.eaten
                        and body.position.length < room):
                    run.eaten.append(name)
        for name, body in run.bodies.items():
            if body.position.length > off_board:
                run.foul = run.foul or name
        if run.foul:
            record.event("foul", run.foul)
            break
        for name in run.eaten[eaten_before:]:
            record.keep(name)
            record.event("eaten", name)
            run.space.remove(run.bodies[name], *run.bodies[name].shapes)
            del run.bodies[name]
            moving.discard(name)
        if run.thesee_won and minotaur is not None:
            record.keep(MINOTAUR)
            record.event("slain", MINOTAUR)
            run.space.remove(minotaur, *minotaur.shapes)
            del run.bodies[MINOTAUR]
            moving.discard(MINOTAUR)
        # Friction, on the marbles in motion only: most of the board stands still.
        still = True
        for name, body in run.bodies.items():
            vx, vy = body.velocity
            if vx == 0.0 and vy == 0.0:
                continue
            speed = math.hypot(vx, vy)
            moving.add(name)
            if speed < STOPPED or speed <= rolling:
                body.velocity = (0.0, 0.0)
                continue
            still = False
            slower = (speed - rolling) / speed * drag
            body.velocity = (vx * slower, vy * slower)
        if run.step % FRAME_STEPS == 0 or still:
            record.frame(moving)
        if still:
            break
    if run.foul:
        record.frame(moving)
        return Outcome(places=dict(places), foul=run.foul, tracks=record.tracks,
                       events=record.events, frames=record.count, steps=run.step)
    final = {name: (round(body.position.x, 3), round(body.position.y, 3))
             for name, body in run.bodies.items()}
    return Outcome(places=final, eaten=list(run.eaten), thesee_won=run.thesee_won,
                   tracks=record.tracks, events=record.events, frames=record.count,
                   steps=run.step)


class _Recorder:
    """The trajectory, as the page animates it: for each marble that moved, the frame it
    started moving at and its places from then on, in tenths of a millimetre; the marbles
    that did not move are not in it."""

    def __init__(self, run: _Run):
        self.run = run
        self.tracks: dict[str, dict] = {}
        self.events: list[dict] = []
        self.count = 1  # frame 0: every marble where it was
        self.start = {name: _scaled(body.position) for name, body in run.bodies.items()}

    def frame(self, moving: set[str]) -> None:
        index = self.count  # frame `index` is recorded now
        self.count += 1
        for name in sorted(moving):
            body = self.run.bodies.get(name)
            if body is not None:
                self._track(name, index)["xy"].extend(_scaled(body.position))

    def keep(self, marble: str) -> None:
        """Give a marble about to leave the board a track, moved or not: the page shows it
        until the frame it leaves at (`event`'s, the next one recorded)."""
        track = self._track(marble, self.count)
        if len(track["xy"]) == 2:  # it never moved: where it stands, until it leaves
            track["xy"].extend(_scaled(self.run.bodies[marble].position))

    def _track(self, name: str, first: int) -> dict:
        """Return a marble's track, begun if need be: at its start on the frame before
        `first`, the first frame it is seen moving at."""
        track = self.tracks.get(name)
        if track is None:
            track = self.tracks[name] = {"from": first - 1, "xy": list(self.start[name])}
        return track

    def event(self, kind: str, marble: str) -> None:
        self.events.append({"frame": self.count, "type": kind, "marble": marble})


def _scaled(position) -> tuple[int, int]:
    return round(position.x * COORDINATE_SCALE), round(position.y * COORDINATE_SCALE)
