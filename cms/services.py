"""Writes that matter: status changes, card composition, duel pairs.

Each runs the rules of cms.validation and keeps a revision with who did it.
"""

from __future__ import annotations

from collections.abc import Sequence

import reversion
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from .models import STATUS_RANK, Card, CardQuestion, Question, Status
from .validation import Problem, validate_game

# The permission a status change needs, by target status.
STATUS_PERMISSION = {
    Status.DRAFT: "submit",
    Status.REVIEW: "submit",
    Status.PUBLISHED: "publish",
}


class StatusRefused(ValidationError):
    """A status change the rules refuse; `problems` says why."""

    def __init__(self, problems: Sequence[Problem]):
        self.problems = list(problems)
        super().__init__([p.message for p in self.problems], code="status_refused")


def can_set_status(user, model, status: str) -> bool:
    """Tell whether this user may move content of this model to this status."""
    codename = f"{STATUS_PERMISSION[status]}_{model._meta.model_name}"
    return user.has_perm(f"cms.{codename}")


def set_status(*, obj: Question | Card, status: str, user) -> list[Question | Card]:
    """Move a question or card (with its questions and duel twin) to a status.

    Returns what changed. Raises PermissionDenied, or StatusRefused with the problems
    when anything moved up to review or published would carry an error.
    """
    moved, refused = set_status_many(objects=[obj], status=status, user=user)
    if refused:
        raise StatusRefused(refused[obj])
    return moved


def set_status_many(*, objects: Sequence[Question | Card], status: str, user):
    """Move many questions or cards to a status, each with what moves along with it.

    Returns (what changed, {object refused: its problems}). Content is validated once per
    game, not once per object: what already has an error is refused up front, the rest
    moves together, and only when moving together breaks a rule of the whole game (the
    ladder) are they moved one at a time to find which ones cannot go.
    """
    objects = list(objects)
    if any(not can_set_status(user, type(obj), status) for obj in objects):
        raise PermissionDenied
    moved: list[Question | Card] = []
    refused: dict[Question | Card, list[Problem]] = {}
    if status == Status.DRAFT:
        with transaction.atomic():
            return _move(objects, status, user), refused
    by_game: dict[str, list] = {}
    for obj in objects:
        by_game.setdefault(obj.game.slug, []).append(obj)
    for slug, group in by_game.items():
        before = validate_game(slug)
        ready = []
        for obj in group:
            errors = [p for item in _moving_with(obj, status) for p in before.about(item)
                      if p.is_error]
            if errors:
                refused[obj] = _unique(errors)
            else:
                ready.append(obj)
        try:
            moved += _move_checked(ready, status, user, before)
        except StatusRefused:
            for obj in ready:
                try:
                    moved += _move_checked([obj], status, user, before)
                except StatusRefused as refusal:
                    refused[obj] = refusal.problems
                else:
                    before = validate_game(slug)
    return moved, refused


def _moving_with(obj, status) -> list[Question | Card]:
    """Return obj and what moves up with it: a duel twin, and the questions of the cards."""
    items = [obj]
    if isinstance(obj, Card) and status != Status.DRAFT:
        if obj.spec.paired and obj.pair is not None and obj.pair.status != status:
            items.append(obj.pair)
        items += [slot.question for card in list(items) for slot in card.ordered_slots()
                  if STATUS_RANK[slot.question.status] < STATUS_RANK[status]]
    return items


def _move(objects, status, user) -> list[Question | Card]:
    items = [item for obj in objects for item in _moving_with(obj, status)]
    with reversion.create_revision():
        reversion.set_user(user)
        reversion.set_comment(_("Statut : %(status)s") % {"status": Status(status).label})
        for item in items:
            item.status = status
            item.updated_by = user
            item.full_clean()
            item.save()
    return items


def _move_checked(objects, status, user, before) -> list[Question | Card]:
    """Move objects in one transaction; undo it all when the game now breaks a rule."""
    if not objects:
        return []
    with transaction.atomic():
        items = _move(objects, status, user)
        after = validate_game(objects[0].game.slug)
        problems = [p for item in items for p in after.about(item) if p.is_error]
        old = {p.message for p in before.game_wide() if p.is_error}
        problems += [p for p in after.game_wide() if p.is_error and p.message not in old]
        if problems:
            # Leaving the block with an exception rolls the whole move back.
            raise StatusRefused(_unique(problems))
    return items


def _unique(problems: list[Problem]) -> list[Problem]:
    unique = {}
    for p in problems:
        unique.setdefault((p.target_key, p.message), p)
    return list(unique.values())


def after_edit(*, obj: Question | Card, user, changed: bool) -> str | None:
    """Keep statuses honest after an editor saved: return a note for them, if any.

    Content with an error falls back to draft (the edit is kept, never lost); published
    content changed by someone who may not publish goes back to review. A question's
    cards follow the same rules, since what they print has changed with it.
    """
    items = [obj]
    if isinstance(obj, Question):
        items += [slot.card for slot in obj.slots.select_related("card")]
    if all(item.status == Status.DRAFT for item in items):
        return None
    report = validate_game(obj.game.slug)
    notes = []
    for item in items:
        target, note = _settled_status(item, report, user, changed)
        if target is None:
            continue
        with reversion.create_revision():
            reversion.set_user(user)
            reversion.set_comment(note)
            item.status = target
            item.save(update_fields=["status", "updated_at"])
        notes.append(note if item is obj else
                     _("Carte « %(card)s » : %(note)s") % {"card": item, "note": note})
    return " ".join(notes) or None


def _settled_status(item, report, user, changed) -> tuple[str | None, str]:
    """Return the status an edited item must fall back to (None: it keeps its own), and why."""
    if item.status == Status.DRAFT:
        return None, ""
    errors = [p for p in report.about(item) if p.is_error]
    if errors:
        return Status.DRAFT, _(
            "Enregistré en brouillon : %(n)s erreur(s) à corriger avant relecture ou "
            "publication.") % {"n": len(errors)}
    if (changed and item.status == Status.PUBLISHED
            and not can_set_status(user, type(item), Status.PUBLISHED)):
        return Status.REVIEW, _("Modifié après publication : renvoyé en relecture.")
    return None, ""


def card_compose(*, card: Card, questions: Sequence[Question], user=None) -> Card:
    """Put these questions on the card, in this order, replacing what it held."""
    with transaction.atomic(), reversion.create_revision():
        if user is not None:
            reversion.set_user(user)
        card.slots.all().delete()
        for position, question in enumerate(questions, start=1):
            slot = CardQuestion(card=card, question=question, position=position)
            slot.full_clean()
            slot.save()
        card.save()
    return card


def duel_pair(*, card: Card, partner: Card | None, user=None) -> None:
    """Make two duel cards each other's twin, releasing their former twins."""
    with transaction.atomic(), reversion.create_revision():
        if user is not None:
            reversion.set_user(user)
        for one, other in ((card, partner), (partner, card)):
            if one is None:
                continue
            Card.objects.filter(pair=one).exclude(pk=getattr(other, "pk", None)).update(pair=None)
            one.pair = other
            one.full_clean()
            one.save()
