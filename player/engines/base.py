"""What every engine shares: the content it plays, refusals, events and a seeded dice.

An engine is pure: no HTTP, no ORM, no clock. It receives frozen content (`Unit`s of
`Item`s, already drawn in order by player.content), a list of player names and a seed;
its state is a JSON-ready dict the server keeps; every action is a dict whose values may
come straight from a hostile form (strings), so an engine checks each one it reads and
raises `Refused` — the state it was given is never modified.

The server adds to every action the key "now" (seconds, server clock); a client never
sets it. `deadline(state)` tells the server when a clock runs out: past it, the server
applies {"type": "timeout", "now": …} before anything else.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.utils.functional import Promise
from django.utils.translation import gettext as _

State = dict[str, Any]
Event = dict[str, Any]
TABLE = None  # the seat of the shared screen: sees what every player at the table may see

# Event types the server acts on (engines may emit others, for the page).
ANSWERED = "answered"  # {"question": id, "seat": n, "right": bool, "mode": str,
#                         "seconds": float | None, "given": str}: recorded for statistics
OVERRIDDEN = "overridden"  # {"question": id, "seat": n}: the table accepted a refused answer
SHOWN = "shown"  # {"question": id}: content shown with no answer to record (an étoile)


@dataclass(frozen=True)
class Choice:
    """A proposition as play reads it."""

    text: str
    right: bool
    hidden: bool = False


@dataclass(frozen=True)
class Item:
    """A question as play reads it: everything, answers included (never sent as such)."""

    id: int  # the Question's pk: answers are recorded against it
    text: str
    difficulty: int
    theme: str = ""
    step: int | None = None
    choices: tuple[Choice, ...] = ()
    answer: str = ""
    variants: tuple[str, ...] = ()
    anecdote: str = ""
    has_image: bool = False
    seen: bool = False  # this browser has been shown it: ask it only if nothing fresher


@dataclass(frozen=True)
class Unit:
    """What is drawn as one: a card or fiche with its questions, or a question alone."""

    id: int  # the Card's pk, or the Question's for a standalone question
    kind: str
    title: str = ""
    colour: str = ""
    pair: int | None = None  # the other card of a duel pair
    items: tuple[Item, ...] = ()


Content = dict[str, tuple[Unit, ...]]  # by kind slug, in the order to draw them


def pack(unit: Unit) -> dict:
    """Return a unit as JSON-ready data, to keep in a state (what `asdict` returns, written
    out: asdict deep-copies every value on its way, several times slower)."""
    return {**vars(unit), "items": tuple(
        {**vars(item), "choices": tuple(dict(vars(choice)) for choice in item.choices)}
        for item in unit.items)}


def unpack(data: dict) -> Unit:
    """Return the unit `pack` wrote."""
    items = tuple(
        Item(**{**item, "choices": tuple(Choice(**c) for c in item["choices"]),
                "variants": tuple(item["variants"])})
        for item in data["items"])
    return Unit(**{**data, "items": items})


@dataclass(frozen=True)
class Option:
    """A variant of a game, chosen on the setup page before it starts: an engine that has
    some lists them in `options`, and its `start` receives `options={slug: bool}`."""

    slug: str
    label: str | Promise  # lazily translated: the page is in the reader's language
    help: str | Promise


class Refused(Exception):
    """An action the rules do not allow now; the state is unchanged."""

    def __init__(self, code: str, message: str = ""):
        super().__init__(message or code)
        self.code = code
        self.message = message or _("Cette action n’est pas possible maintenant.")


class NotEnoughContent(Exception):
    """The published content cannot fill one game."""

    def __init__(self, kind: str, needed: int, available: int):
        super().__init__(f"{kind}: {needed} needed, {available} published")
        self.kind, self.needed, self.available = kind, needed, available


class Engine(Protocol):
    """The shape every game's engine has (see the module docstring)."""

    slug: str
    min_players: int
    max_players: int
    # Each seat holds what the others may not see: played in a room, a device a seat,
    # never on one shared screen.
    private_hands: bool

    def needs(self, players: int) -> dict[str, int]:
        """Return how many units of each kind a game at this table may draw at most."""

    def start(self, spec, content: Content, players: list[str], seed: int, *,
              now: float = 0.0) -> State: ...

    def apply(self, state: State, action: dict) -> tuple[State, list[Event]]: ...

    def view(self, state: State, seat: int | None = TABLE) -> dict: ...

    def deadline(self, state: State) -> float | None: ...

    def finished(self, state: State) -> bool: ...


