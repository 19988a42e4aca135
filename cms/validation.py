"""The content rules, written once: pure functions that return problems.

The admin, the publish services, the importers, `manage.py validate_content` and
the printer all call these. Rules about one field live in field validators and
model constraints; the rules here look across rows (a card's questions, a ladder,
a whole game). The check functions take model instances whose relations are
already loaded (`load_game`) and never query the database themselves.
Other layers add rules of their own with `register_rule` (printing adds "does it fit").
"""

from __future__ import annotations

import itertools
import math
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from statistics import mean
from typing import NamedTuple

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .games import GAMES, content_games
from .games.spec import ORDER_BY_SLOT_FORMAT, ORDER_STRICTLY_INCREASING, GameSpec
from .models import STATUS_RANK, Card, CardQuestion, Proposition, Question, Status

ERROR = "error"
WARNING = "warning"
NEAR_DUPLICATE_THRESHOLD = 0.8


@dataclass(frozen=True, eq=False)
class Problem:
    """One thing wrong with the content, in French, about one object (None: the game)."""

    code: str
    severity: str
    message: str
    target: Question | Card | None
    game: str
    step: int | None = None  # a ladder problem's step, when it is about one

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    @property
    def target_key(self) -> tuple[str, int] | None:
        if self.target is None:
            return None
        return (type(self.target).__name__.lower(), self.target.pk)


def euros(amount: int) -> str:
    return f"{number_format(amount, force_grouping=True)}\u00a0€"


def average(values: Iterable[float]) -> str:
    return number_format(mean(values), decimal_pos=1)


# --- one question -------------------------------------------------------------------------


def check_question(question: Question, *, propositions=None, placed=None) -> list[Problem]:
    """Return the problems of one question against its kind's composition.

    `propositions` (rows with text, is_right, is_hidden, in order) and `placed` (is it on
    a card) come from `load_game`; left out, they are read from the question's relations.
    """
    kind = question.spec
    game = question.game
    problems: list[Problem] = []

    def problem(code, message, severity=ERROR):
        problems.append(Problem(code, severity, message, question, game.slug))

    if propositions is None:
        propositions = list(question.propositions.all())
    if placed is None:
        placed = question.slots.exists()
    if len(propositions) != kind.propositions:
        if kind.propositions:
            problem("proposition_count", ngettext(
                "%(kind)s : il faut %(n)s proposition, il y en a %(found)s.",
                "%(kind)s : il faut %(n)s propositions, il y en a %(found)s.",
                kind.propositions,
            ) % {"kind": kind.label, "n": kind.propositions, "found": len(propositions)})
        else:
            problem("proposition_count", _(
                "%(kind)s : pas de propositions, la réponse est libre (%(found)s à retirer)."
            ) % {"kind": kind.label, "found": len(propositions)})
    if kind.propositions:
        right = sum(p.is_right for p in propositions)
        if right != kind.right:
            problem("right_count", _(
                "%(kind)s : il faut exactement %(n)s bonne(s) réponse(s), il y en a %(found)s."
            ) % {"kind": kind.label, "n": kind.right, "found": right})
        hidden = sum(p.is_hidden for p in propositions)
        if hidden != kind.hidden:
            problem("hidden_count", _(
                "%(kind)s : il faut exactement %(n)s proposition(s) cachée(s), il y en a "
                "%(found)s."
            ) % {"kind": kind.label, "n": kind.hidden, "found": hidden})
        texts = [" ".join(p.text.casefold().split()) for p in propositions]
        if len(set(texts)) != len(texts):
            problem("proposition_repeated", _("Deux propositions sont identiques."))
    if kind.free_answer and not question.answer.strip():
        problem("answer_missing", _("%(kind)s : la réponse libre manque.") % {"kind": kind.label})
    if kind.needs_image and not question.image:
        problem("image_missing", _("%(kind)s : l’image manque.") % {"kind": kind.label})
    if kind.ladder:
        problems.extend(_check_step(question, game))
    elif question.step is not None:
        problem("step_unexpected", _("Seules les questions de l’échelle ont un palier."))
    if kind.is_card and not placed:
        problem("question_unplaced", _(
            "Cette question n’est sur aucune carte « %(kind)s »."
        ) % {"kind": kind.label}, WARNING)
    return problems


