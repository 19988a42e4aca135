"""Each game's report kept between requests, and brought up to date with what changed.

Checking a game of 20 000 questions takes seconds, and the admin shows problems on every
list. So each process keeps, per game, the content the rules read and the problems they
found, at one generation of the game (`cms.change_log`). A request first reads the game's
generation from the database (one query): the same, the kept report is the truth; a later
one, only what the log says changed is loaded and checked again — the changed questions and
cards, the cards that hold a changed question, the questions of a changed card and the
twins of a changed card — by the rules of OBJECT scope, and the GAME rules run again over
the kept content (or keep their own problems up to date, `Rule.kept`); anything else (a
generation rolled back, a log that no longer reaches back, a whole game changed) and the
game is checked again from scratch. What a request sees is thus what its database
connection sees, whichever process wrote it.
"""

from __future__ import annotations

import bisect
import threading
from collections import defaultdict
from collections.abc import Callable

from django.db import connection
from django.db.models import Q

from . import change_log, rules
from .change_log import Generation
from .games import GAMES
from .models import Card, CardQuestion, Question
from .selectors import load_game, load_part
from .validation import GameContent, Problem, PropositionRow, Report

# When more than this share of a game changed at once (an import), loading it whole costs
# about as much as loading the part: check it again from scratch.
REBUILD_SHARE = 0.2

class KeptReports:
    """The reports one process keeps, by game."""

    def __init__(self):
        self._kept: dict[str, KeptReport] = {}
        self._locks: dict[str, threading.Lock] = defaultdict(threading.Lock)
        self._lock = threading.Lock()

    def report(self, slug: str) -> Report:
        """Return the report of a game's content as this connection now sees it."""
        with self._lock:
            lock = self._locks[slug]
        with lock:
            kept = self._kept.get(slug)
            now = change_log.current(slug)
            if kept is not None and kept.generation == now:
                return kept.report
            if kept is not None and kept.catch_up(change_log.since(slug, kept.generation, now),
                                                  now):
                return kept.report
            self._kept[slug] = kept = KeptReport(slug, now)
            return kept.report

    def forget(self) -> None:
        """Drop every kept report (another database was set up, e.g. between tests)."""
        with self._lock:
            self._kept.clear()


# This process's.
KEPT = KeptReports()
report = KEPT.report
forget = KEPT.forget


def _question_order() -> Callable[[Question], tuple]:
    """Return the key that orders questions as `load_game` does (kind, step, id)."""
    nulls_last = connection.features.nulls_order_largest
    return lambda q: (q.kind, (q.step is None) == nulls_last, q.step or 0, q.id)


