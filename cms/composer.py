"""The card composer: a card's questions written or picked on the card's own page.

The page sends the composition as JSON (`POSTED`), one entry per slot in order: a question
picked (`{"question": pk}`) or a new one (`{"text", "difficulty", "propositions"…}`).
`read` turns it into what `services.card_compose_new` writes; `check` runs the rules of
cms.validation on it unsaved, for the page to show each slot's problems as the editor types.
"""

from __future__ import annotations

import dataclasses
import json

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext as _

from .games import KINDS
from .games.spec import DIFFICULTY_MAX, DIFFICULTY_MIN, ContentKind
from .models import Card, Question, Status
from .validation import PropositionRow, check_card, check_question

POSTED = "plateau_composer"
MAX_SLOTS = 60  # more than any card holds: a page that sends more is not the composer's
MAX_ID = 2**63 - 1  # the largest id a database holds: a larger one overflows the query
TEXT_FIELDS = ("text", "theme", "answer", "variants")


def unreadable() -> ValidationError:
    return ValidationError(_("La composition de la carte est illisible : rechargez la page."),
                           code="composer_unreadable")


def parse(raw: str) -> list:
    """Return the posted composition as a list of slot entries, or refuse it."""
    try:
        value = json.loads(raw)
    except ValueError:
        raise unreadable() from None
    if not isinstance(value, list) or len(value) > MAX_SLOTS or not all(
            isinstance(item, dict) for item in value):
        raise unreadable()
    return value


def _difficulty(value) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    text = str(value or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 2 else None


def new_question(item: dict, kind: ContentKind) -> dict | None:
    """Return a new question's snapshot from a slot entry, None when the slot is blank.

    Only what the kind has is kept: a free answer sent for a kind without one is ignored.
    """
    texts = {name: str(item.get(name) or "").strip() for name in TEXT_FIELDS}
    posted = item.get("propositions")
    rows: list = posted if isinstance(posted, list) else []
    propositions = [
        {"text": str(row.get("text") or "").strip(), "is_right": bool(row.get("is_right")),
         "is_hidden": bool(row.get("is_hidden"))}
        for row in rows[:kind.propositions] if isinstance(row, dict)]
    propositions = [row for row in propositions if row["text"]]
    if not kind.free_answer:
        texts["answer"] = texts["variants"] = ""
    if not texts["text"] and not propositions and not texts["answer"]:
        return None
    return {**texts, "difficulty": _difficulty(item.get("difficulty")),
            "propositions": propositions}


def written_question(slot: dict, kind_slug: str) -> tuple[Question, list[PropositionRow]]:
    """Return a slot written on the page (`new_question`) as an unsaved draft question and
    its propositions in order: what saving the card would write."""
    question = Question(kind=kind_slug, status=Status.DRAFT, text=slot["text"],
                        answer=slot["answer"], variants=slot["variants"],
                        difficulty=slot["difficulty"], theme=slot["theme"])
    rows = [PropositionRow(row["text"], row["is_right"], row["is_hidden"])
            for row in slot["propositions"]]
    return question, rows


def read(raw: str, kind: ContentKind) -> list[int | dict | None]:
    """Return the posted composition as slots: a question pk, a new question, None (blank)."""
    slots: list[int | dict | None] = []
    for item in parse(raw):
        picked = item.get("question")
        if picked is not None:
            if isinstance(picked, bool) or not isinstance(picked, int) or not (
                    -MAX_ID <= picked <= MAX_ID):
                raise unreadable()
            slots.append(picked)
        else:
            slots.append(new_question(item, kind))
    return slots


def id_or_none(value: str) -> int | None:
    """Return the id a request's parameter names, None when it is no id (`²`, 30 digits…)."""
    text = (value or "").strip()
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(MAX_ID)):
        return None
    number = int(text)
    return number if number <= MAX_ID else None


# --- what the page shows of a question ------------------------------------------------------


def question_state(question: Question) -> dict:
    """Return a saved question as the composer shows it: text, difficulty, answers."""
    return {
        "question": question.pk,
        "text": question.text,
        "difficulty": question.difficulty,
        "answer": question.answer,
        "status": question.get_status_display(),
        "propositions": [{"text": p.text, "is_right": p.is_right, "is_hidden": p.is_hidden}
                         for p in question.propositions.all()],
        "url": reverse("admin:cms_question_change", args=[question.pk]),
    }