def _check_step(question: Question, game: GameSpec) -> list[Problem]:
    if question.step is None:
        return [Problem("step_missing", ERROR, _("Le palier manque (1 à 15)."), question,
                        game.slug)]
    step = game.step(question.step)
    low, high = step.difficulty_band
    if low <= question.difficulty <= high:
        return []
    return [Problem("step_difficulty_band", ERROR, _(
        "Palier %(step)s (%(amount)s) : la difficulté doit aller de %(low)s à %(high)s, "
        "elle est de %(d)s."
    ) % {"step": step.number, "amount": euros(step.amount), "low": low, "high": high,
         "d": question.difficulty}, question, game.slug)]


# --- one card -----------------------------------------------------------------------------


def check_card(card: Card, *, questions=None) -> list[Problem]:
    """Return the problems of one card: composition, order, pairing.

    `questions`, in card order, come from `load_game`; left out, they are read from the card.
    """
    kind = card.spec
    game = card.game
    problems: list[Problem] = []

    def problem(code, message, severity=ERROR):
        problems.append(Problem(code, severity, message, card, game.slug))

    if questions is None:
        questions = [slot.question for slot in card.ordered_slots()]
    if len(questions) != kind.questions_per_card:
        problem("question_count", ngettext(
            "%(kind)s : il faut %(n)s question sur la carte, il y en a %(found)s.",
            "%(kind)s : il faut %(n)s questions sur la carte, il y en a %(found)s.",
            kind.questions_per_card,
        ) % {"kind": kind.label, "n": kind.questions_per_card, "found": len(questions)})
    for number, question in enumerate(questions, start=1):
        if question.kind != card.kind:
            problem("question_kind", _(
                "La question n°%(n)s est une question « %(found)s », pas « %(kind)s »."
            ) % {"n": number, "found": question.spec.label, "kind": kind.label})
        if STATUS_RANK[question.status] < STATUS_RANK[card.status]:
            problem("question_status_behind", _(
                "La carte est « %(card)s » mais la question n°%(n)s est « %(q)s »."
            ) % {"card": card.get_status_display(), "n": number,
                 "q": question.get_status_display()}, WARNING)
    if kind.difficulty_order == ORDER_STRICTLY_INCREASING:
        problems.extend(_check_strictly_increasing(card, questions))
    elif kind.difficulty_order == ORDER_BY_SLOT_FORMAT:
        problems.extend(_check_slot_formats(card, questions))
    if kind.paired:
        problems.extend(_check_pair(card))
    elif card.pair_id is not None:
        problem("pair_unexpected", _("Seules les cartes Duel vont par paires."))
    return problems


def _check_strictly_increasing(card: Card, questions: list[Question]) -> list[Problem]:
    problems = []
    for number, (before, after) in enumerate(itertools.pairwise(questions),
                                             start=2):
        if after.difficulty <= before.difficulty:
            problems.append(Problem("difficulty_order", ERROR, _(
                "%(kind)s : la difficulté doit croître strictement ; la question n°%(n)s "
                "(difficulté %(d2)s) n’est pas plus difficile que la n°%(p)s (difficulté %(d1)s)."
            ) % {"kind": card.spec.label, "n": number, "p": number - 1,
                 "d1": before.difficulty, "d2": after.difficulty}, card, card.game.slug))
    return problems


def _check_slot_formats(card: Card, questions: list[Question]) -> list[Problem]:
    """Check that DUO slots are no harder than CARRÉ ones, and CARRÉ no harder than CASH."""
    formats = card.game.scoring["formats"]  # in play order; other slots (a pool) don't count
    groups: dict[str, list[int]] = {slug: [] for slug in formats}
    for fmt, question in zip(card.spec.slot_formats, questions, strict=False):
        if fmt in groups:
            groups[fmt].append(question.difficulty)
    ordered = [slug for slug in formats if groups[slug]]
    problems = []
    for easier, harder in itertools.pairwise(ordered):
        if mean(groups[harder]) < mean(groups[easier]):
            problems.append(Problem("slot_difficulty_order", ERROR, _(
                "%(kind)s : les questions %(harder)s (difficulté moyenne %(h)s) sont plus "
                "faciles que les questions %(easier)s (difficulté moyenne %(e)s)."
            ) % {"kind": card.spec.label, "harder": formats[harder].label,
                 "easier": formats[easier].label, "h": average(groups[harder]),
                 "e": average(groups[easier])}, card, card.game.slug))
    return problems


