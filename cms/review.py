"""What the admin home shows editors: the review queue and « mes brouillons » (reads only).

A pending correction is « returned » to its author while a « demande de corrections »
written after its last save is still open: it waits for its author, not for review.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Exists, OuterRef, Q, Subquery
from django.urls import reverse

from . import services
from .games import game_of
from .models import Card, Comment, CommentKind, Correction, CorrectionState, Question, Status

MODELS = (Question, Card)
LIMIT = 50  # rows per list: the counts per game say how many there are in all


@dataclass(frozen=True)
class Row:
    """One line of a list on the home page."""

    obj: Question | Card
    what: str  # "review", "correction", "draft"
    since: datetime
    who: object  # the user the row is about (author of the change), or None
    open_comments: int
    url: str
    reason: str = ""  # the open « demande de corrections », for content sent back

    @property
    def game(self):
        return game_of(self.obj.kind)

    @property
    def kind_label(self) -> str:
        return str(self.obj.spec.label)


def _open_comments():
    return Count("comments", filter=Q(comments__resolved_at__isnull=True), distinct=True)


def _open_requests(owner: str, *, after: str | None = None):
    """The open « demandes de corrections » of the content OuterRef names (written after the
    field `after` of the outer row, if given), newest first."""
    requests = Comment.objects.filter(**{owner: OuterRef("pk" if after is None else owner)},
                                      kind=CommentKind.CHANGES_REQUESTED,
                                      resolved_at__isnull=True)
    if after is not None:
        requests = requests.filter(created_at__gt=OuterRef(after))
    return requests.order_by("-created_at", "-pk")


def _url(obj) -> str:
    return reverse(f"admin:cms_{type(obj).__name__.lower()}_change", args=[obj.pk])


def _returned_corrections(owner: str):
    return Correction.objects.filter(state=CorrectionState.PENDING).annotate(
        returned=Exists(_open_requests(owner, after="updated_at")),
        request=Subquery(_open_requests(owner, after="updated_at").values("text")[:1]))


def review_queue(user) -> list[Row]:
    """Return what awaits this reviewer: content in review and pending corrections (not
    returned to their author), oldest first."""
    rows = []
    for model in MODELS:
        if not services.can_publish(user, model):
            continue
        owner = model._meta.model_name
        in_review = (model.objects.filter(status=Status.REVIEW)
                     .select_related("updated_by", "created_by")
                     .annotate(open_comments=_open_comments()))
        rows += [Row(obj, "review", obj.updated_at, obj.updated_by or obj.created_by,
                     obj.open_comments, _url(obj)) for obj in in_review]
        corrections = (_returned_corrections(owner).filter(**{f"{owner}__isnull": False},
                                                           returned=False)
                       .select_related(owner, "updated_by"))
        counts = dict(model.objects.filter(corrections__in=corrections)
                      .annotate(open_comments=_open_comments())
                      .values_list("pk", "open_comments"))
        rows += [Row(c.target, "correction", c.updated_at, c.updated_by,
                     counts.get(c.target.pk, 0), _url(c.target)) for c in corrections]
    rows.sort(key=lambda row: row.since)
    return rows


def my_drafts(user) -> list[Row]:
    """Return this editor's drafts (written or last changed by them) and their corrections
    sent back to them: what was sent back first, with the reason, then the newest."""
    rows = []
    for model in MODELS:
        if not services.can_edit(user, model):
            continue
        owner = model._meta.model_name
        drafts = (model.objects.filter(Q(created_by=user) | Q(updated_by=user),
                                       status=Status.DRAFT)
                  .annotate(open_comments=_open_comments(),
                            reason=Subquery(_open_requests(owner).values("text")[:1])))
        rows += [Row(obj, "draft", obj.updated_at, obj.updated_by, obj.open_comments,
                     _url(obj), obj.reason or "") for obj in drafts]
        returned = (_returned_corrections(owner)
                    .filter(Q(created_by=user) | Q(updated_by=user),
                            **{f"{owner}__isnull": False}, returned=True)
                    .select_related(owner, "updated_by"))
        counts = dict(model.objects.filter(corrections__in=returned)
                      .annotate(open_comments=_open_comments())
                      .values_list("pk", "open_comments"))
        rows += [Row(c.target, "correction", c.updated_at, c.updated_by,
                     counts.get(c.target.pk, 0), _url(c.target), c.request) for c in returned]
    rows.sort(key=lambda row: (not row.reason, -row.since.timestamp()))
    return rows


def per_game(rows: list[Row]) -> list[tuple[str, int]]:
    """Return how many rows each game has, by game name."""
    return sorted(Counter(str(row.game.name) for row in rows).items())


def home_context(user) -> dict:
    """Return the lists the admin home shows this user (empty ones for a reader)."""
    queue, drafts = review_queue(user), my_drafts(user)
    return {"review_queue": queue[:LIMIT], "review_total": len(queue),
            "review_per_game": per_game(queue), "my_drafts": drafts[:LIMIT],
            "drafts_total": len(drafts), "drafts_per_game": per_game(drafts),
            "sent_back_total": sum(bool(row.reason) for row in drafts),
            "can_review": any(services.can_publish(user, m) for m in MODELS),
            "can_write": any(services.can_edit(user, m) for m in MODELS)}
