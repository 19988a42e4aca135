"""Draw a game's content from the live published library: seeded, balanced, unseen first.

The only place the player reads content from the database. What an engine receives is
frozen data (player.engines.base) in the order to draw it: for each kind, the units this
browser has not been shown come first, and within that, one theme after another so that
consecutive draws change theme; a ladder kind is drawn step by step. The same seed and
the same library give the same order.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable

from django.db.models import Prefetch

from cms.games import GAMES
from cms.models import Card, Proposition, Question, Status

from .engines.base import Choice, Content, Item, Unit
from .models import Seen


def item_of(question: Question, seen: frozenset[int] = frozenset()) -> Item:
    """Return a question as the engines read it."""
    return Item(
        id=question.pk, text=question.text, difficulty=question.difficulty,
        theme=question.theme, step=question.step,
        choices=tuple(Choice(p.text, p.is_right, p.is_hidden)
                      for p in question.propositions.all()),
        answer=question.answer, variants=tuple(question.variant_list),
        anecdote=question.anecdote, has_image=bool(question.image),
        seen=question.pk in seen)


def _questions():
    return Question.objects.prefetch_related(
        Prefetch("propositions", queryset=Proposition.objects.order_by("position", "id")))


def _outlines(kind) -> list[Unit]:
    """Return every live published question of a kind as what ordering reads (its id, theme
    and step), in a stable order: a library of thousands is ordered without reading them."""
    rows = (Question.objects.filter(kind=kind.slug, status=Status.PUBLISHED).order_by("pk")
            .values_list("pk", "theme", "step", "difficulty"))
    return [Unit(id=pk, kind=kind.slug, title=theme,
                 items=(Item(id=pk, text="", difficulty=difficulty, theme=theme, step=step),))
            for pk, theme, step, difficulty in rows]


def _filled(outlines: list[Unit], seen: frozenset[int]) -> list[Unit]:
    """Return the drawn outlines whole, in their order, reading only those questions."""
    questions = _questions().in_bulk([unit.id for unit in outlines])
    return [Unit(id=unit.id, kind=unit.kind, title=questions[unit.id].theme,
                 items=(item_of(questions[unit.id], seen),))
            for unit in outlines if unit.id in questions]


def _units(kind, seen: frozenset[int] = frozenset()) -> list[Unit]:
    """Return every live published unit of a kind, in a stable order (questions as outlines:
    `draw` fills the drawn ones)."""
    if not kind.is_card:
        return _outlines(kind)
    cards = (Card.objects.filter(kind=kind.slug, status=Status.PUBLISHED).order_by("pk")
             .prefetch_related(Prefetch("slots__question", queryset=_questions())))
    units = []
    for card in cards:
        questions = [slot.question for slot in card.ordered_slots()]
        # A card plays whole: one of its questions withdrawn or in draft, it waits.
        if len(questions) != kind.questions_per_card or any(
                q.status != Status.PUBLISHED for q in questions):
            continue
        units.append(Unit(id=card.pk, kind=kind.slug, title=card.title or questions[0].theme,
                          colour=card.colour, pair=card.pair_id,
                          items=tuple(item_of(q, seen) for q in questions)))
    return units


def balanced(units: list[Unit], rng: random.Random) -> list[Unit]:
    """Return the units shuffled, then dealt one theme after another."""
    by_theme: dict[str, list[Unit]] = defaultdict(list)
    shuffled = list(units)
    rng.shuffle(shuffled)
    for unit in shuffled:
        by_theme[unit.title.casefold()].append(unit)
    themes = sorted(by_theme, key=lambda t: (-len(by_theme[t]), t))
    rng.shuffle(themes)
    dealt = []
    while any(by_theme.values()):
        for theme in themes:
            if by_theme[theme]:
                dealt.append(by_theme[theme].pop(0))
    return dealt


def ordered(units: list[Unit], seen: set[int], rng: random.Random) -> list[Unit]:
    """Return the units unseen first, then the least seen, each group balanced by theme."""
    by_seen: dict[int, list[Unit]] = defaultdict(list)
    for unit in units:
        by_seen[sum(item.id in seen for item in unit.items)].append(unit)
    return [unit for count in sorted(by_seen) for unit in balanced(by_seen[count], rng)]


def by_step(units: list[Unit], seen: set[int], rng: random.Random) -> list[Unit]:
    """Return a ladder's questions by rank: each step's first choice, then each one's second…"""
    steps: dict[int | None, list[Unit]] = defaultdict(list)
    for unit in units:
        steps[unit.items[0].step].append(unit)
    ranked = {step: ordered(group, seen, rng) for step, group in sorted(
        steps.items(), key=lambda kv: (kv[0] is None, kv[0] or 0))}
    # The first climb (rank 0) changes theme as often as it can: each step takes, among
    # its questions as fresh as its best, the one whose theme the climb has used least.
    used: dict[str, int] = defaultdict(int)
    for group in ranked.values():
        freshness = [sum(i.id in seen for i in unit.items) for unit in group]
        best = [unit for unit, count in zip(group, freshness, strict=True)
                if count == freshness[0]]
        pick = min(best, key=lambda unit: used[unit.title.casefold()])
        group.remove(pick)
        group.insert(0, pick)
        used[pick.title.casefold()] += 1
    drawn = []
    for rank in range(max((len(g) for g in ranked.values()), default=0)):
        drawn.extend(group[rank] for group in ranked.values() if rank < len(group))
    return drawn


def paired(units: list[Unit], seen: set[int], rng: random.Random) -> list[Unit]:
    """Return duel cards pair by pair, each card followed by its partner.

    A pair shares a theme, so dealing cards one theme after another would split it; the
    pairs are dealt instead. A card whose partner is not drawable stays out.
    """
    by_id = {unit.id: unit for unit in units}
    pairs = []
    for unit in units:
        partner = by_id.get(unit.pair)
        if partner is not None and partner.pair == unit.id and unit.id < partner.id:
            pairs.append(Unit(id=unit.id, kind=unit.kind, title=unit.title,
                              items=unit.items + partner.items))
    return [card for pair in ordered(pairs, seen, rng)
            for card in (by_id[pair.id], by_id[by_id[pair.id].pair])]


def draw(game_slug: str, needs: dict[str, int], *, seed: int, browser: str) -> Content:
    """Return what one game may draw, `needs[kind]` units at most of each kind."""
    game = GAMES[game_slug]
    seen = frozenset(seen_by(browser))
    content: Content = {}
    for slug, count in needs.items():
        kind = game.kind(slug)
        rng = random.Random(f"{seed}:{slug}")
        units = _units(kind, seen)
        if kind.ladder:
            order = by_step(units, seen, rng)
        elif kind.paired:
            order = paired(units, seen, rng)
        else:
            order = ordered(units, seen, rng)
        drawn = order[:count]
        content[slug] = tuple(drawn if kind.is_card else _filled(drawn, seen))
    return content


def seen_by(browser: str) -> set[int]:
    """Return the pks of the questions this browser has been shown."""
    return set(Seen.objects.filter(browser=browser).values_list("question_id", flat=True))


def mark_seen(browser: str, question_ids: Iterable[int]) -> None:
    """Remember that this browser has been shown these questions (they must exist)."""
    Seen.objects.bulk_create([Seen(browser=browser, question_id=pk)
                              for pk in sorted(set(question_ids))], ignore_conflicts=True)