# How a simulated player answers: given a question's difficulty and the chance of being
# right by luck alone (a blind pick), whether the answer is right (player.coverage).
Knows = Callable[[int, float], bool]


class SimulatedEngine(Engine, Protocol):
    """An engine a simulation can play to the end: player.coverage counts what it uses."""

    def simulated_action(self, state: State, rng: random.Random,
                         knows: Knows) -> tuple[float, dict]:
        """Return what the table does next and how many seconds after the state's last
        change: picks drawn from `rng`, answers right as `knows` says."""


class RoomEngine(Engine, Protocol):
    """An engine played in a room: a device a seat, and bots to fill empty seats."""

    has_bots: bool  # whether bots may take the empty seats
    # Whether the table stops while a player is offline (a game played on a shared clock,
    # as The Mind); otherwise the others play on and the game waits only for that player's
    # own moves.
    waits_for_everyone: bool

    def bot_action(self, state: State, bots: list[int]) -> tuple[float, dict] | None:
        """Return what the bots at the seats `bots` do next and how many seconds after the
        state's last change, or None when they have nothing to do."""


# Set by a caller that never reads a state again once it has passed it on (the coverage
# simulation, which plays thousands of moves): `evolve` then changes the state in place.
_states_handed_over: ContextVar[bool] = ContextVar("states_handed_over", default=False)


@contextmanager
def states_handed_over():
    """Within this block, an engine may change the state it is given instead of a copy."""
    token = _states_handed_over.set(True)
    try:
        yield
    finally:
        _states_handed_over.reset(token)


def evolve(state: State) -> State:
    """Return a deep copy to change, so the state an engine was given stays as it was
    (the state itself within `states_handed_over`)."""
    if _states_handed_over.get():
        return state
    # A state is JSON data made by the engines themselves (never bytes from outside): a
    # pickle round trip copies it about 3.5 times faster than a JSON one, and 10 times
    # faster than deepcopy.
    return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))


def dice(state: State, *salt) -> random.Random:
    """Return a random generator fixed by the game's seed and `salt`: the same every replay."""
    return random.Random(f"{state['seed']}:" + ":".join(str(s) for s in salt))


def int_field(action: dict, key: str, *, low: int, high: int) -> int:
    """Return action[key] as an int in [low, high], or refuse the action."""
    value = action.get(key)
    if isinstance(value, bool):
        raise Refused("bad_value")
    if isinstance(value, str):
        value = value.strip()
        digits = value[1:] if value.startswith("-") else value  # one sign at most: not "--5"
        if not (digits.isascii() and digits.isdigit()):
            raise Refused("bad_value")
        value = int(value)
    if not isinstance(value, int) or not low <= value <= high:
        raise Refused("bad_value")
    return value


def text_field(action: dict, key: str, *, max_length: int = 200) -> str:
    """Return action[key] as a stripped string of bounded length, or refuse the action."""
    value = action.get(key, "")
    if not isinstance(value, str) or len(value) > max_length:
        raise Refused("bad_value")
    return value.strip()


def check_question(action: dict, current: int | None) -> None:
    """Refuse an action about a question that is not the one being played."""
    if current is None or str(action.get("question", "")) != str(current):
        raise Refused("not_current", _("Cette question n’est plus celle en jeu."))


@dataclass
class Step:
    """A convenience for engines: the new state and the events of one action."""

    state: State
    events: list[Event] = field(default_factory=list)

    def emit(self, type_: str, **data) -> None:
        self.events.append({"type": type_, **data})