def _check_pair(card: Card) -> list[Problem]:
    slug = card.game.slug
    partner = card.pair
    if not card.colour:
        problems = [Problem("pair_colour_missing", ERROR,
                            _("Duel : la couleur de la paire manque."), card, slug)]
    else:
        problems = []
    if partner is None:
        return [*problems, Problem("pair_missing", ERROR,
                                   _("Duel : cette carte n’a pas de jumelle."), card, slug)]
    if partner.kind != card.kind:
        problems.append(Problem("pair_kind", ERROR,
                                _("Duel : la jumelle doit être une carte Duel."), card, slug))
    if partner.pair_id != card.pk:
        problems.append(Problem("pair_not_mutual", ERROR, _(
            "Duel : la jumelle « %(p)s » ne désigne pas cette carte en retour."
        ) % {"p": partner.title or partner.ref}, card, slug))
    if partner.title.strip() != card.title.strip() or partner.colour != card.colour:
        problems.append(Problem("pair_mismatch", ERROR, _(
            "Duel : les deux cartes d’une paire ont le même titre et la même couleur."
        ), card, slug))
    return problems


# --- a whole game -------------------------------------------------------------------------


def check_ladder(game: GameSpec, questions: list[Question]) -> list[Problem]:
    """Check that the published questions never get easier from one step to the next."""
    by_step: dict[int, list[int]] = defaultdict(list)
    for question in questions:
        if question.spec.ladder and question.status == Status.PUBLISHED and question.step:
            by_step[question.step].append(question.difficulty)
    problems = []
    steps = sorted(by_step)
    for lower, upper in itertools.pairwise(steps):
        if mean(by_step[upper]) < mean(by_step[lower]):
            low, up = game.step(lower), game.step(upper)
            problems.append(Problem("ladder_difficulty_down", ERROR, _(
                "Échelle : les questions publiées du palier %(up)s (%(up_amount)s, difficulté "
                "moyenne %(up_avg)s) sont plus faciles que celles du palier %(low)s "
                "(%(low_amount)s, difficulté moyenne %(low_avg)s)."
            ) % {"up": upper, "up_amount": euros(up.amount), "up_avg": average(by_step[upper]),
                 "low": lower, "low_amount": euros(low.amount),
                 "low_avg": average(by_step[lower])}, None, game.slug, step=upper))
    return problems


