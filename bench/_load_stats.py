"""bench/load.py's figures: each kind of request's latencies, errors and refusals."""

from __future__ import annotations

import math
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field

# The kinds of request in the order the tables list them.
KINDS = [
    ("solo_setup", "millionnaire: setup page (GET)"),
    ("solo_start", "millionnaire: new game (POST)"),
    ("solo_page", "millionnaire: game page (GET)"),
    ("solo_action", "millionnaire: answer/action (POST htmx)"),
    ("home", "home page (GET)"),
    ("mind_open", "The Mind: open a room (POST)"),
    ("mind_page", "The Mind: room page (GET)"),
    ("mind_join", "The Mind: take a seat (POST)"),
    ("mind_start", "The Mind: start a game (POST)"),
    ("mind_connect", "The Mind: WebSocket open → first page"),
    ("mind_ack", "The Mind: intent → ack (WS)"),
    ("mind_seen", "The Mind: card played → others' new page (WS)"),
    ("editor_login", "editor: admin login"),
    ("editor_queue", "editor: queue import / print (POST)"),
    ("editor_poll", "editor: job state poll (GET etat.json)"),
    ("editor_file", "editor: PDF download"),
    ("bare_load", "bare view /sante/ under the load (GET)"),
    ("burst_bare", "burst: bare view /sante/"),
    ("burst_action", "burst: millionnaire action"),
]
LABELS = dict(KINDS)
# The kinds the players' targets are about.
PLAYER_KINDS = ("solo_start", "solo_page", "solo_action", "mind_page", "mind_join",
                "mind_start", "mind_ack", "mind_seen")


@dataclass
class Recorder:
    """Latencies (seconds) by kind; errors by kind with their reasons; refusals by code."""

    samples: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    # When each sample's request ended (time.monotonic), in the same order.
    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    error_times: list[tuple[float, str]] = field(default_factory=list)
    refusals: Counter = field(default_factory=Counter)
    # Requests sent again on a new connection, the server having closed the kept-alive one.
    resent: Counter = field(default_factory=Counter)
    started: float = field(default_factory=time.monotonic)
    ended: float | None = None

    def ok(self, kind: str, seconds: float) -> None:
        self.samples[kind].append(seconds)
        self.times[kind].append(time.monotonic())

    def error(self, kind: str, reason: str) -> None:
        self.errors[kind][reason] += 1
        self.error_times.append((time.monotonic(), kind))

    def refused(self, code: str) -> None:
        self.refusals[code] += 1

    def between(self, kinds, start: float, end: float) -> tuple[list[float], int]:
        """The latencies of `kinds` whose requests ended in [start, end), and their errors."""
        values = sorted(value for kind in kinds
                        for value, at in zip(self.samples.get(kind, []),
                                             self.times.get(kind, []), strict=True)
                        if start <= at < end)
        errors = sum(1 for at, kind in self.error_times if kind in kinds and start <= at < end)
        return values, errors

    def stop(self) -> None:
        self.ended = time.monotonic()

    @property
    def seconds(self) -> float:
        return (self.ended or time.monotonic()) - self.started

    def error_count(self, kinds=None) -> int:
        """The server's errors: of `kinds`, or of every kind but the client's own."""
        return sum(sum(counter.values()) for kind, counter in self.errors.items()
                   if (kind in kinds if kinds is not None else kind != "client"))

    def row(self, kind: str, seconds: float | None = None) -> dict:
        values = sorted(self.samples.get(kind, []))
        errors = sum(self.errors.get(kind, Counter()).values())
        seconds = seconds or self.seconds
        return {"kind": kind, "label": LABELS.get(kind, kind), "count": len(values),
                "rate": len(values) / seconds if seconds else 0.0,
                "p50": quantile(values, 0.50), "p95": quantile(values, 0.95),
                "p99": quantile(values, 0.99), "max": values[-1] if values else None,
                "errors": errors}


def quantile(ordered: list[float], q: float) -> float | None:
    """The q-quantile of sorted values (nearest rank), None without values."""
    if not ordered:
        return None
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def ms(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value * 1000:.0f}" if value >= 0.0995 else f"{value * 1000:.1f}"


class Timer:
    """`with Timer() as t: …; t.seconds`."""

    def __enter__(self):
        self.start = time.perf_counter()
        self.seconds = 0.0
        return self

    def __exit__(self, *exc):
        self.seconds = time.perf_counter() - self.start
        return False