class KeptReport:
    """One game's content and problems at one generation."""

    def __init__(self, slug: str, generation: Generation):
        self.slug = slug
        self.generation = generation
        content = load_game(slug)
        self.questions = {q.pk: q for q in content.questions}
        # In the model's order, kept so as questions change (Python's order of the kinds'
        # names, which a database's collation may not follow: no rule depends on it).
        self.ordered = sorted(content.questions, key=_question_order())
        self.cards = {c.pk: c for c in content.cards}
        self.propositions: dict[int, list[PropositionRow]] = dict(content.propositions)
        self.card_questions: dict[int, list[Question]] = dict(content.card_questions)
        self.placed = set(content.placed)
        self.answers = dict(content.answers)
        self.holder = {q.pk: card for card, qs in self.card_questions.items() for q in qs}
        # Problems of the OBJECT rules by rule, then by target (its own, in the rule's order).
        self.own: dict[str, dict[tuple | None, list[Problem]]] = {}
        self.wide: dict[str, list[Problem]] = {}
        self.kept: dict[str, rules.KeptRule] = {}
        for rule in rules.RULES:
            if rule.scope == rules.OBJECT:
                self.own[rule.name] = _by_target(rule.check(content))
            elif rule.kept is not None:
                self.kept[rule.name] = rule.kept(content)
                self.wide[rule.name] = self.kept[rule.name].update(content, {})
            else:
                self.wide[rule.name] = rule.check(content)
        self.report = self._assemble()

    def content(self) -> GameContent:
        return GameContent(GAMES[self.slug], list(self.cards.values()), self.ordered,
                           self.propositions, self.card_questions, self.placed, self.answers)

    def catch_up(self, changed: change_log.Changes, now: Generation) -> bool:
        """Check again what changed and what depends on it; False: check the whole game."""
        if changed.everything:
            return False
        questions, cards = self._reached(changed)
        if len(questions) + len(cards) > REBUILD_SHARE * (
                len(self.questions) + len(self.cards)) + 50:
            return False
        part = load_part(self.slug, questions=questions, cards=cards)
        self._replace(part, questions, cards)
        now_questions = {pk: self.questions.get(pk) for pk in questions}
        keys = {("question", pk) for pk in questions} | {("card", pk) for pk in cards}
        content = self.content()
        for rule in rules.RULES:
            if rule.scope == rules.OBJECT:
                own = self.own.setdefault(rule.name, {})
                for key in keys:
                    own.pop(key, None)
                own.update(_by_target(rule.check(part)))
            elif rule.name in self.kept:
                self.wide[rule.name] = self.kept[rule.name].update(content, now_questions)
            else:
                self.wide[rule.name] = rule.check(content)
        self.generation = now
        self.report = self._assemble()
        return True

    def _reached(self, changed: change_log.Changes) -> tuple[set[int], set[int]]:
        """Return the questions and cards whose problems a change may have changed.

        Relations are read both as kept (before the change) and from the database (after).
        """
        cards = set(changed.cards)
        cards |= {self.holder[pk] for pk in changed.questions if pk in self.holder}
        cards |= set(CardQuestion.objects.filter(question__in=list(changed.questions))
                     .values_list("card_id", flat=True))
        # A card's twin reads its title, colour and twin; a twin released reads them too.
        twins: set[int | None] = {c.pair_id for pk in changed.cards
                                  if (c := self.cards.get(pk)) is not None}
        twins |= {c.pk for c in self.cards.values() if c.pair_id in changed.cards}
        for pk, pair in Card.objects.filter(Q(pk__in=list(changed.cards))
                                            | Q(pair__in=list(changed.cards))
                                            ).values_list("pk", "pair_id"):
            twins |= {pk, pair}
        cards |= {pk for pk in twins if pk is not None}
        # Whether a question is on a card is part of its own problems.
        questions = set(changed.questions)
        questions |= {q.pk for pk in changed.cards for q in self.card_questions.get(pk, [])}
        questions |= set(CardQuestion.objects.filter(card__in=list(changed.cards))
                         .values_list("question_id", flat=True))
        return questions, cards

    def _replace(self, part: GameContent, questions: set[int], cards: set[int]) -> None:
        """Put the part's objects in place of what the kept content had of them."""
        order = _question_order()
        for pk in questions:
            former = self.questions.pop(pk, None)
            if former is not None:
                at = bisect.bisect_left(self.ordered, order(former), key=order)
                if self.ordered[at] is not former:
                    raise RuntimeError(f"{self.slug}: the kept questions lost their order")
                del self.ordered[at]
            self.propositions.pop(pk, None)
            self.answers.pop(pk, None)
            self.placed.discard(pk)
        for pk in cards:
            self.cards.pop(pk, None)
            for question in self.card_questions.pop(pk, []):
                if self.holder.get(question.pk) == pk:
                    del self.holder[question.pk]
        self.questions.update((q.pk, q) for q in part.questions)
        for question in part.questions:
            bisect.insort(self.ordered, question, key=order)
        self.propositions.update(part.propositions)
        self.answers.update(part.answers)
        self.placed |= part.placed
        self.cards.update((c.pk, c) for c in part.cards)
        self.card_questions.update(part.card_questions)
        self.holder.update((q.pk, card) for card, qs in part.card_questions.items() for q in qs)

    def _assemble(self) -> Report:
        """Return the problems as one report, rule by rule in the order of `cms.rules`."""
        problems: list[Problem] = []
        for rule in rules.RULES:
            if rule.name in self.own:
                for found in self.own[rule.name].values():
                    problems.extend(found)
            else:
                problems.extend(self.wide.get(rule.name, []))
        report = Report(GAMES[self.slug], problems)
        report.slots_by_card = {pk: [(n, q.pk) for n, q in enumerate(qs, start=1)]
                                for pk, qs in self.card_questions.items() if pk in self.cards}
        return report


def _by_target(problems: list[Problem]) -> dict[tuple | None, list[Problem]]:
    found: dict[tuple | None, list[Problem]] = {}
    for problem in problems:
        found.setdefault(problem.target_key, []).append(problem)
    return found
