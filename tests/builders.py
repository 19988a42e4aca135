"""Build test content in code: valid by default, broken on purpose by the arguments."""

import functools
import io
import itertools

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils import timezone

from cms.games import kind_of
from cms.models import Card, CardQuestion, Proposition, Question, Status
from cms.services import refresh_search

_numbers = itertools.count(1)

# Distinct words so that no two built questions look like near-duplicates.
_WORDS = ("Amiens", "Brest", "Colmar", "Dijon", "Évreux", "Foix", "Gap", "Hyères", "Istres",
          "Jarnac", "Laval", "Mende", "Nancy", "Orléans", "Pau", "Quimper", "Rodez", "Sète",
          "Tulle", "Uzès", "Vannes", "Albi", "Blois", "Cahors")


def unique_text(prefix="Question") -> str:
    n = next(_numbers)
    words = " ".join(_WORDS[(n * k) % len(_WORDS)] for k in (1, 3, 7))
    return f"{prefix} n°\u00a0{n} sur {words} {n * 7919}\u202f?"  # as stored: French typography


@functools.cache
def _test_picture():
    """Return a picture as the product stores an upload: checked, re-encoded, named by hash."""
    from PIL import Image, ImageDraw

    from cms.images import clean_image

    picture = Image.new("RGB", (1000, 750), "#f4e3c1")
    ImageDraw.Draw(picture).ellipse((250, 125, 750, 625), fill="#c8102e")
    data = io.BytesIO()
    picture.save(data, "PNG")
    return clean_image(data.getvalue())


def test_image() -> str:
    """Store a picture large enough to print sharp on an étoile fiche; return its name."""
    cleaned = _test_picture()
    if not default_storage.exists(cleaned.storage_name):
        default_storage.save(cleaned.storage_name, ContentFile(cleaned.content))
    return cleaned.storage_name


def make_question(kind: str, *, difficulty=2, status=Status.DRAFT, step=None, text=None,
                  propositions=None, answer=None, image="", **fields) -> Question:
    """Create a question that satisfies its kind's composition unless told otherwise."""
    spec = kind_of(kind)
    if spec.ladder and step is None:
        step = 1
    if answer is None:
        answer = "Réponse" if spec.free_answer else ""
    if status == Status.PUBLISHED:
        fields.setdefault("first_published_at", timezone.now())
    question = Question.objects.create(
        kind=kind, text=text or unique_text(), difficulty=difficulty, status=status, step=step,
        answer=answer, image=image or (test_image() if spec.needs_image else ""),
        **fields,
    )
    if propositions is None:
        propositions = default_propositions(spec)
    Proposition.objects.bulk_create(
        Proposition(question=question, position=i, text=text, is_right=right, is_hidden=hidden)
        for i, (text, right, hidden) in enumerate(propositions, start=1)
    )
    # Built without the services, it is searchable as if written through them.
    refresh_search(questions=[question.pk])
    question.refresh_from_db(fields=["search_text"])
    return question


def default_propositions(spec) -> list[tuple[str, bool, bool]]:
    """Return (text, right, hidden) rows matching the kind's composition."""
    rows = []
    for i in range(spec.propositions):
        right = i < spec.right
        hidden = i >= spec.propositions - spec.hidden
        rows.append((f"Proposition {i + 1}", right, hidden))
    return rows


def make_card(kind: str, *, difficulties=None, status=Status.DRAFT, title="Carte de test",
              questions=None, **fields) -> Card:
    """Create a card holding a full, valid set of questions unless told otherwise."""
    spec = kind_of(kind)
    if status == Status.PUBLISHED:
        fields.setdefault("first_published_at", timezone.now())
    card = Card.objects.create(kind=kind, title=title, status=status, **fields)
    if questions is None:
        if difficulties is None:
            difficulties = list(range(1, spec.questions_per_card + 1)) if spec.difficulty_order \
                else [2] * spec.questions_per_card
            difficulties = [min(d, 5) for d in difficulties]
        questions = [make_question(kind, difficulty=d, status=status) for d in difficulties]
    for position, question in enumerate(questions, start=1):
        CardQuestion.objects.create(card=card, question=question, position=position)
    refresh_search(cards=[card.pk])
    card.refresh_from_db(fields=["search_text"])
    return card


def make_duel_pair(*, status=Status.DRAFT, title="Les fleuves", colour="bleu"):
    first = make_card("duel", status=status, title=title, colour=colour)
    second = make_card("duel", status=status, title=title, colour=colour, pair=first)
    first.pair = second
    first.save()
    return first, second
