"""Every content rule, in the order it runs: the one list to open to know what is checked.

A rule takes one game's loaded content (`GameContent`) and returns problems; none queries
the database. The rules themselves are written in `cms.validation`, except those that need
another layer's knowledge: printing knows whether a text fits its card with the real fonts,
and the player's engines, played many times, know what a full game uses of each kind.
Such a rule is named here and imported from its layer only when it runs, so that cms does
not load ReportLab to validate a form, and no app adds to this list at start-up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

from .games import content_games
from .games.spec import GameSpec
from .models import Question
from .selectors import load_game
from .validation import (
    GameContent,
    KeptDuplicates,
    Needs,
    Problem,
    Report,
    check_calibration,
    check_card,
    check_coverage,
    check_duplicates,
    check_ladder,
    check_question,
)

# What a rule's problems depend on, for the admin's kept reports (`cms.report_store`):
# OBJECT: a question's problems on that question and its relations (propositions, whether it
# is on a card, its answers in play), a card's on that card, its questions in order and its
# twin, so only the changed objects are checked again; GAME: on the whole game, so the rule
# runs again over the whole game after each change.
OBJECT = "object"
GAME = "game"


class KeptRule(Protocol):
    """A game-wide rule's problems, kept up to date as questions change."""

    def __init__(self, content: GameContent) -> None: ...

    def update(self, content: GameContent,
               changed: Mapping[int, Question | None]) -> list[Problem]:
        """Take the changed questions (by pk, as they now are; None: gone), return problems."""


@dataclass(frozen=True)
class Rule:
    """One rule over a game's content."""

    name: str
    check: Callable[[GameContent], list[Problem]]
    # Advice rather than a verdict on what is printed: `check_game(advisory=False)` skips it.
    advisory: bool = False
    scope: str = GAME
    # For a GAME rule, a cheaper way to keep its problems up to date as questions change.
    kept: Callable[[GameContent], KeptRule] | None = None


def each_question(content: GameContent) -> list[Problem]:
    """Check every question against its kind's composition."""
    return [problem for question in content.questions for problem in check_question(
        question, propositions=content.propositions.get(question.pk, []),
        placed=question.pk in content.placed)]


def each_card(content: GameContent) -> list[Problem]:
    """Check every card's composition, order and pairing."""
    return [problem for card in content.cards for problem in check_card(
        card, questions=content.card_questions.get(card.pk, []), partner=card.pair)]


def ladder(content: GameContent) -> list[Problem]:
    return check_ladder(content.game, content.questions)


def duplicates(content: GameContent) -> list[Problem]:
    return check_duplicates(content.game, content.questions)


def coverage(content: GameContent) -> list[Problem]:
    return check_coverage(content.game, content.cards, content.questions,
                          full_game_needs(content.game))


def full_game_needs(game: GameSpec) -> Needs:
    """Return what one full game at the coverage table needs per kind, by playing the rules
    many times with the player's engines (simulated once per game and process)."""
    from player.coverage import full_game_needs as simulated  # the engines, on use

    return simulated(game)


def calibration(content: GameContent) -> list[Problem]:
    """Set each question's rated difficulty against the answers given to it in play."""
    problems = []
    for question in content.questions:
        answers, right = content.answers.get(question.pk, (0, 0))
        problems.extend(check_calibration(question, answers=answers, right=right))
    return problems


def printable_at_default_size(content: GameContent) -> list[Problem]:
    """Check that every content deck's faces fit a poker card with the fonts' characters."""
    from printing.render import printable_at_default_size as printable  # ReportLab, on use

    return printable(content)


# The printer judges what it prints with the verdicts only (`advisory=False`): it measures
# the fit of what it draws itself, and the game-wide advice (near-duplicates, coverage)
# costs the most on a large library.
RULES: tuple[Rule, ...] = (
    Rule("question", each_question, scope=OBJECT),
    Rule("card", each_card, scope=OBJECT),
    Rule("ladder", ladder),
    Rule("duplicates", duplicates, advisory=True, kept=KeptDuplicates),
    Rule("coverage", coverage, advisory=True),
    Rule("calibration", calibration, advisory=True, scope=OBJECT),
    Rule("printable", printable_at_default_size, advisory=True, scope=OBJECT),
)


def check_game(content: GameContent, *, advisory: bool = True,
               rules: Iterable[Rule] = RULES) -> Report:
    """Run the rules over one game's loaded content; `advisory=False` skips the advice."""
    report = Report(content.game)
    report.slots_by_card = {card.pk: [(n, q.pk) for n, q in enumerate(
        content.card_questions.get(card.pk, []), start=1)] for card in content.cards}
    for rule in rules:
        if advisory or not rule.advisory:
            report.problems.extend(rule.check(content))
    return report


def validate_game(slug: str) -> Report:
    """Load one game from the database and return its report."""
    return check_game(load_game(slug))


def validate_all() -> list[Report]:
    return [validate_game(game.slug) for game in content_games()]