def normalise(text: str) -> str:
    """Return text folded for comparison: no accents, case, punctuation or extra spaces."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(re.findall(r"[a-z0-9]+", bare))


def similar_pairs(texts: dict, threshold: float = NEAR_DUPLICATE_THRESHOLD):
    """Yield (a, b, similarity) for keys whose word sets overlap at least `threshold`.

    Prefix filtering keeps this near-linear: two sets with Jaccard >= t must share a word
    among the rarest |x| - ceil(t*|x|) + 1 words of each.
    """
    words = {key: set(normalise(text).split()) for key, text in texts.items()}
    frequency = Counter(word for ws in words.values() for word in ws)
    index: dict[str, list] = defaultdict(list)
    for key, ws in words.items():
        if not ws:
            continue
        ordered = sorted(ws, key=lambda w: (frequency[w], w))
        prefix = ordered[: len(ws) - math.ceil(threshold * len(ws)) + 1]
        candidates = {other for word in prefix for other in index[word]}
        for other in candidates:
            union = len(ws | words[other])
            similarity = len(ws & words[other]) / union
            if similarity >= threshold:
                yield other, key, similarity
        for word in prefix:
            index[word].append(key)


def check_duplicates(game: GameSpec, questions: list[Question]) -> list[Problem]:
    """Warn about questions of one game that say the same thing twice."""
    problems = []
    texts = {q: q.text for q in questions if not q.spec.needs_image}
    for first, second, similarity in similar_pairs(texts):
        exact = normalise(first.text) == normalise(second.text)
        for one, other in ((first, second), (second, first)):
            problems.append(Problem(
                "duplicate" if exact else "near_duplicate", WARNING,
                (_("Même texte que la question « %(other)s » (%(ref)s).") if exact else
                 _("Presque le même texte que la question « %(other)s » (%(ref)s), "
                   "%(pct)s %% de mots en commun.")) %
                {"other": other, "ref": other.ref, "pct": round(similarity * 100)},
                one, game.slug,
            ))
    # Mystery images share one prompt: the answer is what must not repeat.
    answers = defaultdict(list)
    for question in questions:
        if question.spec.needs_image and question.answer.strip():
            answers[normalise(question.answer)].append(question)
    for same in answers.values():
        for question in same[1:]:
            problems.append(Problem("duplicate_answer", WARNING, _(
                "Même réponse que « %(ref)s » : « %(answer)s »."
            ) % {"ref": same[0].ref, "answer": question.answer}, question, game.slug))
    return problems


def check_coverage(game: GameSpec, cards: list[Card], questions: list[Question]) -> list[Problem]:
    """Warn when the published deck cannot serve a full game at the coverage table size."""
    problems = []
    players = game.players.coverage
    for kind in game.kinds:
        if not kind.full_game:
            continue
        if kind.ladder:
            counts = Counter(q.step for q in questions
                             if q.kind == kind.slug and q.status == Status.PUBLISHED)
            short = {step.number: kind.full_game - counts[step.number] for step in game.ladder
                     if counts[step.number] < kind.full_game}
            if short:
                detail = ", ".join(
                    _("palier %(n)s : %(missing)s") % {"n": n, "missing": missing}
                    for n, missing in short.items()
                )
                problems.append(Problem("coverage", WARNING, _(
                    "« %(kind)s » : il manque %(total)s question(s) publiée(s) pour une partie "
                    "complète à %(players)s joueurs (%(need)s par palier) — %(detail)s."
                ) % {"kind": kind.label_plural, "total": sum(short.values()),
                     "players": players, "need": kind.full_game, "detail": detail},
                    None, game.slug))
            continue
        published = [c for c in cards if c.kind == kind.slug and c.status == Status.PUBLISHED]
        if kind.paired:
            ids = {c.pk for c in published}
            have = sum(1 for c in published if c.pair_id in ids)
        else:
            have = len(published)
        if have < kind.full_game:
            problems.append(Problem("coverage", WARNING, _(
                "« %(kind)s » : il manque %(missing)s carte(s) publiée(s) pour une partie "
                "complète à %(players)s joueurs (%(have)s sur %(need)s)."
            ) % {"kind": kind.label_plural, "missing": kind.full_game - have,
                 "players": players, "have": have, "need": kind.full_game}, None, game.slug))
    return problems


# --- rules other layers add ---------------------------------------------------------------

# Each takes a game's loaded content and returns problems; printing registers "does it fit".
EXTRA_RULES: list[Callable[[GameContent], list[Problem]]] = []


def register_rule(rule):
    """Add a rule from another layer to every validation run; return it (a decorator)."""
    if rule not in EXTRA_RULES:
        EXTRA_RULES.append(rule)
    return rule


@dataclass
class Report:
    """Every problem of one game, with lookups for the admin."""

    game: GameSpec
    problems: list[Problem] = field(default_factory=list)
    # (position on the card, question pk) by card pk: a card answers for its questions.
    slots_by_card: dict[int, list[tuple[int, int]]] = field(default_factory=dict, repr=False)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.is_error]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if not p.is_error]

    @cached_property
    def _by_target(self) -> dict[tuple[str, int] | None, list[Problem]]:
        index = defaultdict(list)
        for problem in self.problems:
            index[problem.target_key].append(problem)
        return index

    def about(self, obj) -> list[Problem]:
        """Return the problems of one question or card (a card's include its questions')."""
        own = list(self._by_target.get((type(obj).__name__.lower(), obj.pk), []))
        if isinstance(obj, Card):
            for number, question_pk in self.slots_by_card.get(obj.pk, []):
                own += [
                    Problem(p.code, p.severity, _("Question n°%(n)s : %(msg)s")
                            % {"n": number, "msg": p.message}, p.target, p.game)
                    for p in self._by_target.get(("question", question_pk), [])
                ]
        return own

    def game_wide(self) -> list[Problem]:
        return list(self._by_target.get(None, []))

    def keys_with_problems(self, model, *, errors_only=False) -> set[int]:
        name = model.__name__.lower()
        return {key[1] for key, problems in self._by_target.items()
                if key and key[0] == name and any(p.is_error or not errors_only
                                                  for p in problems)}


class PropositionRow(NamedTuple):
    text: str
    is_right: bool
    is_hidden: bool


@dataclass
class GameContent:
    """One game's content as the checks read it, loaded in a handful of queries."""

    game: GameSpec
    cards: list[Card]
    questions: list[Question]
    propositions: dict[int, list[PropositionRow]]  # by question pk, in order
    card_questions: dict[int, list[Question]]  # by card pk, in order
    placed: set[int]  # pks of the questions that sit on a card