def states_of(pks: list[int]) -> list[dict]:
    """Return the composer's state of these saved questions, in this order."""
    pks = [pk for pk in pks if -MAX_ID <= pk <= MAX_ID]
    known = Question.objects.prefetch_related("propositions").in_bulk(pks)
    return [question_state(known[pk]) for pk in pks if pk in known]


def shown_slots(raw: str | None, shown_pks: list[int], kind: ContentKind | None) -> list[dict]:
    """Return the slots to show: as posted (after a refusal, the input kept), else saved."""
    if raw is None:
        return states_of(shown_pks)
    try:
        items = parse(raw)
    except ValidationError:
        return states_of(shown_pks)
    picked = {state["question"]: state for state in states_of(
        [item["question"] for item in items if isinstance(item.get("question"), int)])}
    return [picked.get(item.get("question"), {}) if item.get("question") is not None
            else {name: item.get(name) for name in (*TEXT_FIELDS, "difficulty",
                                                    "propositions")}
            for item in items]


def pickable(kind: str, card_pk: int | None):
    """Return the questions a card of this kind may take: of its kind, on no other card."""
    free = Q(slots__isnull=True)
    if card_pk is not None:
        free |= Q(slots__card=card_pk)
    return Question.objects.filter(free, kind=kind)


# --- the rules, on the composition as it stands ---------------------------------------------


def _problem(numbers: list[int], message: str, severity: str = "error") -> dict:
    return {"slots": numbers, "message": message, "severity": severity}


def problem_slots(problem, kind: ContentKind, numbers: list[int]) -> list[int]:
    """Return the page's slot numbers a card's problem is about (`numbers`: by position)."""
    params = dict(problem.params)
    if "position" in params:
        return [numbers[params["position"] - 1]]
    formats = {params.get("harder"), params.get("easier")} - {None}
    return [number for position, number in enumerate(numbers)
            if position < len(kind.slot_formats) and kind.slot_formats[position] in formats]


def check(*, kind_slug: str, title: str, slots: list[int | dict | None],
          card: Card | None = None) -> list[dict]:
    """Return the problems of a card as composed on the page, each with its slots' numbers.

    New questions are checked unsaved against their kind, the card against its kind's
    order rule, by the same functions of cms.validation that judge saved content.
    """
    kind = KINDS[kind_slug][1]
    picked = Question.objects.prefetch_related("propositions").in_bulk(
        [slot for slot in slots if isinstance(slot, int)])
    found: list[dict] = []
    placed: list[tuple[int, Question]] = []
    for number, slot in enumerate(slots, start=1):
        if slot is None:
            continue
        if isinstance(slot, int):
            question = picked.get(slot)
            if question is None:
                found.append(_problem([number], _("Question n°%(n)s : elle n’existe plus.") % {
                    "n": number}))
                continue
            rows = [PropositionRow(p.text, p.is_right, p.is_hidden)
                    for p in question.propositions.all()]
        else:
            question, rows = written_question(slot, kind_slug)
            if not slot["text"]:
                found.append(_problem([number], _("Question n°%(n)s : le texte manque.") % {
                    "n": number}))
        placed.append((number, question))
        if not isinstance(question.difficulty, int) or not (
                DIFFICULTY_MIN <= question.difficulty <= DIFFICULTY_MAX):
            found.append(_problem([number], _(
                "Question n°%(n)s : la difficulté va de %(low)s à %(high)s.") % {
                "n": number, "low": DIFFICULTY_MIN, "high": DIFFICULTY_MAX}))
            continue
        found += [_problem([number], dataclasses.replace(p, slot=number).message, p.severity)
                  for p in check_question(question, propositions=rows, placed=True)]
    complete = all(isinstance(q.difficulty, int) for _n, q in placed)
    if complete:
        candidate = Card(kind=kind_slug, title=title,
                         status=card.status if card is not None else Status.DRAFT)
        numbers = [number for number, _q in placed]
        for p in check_card(candidate, questions=[q for _n, q in placed], partner=None):
            if not p.code.startswith("pair_"):
                found.append(_problem(problem_slots(p, kind, numbers), p.message, p.severity))
    return found
