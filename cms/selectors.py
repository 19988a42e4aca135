"""Read the content out of the database into what the rules take: the only queries they need.

The rules (`cms.validation`, composed in `cms.rules`) never query: they read a
`GameContent` loaded here in a handful of queries, or the relations a caller passes in.
"""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Count, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce

from .games import GAMES
from .games.spec import GameSpec
from .models import Card, CardQuestion, Proposition, Question, Status
from .validation import GameContent, PropositionRow

# What no rule reads: the audit fields (their dates cost the most to convert on a large
# library).
UNCHECKED = ("created_at", "updated_at", "created_by", "updated_by")


def load_game(slug: str) -> GameContent:
    """Load a game's cards and questions with everything the rules read."""
    game = GAMES[slug]
    kinds = [k.slug for k in game.kinds]
    if not kinds:  # a game without content to edit (The Mind, Le Minotaure)
        return GameContent(game, [], [], {}, {}, set())
    # A card is only ever of a card kind (a constraint of the table): a game of questions
    # alone has none to look for.
    return _load(game, Question.objects.filter(kind__in=kinds),
                 Card.objects.filter(kind__in=kinds) if game.card_kinds else None)


def load_part(slug: str, *, questions: set[int], cards: set[int]) -> GameContent:
    """Load these questions and cards of a game (by pk; others are left out), as `load_game`
    would: what a kept report checks again after a change."""
    game = GAMES[slug]
    kinds = [k.slug for k in game.kinds]
    return _load(game, Question.objects.filter(kind__in=kinds, pk__in=list(questions)),
                 Card.objects.filter(kind__in=kinds, pk__in=list(cards)))


def load_some(slug: str, kind: str, *, limit: int | None, published_only: bool = True,
              refs=None) -> GameContent:
    """Load the first `limit` cards or questions of one kind (None: all), as `load_game` would.

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
    return _load(game, Question.objects.filter(pk__in=pks), None)


def _load(game: GameSpec, questions_qs, cards_qs) -> GameContent:
    """Load the questions of `questions_qs` and the cards of `cards_qs` (None: no cards)."""
    questions = list(questions_qs.defer(*UNCHECKED))
    # Their pks, as a subquery: without the model's ordering, which a subquery has no use of
    # and which Django would work out each time.
    question_pks = questions_qs.order_by().values("pk")
    propositions: dict[int, list[PropositionRow]] = defaultdict(list)
    rows = (Proposition.objects.filter(question__in=question_pks)
            .order_by("question_id", "position", "id")
            .values_list("question_id", "text", "is_right", "is_hidden"))
    for question_id, text, is_right, is_hidden in rows.iterator(chunk_size=5000):
        propositions[question_id].append(PropositionRow(text, is_right, is_hidden))
    # Each card's twin comes with it: the pairing rule reads `card.pair`.
    cards: list[Card] = []
    slots: list[tuple[int, int]] = []
    if cards_qs is not None:
        cards = list(cards_qs.select_related("pair"))
        slots = list(CardQuestion.objects.filter(card__in=cards_qs.order_by().values("pk"))
                     .order_by("card_id", "position", "id")
                     .values_list("card_id", "question_id"))
    by_pk = {q.pk: q for q in questions}
    # A card may hold a question of another game by mistake: load those too.
    strays = {qid for _card, qid in slots if qid not in by_pk}
    by_pk.update(Question.objects.in_bulk(strays))
    card_questions: dict[int, list[Question]] = defaultdict(list)
    for card_id, question_id in slots:
        card_questions[card_id].append(by_pk[question_id])
    placed = set(CardQuestion.objects.filter(question__in=question_pks)
                 .values_list("question_id", flat=True))
    answers = {pk: (count, right) for pk, count, right in (
        Question.objects.filter(pk__in=question_pks).order_by()
        .annotate(**answer_counts()).filter(answer_count__gt=0)
        .values_list("pk", "answer_count", "right_count"))}
    return GameContent(game, cards, questions, propositions, card_questions, placed, answers)


def answer_counts() -> dict[str, Coalesce]:
    """Return the annotations that count a question's answers in play and its right ones.

    The admin's columns and the report both count with these. The answers' model is found
    through the reverse relation `answers`: cms imports nothing of the player. Counted in
    subqueries, not over a join: the admin's search joins the propositions, and a joined
    count would be multiplied by them.
    """
    answer_model = Question._meta.get_field("answers").related_model
    if not isinstance(answer_model, type):  # a resolved relation names a class, never "self"
        raise TypeError("Question.answers should be the reverse relation of an answer model.")
    answers = (answer_model._default_manager
               .filter(question=OuterRef("pk")).order_by().values("question"))

    def count(rows):
        return Coalesce(Subquery(rows.annotate(n=Count("pk")).values("n")), 0)

    return {"answer_count": count(answers),
            "right_count": count(answers.filter(Q(right=True) | Q(overridden=True)))}