def load_game(slug: str) -> GameContent:
    """Load a game's cards and questions with everything the checks read."""
    game = GAMES[slug]
    kinds = [k.slug for k in game.kinds]
    return _load(game, Question.objects.filter(kind__in=kinds),
                 Card.objects.filter(kind__in=kinds))


def load_some(slug: str, kind: str, *, limit: int, published_only: bool = True,
              refs=None) -> GameContent:
    """Load the first `limit` cards or questions of one kind, as `load_game` would.

    The printer's preview shows one sheet: it has no need for a whole library.
    """
    game = GAMES[slug]
    spec = game.kind(kind)
    model = Card if spec.is_card else Question
    chosen = model.objects.filter(kind=kind)
    if published_only:
        chosen = chosen.filter(status=Status.PUBLISHED)
    if refs is not None:
        chosen = chosen.filter(ref__in=list(refs))
    pks = list(chosen.values_list("pk", flat=True)[:limit])
    if spec.is_card:
        return _load(game, Question.objects.filter(slots__card__in=pks),
                     Card.objects.filter(pk__in=pks))
    return _load(game, Question.objects.filter(pk__in=pks), Card.objects.none())


# What no check reads: the long texts and the audit fields (their dates cost the most to
# convert on a large library).
UNCHECKED = ("anecdote", "source", "created_at", "updated_at", "created_by", "updated_by")


def _load(game: GameSpec, questions_qs, cards_qs) -> GameContent:
    questions = list(questions_qs.defer(*UNCHECKED))
    propositions: dict[int, list[PropositionRow]] = defaultdict(list)
    rows = (Proposition.objects.filter(question__in=questions_qs.values("pk"))
            .order_by("question_id", "position", "id")
            .values_list("question_id", "text", "is_right", "is_hidden"))
    for question_id, *row in rows.iterator(chunk_size=5000):
        propositions[question_id].append(PropositionRow(*row))
    cards = list(cards_qs.select_related("pair"))
    slots = list(CardQuestion.objects.filter(card__in=cards_qs.values("pk"))
                 .order_by("card_id", "position", "id").values_list("card_id", "question_id"))
    by_pk = {q.pk: q for q in questions}
    # A card may hold a question of another game by mistake: load those too.
    strays = {qid for _card, qid in slots if qid not in by_pk}
    by_pk.update(Question.objects.in_bulk(strays))
    card_questions: dict[int, list[Question]] = defaultdict(list)
    for card_id, question_id in slots:
        card_questions[card_id].append(by_pk[question_id])
    placed = set(CardQuestion.objects.filter(question__in=questions_qs.values("pk"))
                 .values_list("question_id", flat=True))
    return GameContent(game, cards, questions, propositions, card_questions, placed)


def check_game(content: GameContent, *, advisory: bool = True) -> Report:
    """Run every rule over one game's loaded content.

    `advisory=False` runs only the rules about each question, card and the ladder: the
    printer uses it, as it measures the fit itself and has no use for the game-wide
    warnings (near-duplicates, coverage) that cost the most on a large library.
    """
    game = content.game
    report = Report(game)
    for question in content.questions:
        report.problems.extend(check_question(
            question, propositions=content.propositions.get(question.pk, []),
            placed=question.pk in content.placed))
    for card in content.cards:
        questions = content.card_questions.get(card.pk, [])
        report.problems.extend(check_card(card, questions=questions))
        report.slots_by_card[card.pk] = [(n, q.pk) for n, q in enumerate(questions, start=1)]
    report.problems.extend(check_ladder(game, content.questions))
    if not advisory:
        return report
    report.problems.extend(check_duplicates(game, content.questions))
    report.problems.extend(check_coverage(game, content.cards, content.questions))
    for rule in EXTRA_RULES:
        report.problems.extend(rule(content))
    return report


def validate_game(slug: str) -> Report:
    """Load one game from the database and return its report."""
    return check_game(load_game(slug))


def validate_all() -> list[Report]:
    return [validate_game(game.slug) for game in content_games()]
