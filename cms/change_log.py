"""What changed in each game's content: written by every write, in the write's transaction.

Every write of `cms.services` (and the player's answers, which calibrate questions) calls
`record` with the questions and cards it wrote. Each call is one generation of each game it
touches: the game's number goes up by one, with a new random stamp, and the changed objects
are logged under that number. The admin's kept reports (`cms.report_store`) read the log to
bring a report computed at an older generation up to date, whatever process wrote it.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.db.models import F

from .games import KINDS
from .models import Card, ContentChange, ContentGeneration, Question

# Generations of the log kept for readers behind: a report older than that is computed again
# from scratch.
KEEP = 500


@dataclass(frozen=True)
class Generation:
    number: int = 0
    stamp: str = ""  # "" : the game has never changed since the database was made


@dataclass
class Changes:
    """The questions and cards of one game changed after some generation."""

    questions: set[int] = field(default_factory=set)
    cards: set[int] = field(default_factory=set)
    everything: bool = False  # the log says the whole game, or no longer goes back that far


def _game_of(kind: str) -> str | None:
    return KINDS[kind][0].slug if kind in KINDS else None


Rows = dict[str, set[tuple[int | None, int | None]]]
# While a long write gathers its log (`gathering`), what its `record` calls would write.
_gathered: ContextVar[Rows | None] = ContextVar("plateau_change_log", default=None)


@contextmanager
def gathering() -> Iterator[bool]:
    """Within this block, `record` gathers instead of writing, until `flush` writes it all.

    Bumping a game's generation locks its row until the write commits, and players' answers
    bump it too (they calibrate questions): an import of thousands of rows that bumped at its
    first row would hold every player waiting for its whole transaction. An import gathers
    its log and flushes it as its last write, just before it commits. Leaving the block
    without a flush forgets what was gathered (the write rolled back). Yields whether this
    block gathers (True) or an outer one does (False: the outer one flushes).
    """
    if _gathered.get() is not None:  # within a larger write's gathering: its own to flush
        yield False
        return
    token = _gathered.set(defaultdict(set))
    try:
        yield True
    finally:
        _gathered.reset(token)


def flush() -> None:
    """Write what `gathering` has gathered so far, as one generation of each game."""
    rows = _gathered.get()
    if rows:
        gathered = dict(rows)
        rows.clear()
        _write(gathered)


def record(objects: Iterable[Question | Card] = (), *, games: Iterable[str] = (),
           whole: Iterable[str] = ()) -> None:
    """Log that these questions and cards changed (deleted ones included), in their games
    and in each of `games` (the game an object left), and that `whole` games changed whole.

    Call it inside the write's transaction: the log commits or rolls back with the write.
    """
    extra = {slug for slug in games if slug}
    rows: Rows = defaultdict(set)
    for obj in objects:
        if obj is None or obj.pk is None:
            continue
        key = (obj.pk, None) if isinstance(obj, Question) else (None, obj.pk)
        for slug in {_game_of(obj.kind), *extra}:
            if slug is not None:
                rows[slug].add(key)
    for slug in whole:
        rows[slug].add((None, None))
    gathered = _gathered.get()
    if gathered is not None:
        for slug, keys in rows.items():
            gathered[slug] |= keys
        return
    _write(rows)


def _write(rows: Rows) -> None:
    with transaction.atomic():
        for slug in sorted(rows):
            generation = _bump(slug)
            ContentChange.objects.bulk_create(
                [ContentChange(game=slug, generation=generation.number, stamp=generation.stamp,
                               question_id=question, card_id=card)
                 for question, card in rows[slug]], batch_size=2000)
            ContentChange.objects.filter(game=slug,
                                         generation__lte=generation.number - KEEP).delete()


def record_questions(pks: Iterable[int]) -> None:
    """Log that these questions changed (by pk: their kinds are read here)."""
    pks = set(pks)
    if pks:
        record(Question.objects.filter(pk__in=pks).only("pk", "kind"))


def _bump(slug: str) -> Generation:
    """Count one more generation of a game (its row stays locked until the write commits)."""
    stamp = uuid.uuid4().hex
    if not ContentGeneration.objects.filter(game=slug).update(number=F("number") + 1,
                                                              stamp=stamp):
        try:
            with transaction.atomic():
                ContentGeneration.objects.create(game=slug, number=1, stamp=stamp)
        except IntegrityError:  # another writer made it first
            ContentGeneration.objects.filter(game=slug).update(number=F("number") + 1,
                                                               stamp=stamp)
    return Generation(ContentGeneration.objects.get(game=slug).number, stamp)


def current(slug: str) -> Generation:
    """Return the game's last generation, as this connection sees it."""
    row = ContentGeneration.objects.filter(game=slug).values_list("number", "stamp").first()
    return Generation(*row) if row else Generation()


def since(slug: str, base: Generation, now: Generation) -> Changes:
    """Return what changed in a game after `base` up to `now`.

    `everything` when `base` is not an ancestor of `now` in this database (a generation
    rolled back, or the database is another one) or the log no longer reaches back to it.
    """
    if base.number > now.number or now.number - base.number > KEEP:
        return Changes(everything=True)
    rows = list(ContentChange.objects.filter(
        game=slug, generation__gte=base.number, generation__lte=now.number)
        .values_list("generation", "stamp", "question_id", "card_id"))
    stamps = {generation: stamp for generation, stamp, _q, _c in rows}
    wanted = set(range(base.number + 1, now.number + 1))
    if (base.number and stamps.get(base.number) != base.stamp) or not wanted <= stamps.keys() \
            or stamps.get(now.number) != now.stamp:
        return Changes(everything=True)
    changes = Changes()
    for generation, _stamp, question, card in rows:
        if generation == base.number:
            continue
        if question is None and card is None:
            changes.everything = True
        if question is not None:
            changes.questions.add(question)
        if card is not None:
            changes.cards.add(card)
    return changes
