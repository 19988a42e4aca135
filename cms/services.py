"""Every write to content: edits, corrections, restores, status changes, deletions, imports.

The admin, the importers and the commands all come through here, so each rule is written
once:
- every write runs `full_clean()`, keeps a revision with who did it, and counts the live
  row's `version`; a write made from an older version is refused (`StaleEdit`);
- published content stays live while it is corrected: an edit of it waits beside it as a
  `Correction` until a Relecteur publishes it (a Relecteur's own edit goes live at once
  when it is sound);
- no write ever leaves published content with an error it did not have (`guard`);
- only a Relecteur publishes, withdraws (with a reason) and deletes; a Rédacteur deletes
  only their own drafts that were never published.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field

import reversion
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import FieldDoesNotExist, PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_noop, ngettext
from django.utils.translation import gettext as _
from reversion.models import Version

from . import change_log, search, shapes, snapshots
from .games import GAMES, KINDS
from .images import CleanImage, clean_image, crop_image, read_upload, store_clean_image
from .models import (
    STATUS_RANK,
    Card,
    CardQuestion,
    Comment,
    CommentKind,
    Correction,
    CorrectionState,
    Proposition,
    Question,
    Status,
    Theme,
    new_ref,
)
from .rules import validate_game
from .typography import typeset
from .validation import Problem, check_card, check_question, new_errors

# The permission a status change needs, by target status.
STATUS_PERMISSION = {
    Status.DRAFT: "submit",
    Status.REVIEW: "submit",
    Status.PUBLISHED: "publish",
}


def site_text(message: str, **params) -> str:
    """Translate a history comment (marked with gettext_noop) into the site's language,
    whoever's page wrote it: the history is read by every editor."""
    with translation.override(settings.LANGUAGE_CODE):
        text = gettext(message)
        return text % {k: str(v) for k, v in params.items()} if params else text


# --- refusals -----------------------------------------------------------------------------


class Refused(ValidationError):
    """A write the rules refuse; `problems` says why (nothing was written)."""

    def __init__(self, problems: Sequence[Problem] = (), *, messages: Sequence[str] = (),
                 code: str = "refused"):
        self.problems = list(problems)
        self.reasons = [*[p.message for p in self.problems], *messages]
        super().__init__(self.reasons or [_("Refusé.")], code=code)


class StatusRefused(Refused):
    """A status change the rules refuse."""

    def __init__(self, problems: Sequence[Problem] = (), *, messages: Sequence[str] = ()):
        super().__init__(problems, messages=messages, code="status_refused")


class EditRefused(Refused):
    """An edit, restore, deletion or import that would break a rule (of other content,
    often: each reason names what it is about)."""

    def __init__(self, problems: Sequence[Problem] = (), *, messages: Sequence[str] = ()):
        super().__init__(problems, messages=messages, code="edit_refused")
        self.reasons = [
            *[_("« %(target)s » : %(msg)s") % {"target": p.target, "msg": p.message}
              if p.target is not None else p.message for p in self.problems], *messages]


class StaleEdit(ValidationError):
    """A write made from a page older than the content: `changes` is what changed since."""

    def __init__(self, obj, changes: list[snapshots.Change], *, by=None, at=None):
        self.obj, self.changes, self.by, self.at = obj, changes, by, at
        super().__init__(self.describe(), code="stale_edit")

    def describe(self, *, in_form: bool = True) -> str:
        who = self.by.get_username() if self.by is not None else _("quelqu’un")
        if in_form:
            head = _("« %(obj)s » a été modifié par %(who)s pendant que vous l’éditiez : rien "
                     "n’a été enregistré, votre saisie est restée dans le formulaire.") % {
                "obj": self.obj, "who": who}
        else:
            head = _("« %(obj)s » a été modifié par %(who)s depuis que vous l’avez ouvert : "
                     "rien n’a été fait.") % {"obj": self.obj, "who": who}
        if not self.changes:
            return head
        return _("%(head)s Modifié entre-temps : %(changes)s") % {
            "head": head, "changes": describe_changes(self.changes)}


def describe_changes(changes: list[snapshots.Change]) -> str:
    """Return changes on one line, as editors read them in a message."""
    return " · ".join(_("%(what)s : « %(before)s » → « %(after)s »") % {
        "what": c.label, "before": c.before, "after": c.after} for c in changes)


class CorrectionOutdated(Refused):
    """A correction written against a published version that has changed since."""

    def __init__(self, changes: list[snapshots.Change]):
        self.changes = changes
        detail = describe_changes(changes)
        super().__init__(messages=[_(
            "La version publiée a changé depuis que cette correction a été proposée ; "
            "ouvrez la correction, vérifiez-la et enregistrez-la avant de la publier. "
            "Changé dans la version publiée : %(detail)s") % {"detail": detail or "—"}],
            code="correction_outdated")


# --- who may do what ----------------------------------------------------------------------


def _perm(user, action: str, model) -> bool:
    """Tell whether user may; no user is the command line, run by whoever owns the site."""
    return user is None or user.has_perm(f"cms.{action}_{model._meta.model_name}")


def can_set_status(user, model, status: str) -> bool:
    """Tell whether this user may move content of this model to this status."""
    return _perm(user, STATUS_PERMISSION[status], model)


def can_publish(user, model) -> bool:
    return _perm(user, "publish", model)


def can_edit(user, model) -> bool:
    return _perm(user, "change", model)


def can_delete(user, obj) -> bool:
    """Relecteur deletes anything; a Rédacteur only their own never-published drafts."""
    model = type(obj)
    if not _perm(user, "delete", model):
        return False
    if can_publish(user, model):
        return True
    return (obj.status == Status.DRAFT and not obj.was_published
            and obj.created_by_id is not None and obj.created_by_id == user.pk)


def can_withdraw(user, obj) -> bool:
    return can_publish(user, type(obj))


def can_discard(user, correction: Correction) -> bool:
    model = Question if correction.question_id else Card
    return can_publish(user, model) or (
        correction.created_by_id is not None and correction.created_by_id == user.pk
        and can_edit(user, model))


def can_recover(user, model) -> bool:
    return _perm(user, "add", model) or _perm(user, "delete", model)


# --- versions and conflicts ---------------------------------------------------------------


def token_of(obj) -> str:
    """Return what an editor's page or an import preview was built on: the live version and
    the pending correction's revision, if any."""
    if obj is None or obj.pk is None:
        return "new"
    correction = obj.pending_correction()
    if correction is None:
        return str(obj.version)
    return f"{obj.version}.{correction.pk}.{correction.revision}"


def tokens_for(model, refs: Iterable[str]) -> dict[str, str]:
    """Return `token_of` for many objects at once, by ref (refs unknown are left out)."""
    refs = [ref for ref in set(refs) if ref]
    tokens = {}
    for start in range(0, len(refs), 900):
        chunk = refs[start:start + 900]
        rows = dict(model.objects.filter(ref__in=chunk).values_list("ref", "version"))
        tokens.update({ref: str(version) for ref, version in rows.items()})
        owner = model._meta.model_name
        pending = Correction.objects.filter(
            **{f"{owner}__ref__in": chunk}, state=CorrectionState.PENDING
        ).values_list(f"{owner}__ref", "pk", "revision")
        for ref, pk, revision in pending:
            tokens[ref] = f"{rows[ref]}.{pk}.{revision}"
    return tokens


def shown_state(obj) -> dict:
    """Return what an editor sees of obj: its pending correction, else its live state."""
    correction = obj.pending_correction()
    if correction is not None:
        return {**correction.data, "status": obj.status}
    return snapshots.of_object(obj)


def check_token(obj, token: str | None, *, seen: dict | None = None) -> None:
    """Refuse with what changed since, when obj moved on from the version `token` names."""
    if token is None:
        return
    fresh = type(obj).objects.select_for_update().get(pk=obj.pk)
    if token_of(fresh) == token:
        return
    correction = fresh.pending_correction()
    by = correction.updated_by if correction else fresh.updated_by
    at = correction.updated_at if correction else fresh.updated_at
    changes = snapshots.diff(type(obj), seen, shown_state(fresh)) if seen else []
    raise StaleEdit(fresh, changes, by=by, at=at)


# --- the guard: published content never gains an error ------------------------------------


@contextmanager
def guard(slugs: Iterable[str]):
    """Refuse (and roll back) writes that leave published content with a new error.

    Run inside a transaction: the body writes, then every game it touched is checked again;
    an error that is new or worse on published content (or game-wide) raises EditRefused.
    """
    slugs = sorted(set(slugs))
    before = {slug: validate_game(slug) for slug in slugs}
    yield
    bad = []
    for slug in slugs:
        after = validate_game(slug)
        bad += [p for p in new_errors(after.problems, before[slug].problems)
                if p.target is None or p.target.status == Status.PUBLISHED]
    if bad:
        raise EditRefused(_unique(bad))


def _unique(problems: list[Problem]) -> list[Problem]:
    unique = {}
    for p in problems:
        unique.setdefault(p.key, p)
    return list(unique.values())


# --- writing one question or card ---------------------------------------------------------


@dataclass
class Saved:
    """What a save did: the live object, the correction it left waiting, notes for the user."""

    obj: Question | Card
    correction: Correction | None = None
    notes: list[str] = field(default_factory=list)
    changed: bool = True


def _keep(obj, user, comment: str) -> None:
    """Record obj as it now is, with its propositions or slots, in the open revision."""
    reversion.set_user(user if getattr(user, "pk", None) else None)
    if comment:
        reversion.set_comment(str(comment))
    reversion.add_to_revision(obj)
    for child in getattr(obj, snapshots.children_key(type(obj))).all():
        reversion.add_to_revision(child)


def _store_image(value) -> str:
    """Return the stored name of an image field's value, storing an upload clean first."""
    if value is None or value is False:
        return ""
    if isinstance(value, str):
        return value
    if hasattr(value, "name") and not hasattr(value, "storage"):  # an uploaded file
        # Checked again here, not trusted from the form: services are the one way in.
        value = clean_image(read_upload(value), path=value.name)
    if isinstance(value, CleanImage):
        store_clean_image(value)
        return value.storage_name
    return getattr(value, "name", "") or ""


def _normalise(model, data: dict) -> dict:
    """Return a snapshot with the stored image name and JSON-friendly values."""
    data = dict(data)
    if model is Question:
        data["image"] = _store_image(data.get("image"))
        data["propositions"] = [
            {"text": row.get("text", ""), "is_right": bool(row.get("is_right")),
             "is_hidden": bool(row.get("is_hidden"))} for row in data.get("propositions", [])]
    else:
        pair = data.get("pair")
        data["pair"] = getattr(pair, "pk", pair)
        data["slots"] = [getattr(q, "pk", q) for q in data.get("slots", [])]
    return typeset_data(model, data)


def _check_slots(card: Card, slots: list[int], *, movable: Iterable[int] = ()) -> None:
    """Refuse slots naming a question that is gone or sits on another card."""
    errors = []
    known = Question.objects.in_bulk(slots)
    if len(set(slots)) != len(slots):
        errors.append(ValidationError(_("Une question est deux fois sur la carte."),
                                      code="question_repeated"))
    for pk in slots:
        if pk not in known:
            errors.append(ValidationError(
                _("La question n°%(pk)s n’existe plus."), code="question_gone",
                params={"pk": pk}))
    elsewhere = (CardQuestion.objects.filter(question__in=slots).exclude(card=card.pk)
                 .exclude(card__in=list(movable)).select_related("card", "question"))
    for slot in elsewhere:
        errors.append(ValidationError(
            _("La question « %(q)s » est déjà sur la carte « %(card)s »."),
            code="question_on_another_card", params={"q": slot.question, "card": slot.card}))
    if errors:
        raise ValidationError({"slots": errors})


def _write_live(obj, data: dict, user) -> None:
    """Write a snapshot onto the live row, its propositions or slots, and its version."""
    model = type(obj)
    former_pair = None if obj._state.adding or model is Question else obj.pair_id
    former_game = None if obj._state.adding else obj.game.slug
    snapshots.apply_fields(obj, data)
    if obj._state.adding:
        if obj.created_by_id is None:
            obj.created_by = user if getattr(user, "pk", None) else None
        obj.version = 1
    else:
        obj.version += 1
    obj.updated_by = user if getattr(user, "pk", None) else None
    if model is Card:
        obj.pair_id = former_pair  # twins change together, below
    else:
        _ensure_themes([obj])
    obj.full_clean()
    obj.save()
    if model is Question:
        _write_propositions(obj, snapshots.propositions_of(data))
        refresh_search(questions=[obj.pk])
    else:
        slots = data.get("slots", [])
        _check_slots(obj, slots)
        _write_slots(obj, slots)
        refresh_search(cards=[obj.pk])
        if "pair" in data and data["pair"] != former_pair:
            partner = Card.objects.filter(pk=data["pair"]).first() if data["pair"] else None
            if data["pair"] and partner is None:
                raise ValidationError({"pair": ValidationError(
                    _("La carte jumelle n’existe plus."), code="pair_gone")})
            _pair(obj, partner)
    change_log.record([obj], games=[former_game] if former_game else [])


def _write_propositions(question: Question, wanted: list[Proposition]) -> None:
    """Make the question's propositions these, updating rows in place by position."""
    current = list(question.propositions.order_by("position", "id"))
    for row, new in zip(current, wanted, strict=False):
        row.position, row.text, row.is_right, row.is_hidden = (
            new.position, new.text, new.is_right, new.is_hidden)
        row.full_clean()
        row.save()
    for row in current[len(wanted):]:
        row.delete()
    for new in wanted[len(current):]:
        new.question = question
        new.full_clean()
        new.save()


def _write_slots(card: Card, questions: list[int]) -> None:
    current = list(card.slots.order_by("position", "id"))
    if [s.question_id for s in current] == list(questions):
        return
    card.slots.all().delete()
    for position, pk in enumerate(questions, start=1):
        slot = CardQuestion(card=card, question_id=pk, position=position)
        slot.full_clean(validate_constraints=False)
        slot.save()


def _pair(card: Card, partner: Card | None) -> None:
    """Make two duel cards each other's twin, releasing their former twins."""
    if partner is not None and partner.pk == card.pk:
        raise ValidationError({"pair": ValidationError(
            _("Une carte ne peut pas être sa propre jumelle."), code="pair_self")})
    keep = [c.pk for c in (card, partner) if c is not None]
    # The other cards change too; the card's own write is counted by its caller.
    bump = {"version": F("version") + 1}
    released = Card.objects.filter(pair__in=keep).exclude(pk__in=keep)
    change_log.record([card, partner, *released.only("pk", "kind")])
    released.update(pair=None, **bump)
    Card.objects.filter(pk=card.pk).update(pair=partner)
    card.pair = partner
    if partner is not None:
        Card.objects.filter(pk=partner.pk).exclude(pair=card).update(pair=card, **bump)


def snapshot_problems(obj, data: dict) -> list[Problem]:
    """Return the problems a proposed state of obj would have on its own."""
    return _own_problems(obj, _normalise(type(obj), data))


def _own_problems(obj, data: dict) -> list[Problem]:
    """Return the problems of a snapshot on its own (as if it were the live object)."""
    candidate = snapshots.apply_fields(type(obj).objects.get(pk=obj.pk) if obj.pk
                                       else type(obj)(), data)
    if isinstance(candidate, Question):
        return check_question(candidate, propositions=snapshots.propositions_of(data),
                              placed=bool(obj.pk) and obj.slots.exists())
    questions = list(Question.objects.in_bulk(data.get("slots", [])).values())
    by_pk = {q.pk: q for q in questions}
    ordered = [by_pk[pk] for pk in data.get("slots", []) if pk in by_pk]
    # A twin is judged with the whole game (its own row changes too): no pairing here.
    return [p for p in check_card(candidate, questions=ordered, partner=None)
            if not p.code.startswith("pair_")]


def content_save(*, obj, data: dict, user, token: str | None = None, seen: dict | None = None,
                 as_correction: bool = False, comment: str = "") -> Saved:
    """Save an editor's version of a question or card (a new one when obj is not saved).

    Published content stays live: the edit waits as a correction, unless the user may
    publish, did not ask for a correction and the edit is sound, in which case it goes
    live. Raises PermissionDenied, StaleEdit, ValidationError or EditRefused; nothing is
    written then.
    """
    model = type(obj)
    if not _perm(user, "add" if obj._state.adding else "change", model):
        raise PermissionDenied
    return _save(obj, data, user, token=token, seen=seen, as_correction=as_correction,
                 comment=comment)


def question_image_crop(*, obj: Question, box: tuple[int, int, int, int], user,
                        token: str | None = None, seen: dict | None = None) -> Saved:
    """Replace the question's image (as the editor sees it: its correction's, if one waits)
    by its part `box` (x, y, width, height in pixels), saved as any edit is: a new image
    stored, the former one kept in the history. Raises like `content_save`."""
    if not _perm(user, "change", Question):
        raise PermissionDenied
    data = shown_state(obj)
    name = data.get("image") or ""
    if not name:
        raise ValidationError({"image": ValidationError(
            _("Cette question n’a pas d’image à recadrer."), code="image_missing")})
    try:
        with obj.image.storage.open(name, "rb") as stored:
            content = stored.read()
    except OSError:
        raise ValidationError({"image": ValidationError(
            _("Le fichier image « %(name)s » est introuvable."), code="image_invalid",
            params={"name": name})}) from None
    try:
        data["image"] = crop_image(content, box, path=name)
    except ValidationError as refusal:
        raise ValidationError({"image": refusal.error_list}) from None
    return content_save(obj=obj, data=data, user=user, token=token, seen=seen,
                        comment=site_text(gettext_noop("Image recadrée")))


def _save(obj, data, user, *, token=None, seen=None, as_correction=False, comment="") -> Saved:
    model = type(obj)
    data = _normalise(model, data)
    with transaction.atomic(), reversion.create_revision():
        if not obj._state.adding:
            check_token(obj, token, seen=seen)
            obj = model.objects.get(pk=obj.pk)
            if obj.status == Status.PUBLISHED:
                saved = _save_published(obj, data, user, as_correction=as_correction,
                                        comment=comment)
                if saved.correction is None:
                    published = site_text(gettext_noop("Modifié et publié"))
                    _keep(saved.obj, user, comment or (published if saved.changed else ""))
                return saved
        slugs = {snapshots.apply_fields(model(), data).game.slug}
        if not obj._state.adding:
            slugs.add(obj.game.slug)
        if not obj._state.adding and _same(obj, data):
            # Saved unchanged: kept in history, but nothing moved for other editors.
            _keep(obj, user, comment)
            return Saved(obj, changed=False)
        with guard(slugs) if _reaches_published(obj, data) else nullcontext():
            _write_live(obj, data, user)
            notes = _settle(obj, user)
        correction = obj.pending_correction() if obj.pk else None
        if correction is not None:
            # Withdrawn since it was proposed: the editor saw and saved it with the rest.
            _close(correction, user, CorrectionState.PUBLISHED)
        _keep(obj, user, comment)
    return Saved(obj, notes=notes)


def _save_published(obj, data, user, *, as_correction: bool, comment: str) -> Saved:
    correction = obj.pending_correction()
    if correction is None and _same(obj, data):
        return Saved(obj, changed=False)  # saved unchanged: nothing to correct
    problems = [p for p in _own_problems(obj, data) if p.is_error]
    if data.get("kind") != obj.kind:
        raise ValidationError({"kind": ValidationError(
            _("Le type d’un contenu publié ne change pas : retirez-le du jeu d’abord."),
            code="published_kind")})
    if can_publish(user, type(obj)) and not as_correction and not problems:
        try:
            with transaction.atomic(), guard({obj.game.slug}):
                _write_live(obj, data, user)
        except EditRefused as refusal:
            problems = refusal.problems
            obj = type(obj).objects.get(pk=obj.pk)  # as it was: the write rolled back
        else:
            if correction is not None:
                _close(correction, user, CorrectionState.PUBLISHED)
            return Saved(obj)
    correction = _propose(obj, data, user)
    notes = [_("La correction attend la relecture ; la version publiée reste en jeu.")]
    if problems:
        notes.append(ngettext(
            "Elle ne peut pas être publiée : %(n)s erreur à corriger.",
            "Elle ne peut pas être publiée : %(n)s erreurs à corriger.", len(problems))
            % {"n": len(problems)})
    return Saved(obj, correction, notes)


def _reaches_published(obj, data) -> bool:
    """Tell whether writing unpublished obj could change published content.

    A draft question matters to the game only through a published card that prints it; a
    draft card only through the duel twins it takes or releases. Everything else spares
    the guard its two validations of a whole game.
    """
    if obj._state.adding:
        return isinstance(obj, Card) and bool(data.get("pair"))
    if isinstance(obj, Question):
        return obj.slots.filter(card__status=Status.PUBLISHED).exists()
    return data.get("pair") != obj.pair_id


def _same(obj, data) -> bool:
    return snapshots.same_content(type(obj), snapshots.of_object(obj), data)


def _propose(obj, data, user) -> Correction:
    """Write the pending correction of published obj (one per object)."""
    if isinstance(obj, Card):
        _check_slots(obj, data.get("slots", []))
    candidate = snapshots.apply_fields(type(obj).objects.get(pk=obj.pk), data)
    candidate.full_clean(exclude=["pair"] if isinstance(obj, Card) else None,
                         validate_unique=False)
    if data.get("ref") != obj.ref:
        raise ValidationError({"ref": ValidationError(
            _("La référence d’un contenu publié ne change pas."), code="published_ref")})
    correction = obj.pending_correction()
    if correction is None:
        correction = Correction(**{type(obj).__name__.lower(): obj},
                                created_by=user if getattr(user, "pk", None) else None)
    else:
        correction.revision += 1
    correction.data = {k: v for k, v in data.items() if k != "status"}
    if correction.base_version != obj.version or correction.base_data is None:
        correction.base_data = snapshots.of_object(obj)
    correction.base_version = obj.version
    correction.updated_by = user if getattr(user, "pk", None) else None
    correction.full_clean()
    correction.save()
    obj.__dict__["_pending_correction"] = correction
    _refresh_search_of(obj)
    return correction


def _close(correction: Correction, user, state: str, reason: str = "") -> None:
    correction.state = state
    correction.decided_by = user if getattr(user, "pk", None) else None
    correction.decided_at = timezone.now()
    correction.reason = reason
    correction.save()
    target = correction.target
    target.__dict__.pop("_pending_correction", None)
    _refresh_search_of(target)


def _settle(obj, user) -> list[str]:
    """Content in review that now has an error goes back to draft (its cards too)."""
    items = [obj]
    if isinstance(obj, Question):
        items += [slot.card for slot in obj.slots.select_related("card")]
    if all(item.status != Status.REVIEW for item in items):
        return []
    report = validate_game(obj.game.slug)
    notes = []
    for item in items:
        if item.status != Status.REVIEW:
            continue
        errors = [p for p in report.about(item) if p.is_error]
        if not errors:
            continue
        note = _("Repassé en brouillon : %(n)s erreur(s) à corriger avant relecture.") % {
            "n": len(errors)}
        item.status = Status.DRAFT
        item.version += 1
        item.save(update_fields=["status", "version", "updated_at"])
        change_log.record([item])
        if item is not obj:
            _keep(item, user, note)
            note = _("Carte « %(card)s » : %(note)s") % {"card": item, "note": note}
        notes.append(note)
    return notes


# --- corrections --------------------------------------------------------------------------


def correction_publish(*, obj, user, comment: str = "", token: str | None = None,
                       seen: dict | None = None) -> Question | Card:
    """Put obj's pending correction live; refuse when it has errors or is outdated.

    `token` (and `seen`) name the correction as the Relecteur read it: a correction
    changed since is refused, with what changed, rather than published unread.
    """
    if not can_publish(user, type(obj)):
        raise PermissionDenied
    with transaction.atomic(), reversion.create_revision():
        check_token(obj, token, seen=seen)
        obj = type(obj).objects.select_for_update().get(pk=obj.pk)
        correction = obj.pending_correction()
        if correction is None:
            raise StatusRefused(messages=[_("Aucune correction en attente.")])
        if correction.base_version != obj.version:
            base = correction.base_data
            raise CorrectionOutdated(snapshots.diff(type(obj), base, snapshots.of_object(obj))
                                     if base else [])
        problems = [p for p in _own_problems(obj, correction.data) if p.is_error]
        if problems:
            raise StatusRefused(problems)
        try:
            with guard({obj.game.slug}):
                _write_live(obj, correction.data, user)
        except EditRefused as refusal:
            raise StatusRefused(refusal.problems) from None
        _close(correction, user, CorrectionState.PUBLISHED)
        by = correction.created_by.get_username() if correction.created_by else "—"
        _keep(obj, user, comment or site_text(gettext_noop("Correction de %(who)s publiée"),
                                              who=by))
    return obj


def correction_problems(obj) -> list[Problem]:
    """Return the problems obj's pending correction would have, were it published."""
    correction = obj.pending_correction()
    return _own_problems(obj, correction.data) if correction is not None else []


def correction_discard(*, obj, user, reason: str = "", token: str | None = None,
                       seen: dict | None = None) -> None:
    """Drop obj's pending correction (as `token` names it); the live version stays."""
    correction = obj.pending_correction()
    if correction is None:
        return
    if not can_discard(user, correction):
        raise PermissionDenied
    with transaction.atomic():
        check_token(obj, token, seen=seen)
        _close(correction, user, CorrectionState.DISCARDED, reason)


# --- status -------------------------------------------------------------------------------


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

    Returns (what changed, {object refused: its problems}). Publishing content that is
    already published publishes its pending correction. Published content leaves the game
    only through `withdraw`. Content is validated once per game, not once per object:
    what already has an error is refused up front, the rest moves together, and only when
    moving together breaks a rule of the whole game (the ladder) are they moved one at a
    time to find which ones cannot go.
    """
    objects = list(objects)
    if any(not can_set_status(user, type(obj), status) for obj in objects):
        raise PermissionDenied
    moved: list[Question | Card] = []
    refused: dict[Question | Card, list[Problem]] = {}
    if status != Status.PUBLISHED:
        objects = [obj for obj in objects if obj.status != status]  # nothing to move
    if status == Status.PUBLISHED:
        for obj in [o for o in objects if o.status == Status.PUBLISHED]:
            objects.remove(obj)
            if obj.pending_correction() is None:
                continue
            try:
                moved.append(correction_publish(obj=obj, user=user))
            except Refused as refusal:
                refused[obj] = refusal.problems or [_message_problem(obj, refusal)]
    else:
        for obj in [o for o in objects if o.status == Status.PUBLISHED]:
            objects.remove(obj)
            refused[obj] = [_message_problem(obj, StatusRefused(messages=[_(
                "Publié : seul un relecteur le retire du jeu, avec un motif (action « Retirer "
                "du jeu »).")]))]
    if status == Status.DRAFT:
        with transaction.atomic(), reversion.create_revision():
            return moved + _move(objects, status, user), refused
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


def _message_problem(obj, refusal: Refused) -> Problem:
    """Wrap a refusal without problems (a plain reason) as a problem of obj."""
    return Problem.of("refused", "error", obj, obj.game.slug,
                      params={"reason": " ".join(str(r) for r in refusal.reasons)})


def _moving_with(obj, status) -> list[Question | Card]:
    """Return obj and what moves up with it: a duel twin, and the questions of the cards."""
    items = [obj]
    if isinstance(obj, Card) and status != Status.DRAFT:
        if obj.spec.paired and obj.pair is not None and obj.pair.status != status:
            items.append(obj.pair)
        items += [slot.question for card in list(items) for slot in card.ordered_slots()
                  if STATUS_RANK[slot.question.status] < STATUS_RANK[status]]
    return items


def _move(objects, status, user, comment: str = "") -> list[Question | Card]:
    items = [item for obj in objects for item in _moving_with(obj, status)]
    now = timezone.now()
    for item in items:
        item.status = status
        item.updated_by = user if getattr(user, "pk", None) else None
        item.version += 1
        if status == Status.PUBLISHED and item.first_published_at is None:
            item.first_published_at = now
        item.full_clean(exclude=["pair"] if isinstance(item, Card) else None)
        item.save()
        _keep(item, user, comment or site_text(gettext_noop("Statut : %(status)s"),
                                               status=Status(status).label))
    change_log.record(items)
    return items


def _move_checked(objects, status, user, before) -> list[Question | Card]:
    """Move objects in one transaction; undo it all when the game now breaks a rule."""
    if not objects:
        return []
    with transaction.atomic(), reversion.create_revision():
        items = _move(objects, status, user)
        after = validate_game(objects[0].game.slug)
        problems = [p for item in items for p in after.about(item) if p.is_error]
        problems += [p for p in new_errors(after.problems, before.problems)
                     if p.target is None or p.target.status == Status.PUBLISHED]
        if problems:
            # Leaving the block with an exception rolls the whole move back.
            raise StatusRefused(_unique(problems))
    return items


def withdraw(*, obj, user, reason: str) -> list[Question | Card]:
    """Take published content out of the game, back to draft, with the reason kept.

    A duel card leaves with its twin; a question printed on a published card cannot leave
    alone (withdraw the card). Pending corrections stay for later.
    """
    if not can_withdraw(user, obj):
        raise PermissionDenied
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": ValidationError(
            _("Dites pourquoi ce contenu est retiré du jeu."), code="reason_missing")})
    if obj.status != Status.PUBLISHED:
        raise StatusRefused(messages=[_("Ce contenu n’est pas publié.")])
    items = [obj]
    if isinstance(obj, Card) and obj.pair is not None and obj.pair.status == Status.PUBLISHED:
        items.append(obj.pair)
    if isinstance(obj, Question):
        cards = [s.card for s in obj.slots.select_related("card")
                 if s.card.status == Status.PUBLISHED]
        if cards:
            raise StatusRefused(messages=[_(
                "Cette question est sur la carte publiée « %(card)s » : retirez la carte du "
                "jeu, ou ôtez-en la question.") % {"card": cards[0]}])
    comment = site_text(gettext_noop("Retiré du jeu : %(reason)s"), reason=reason)
    with transaction.atomic(), reversion.create_revision(), guard({obj.game.slug}):
        for item in items:
            item.status = Status.DRAFT
            item.version += 1
            item.updated_by = user
            item.save()
            _keep(item, user, comment)
        change_log.record(items)
    return items


# --- delete, restore, recover -------------------------------------------------------------


def content_delete(*, obj, user) -> None:
    """Delete a question or card, keeping its last state in history for recovery."""
    if not can_delete(user, obj):
        raise PermissionDenied
    with transaction.atomic():
        latest = Version.objects.get_for_object(obj).order_by("-pk").first()
        if latest is None or snapshots.of_version(latest) != snapshots.of_object(obj):
            # Keep the state it is deleted in, for recovery, unless history has it already.
            with reversion.create_revision():
                _keep(obj, user, site_text(gettext_noop("Supprimé")))
        cards = ([s.card for s in obj.slots.select_related("card")]
                 if isinstance(obj, Question) else [])
        with guard({obj.game.slug}):
            change_log.record([obj, *cards])
            obj.delete()
            for card in cards:
                # The card lost a question: a page open on it is now out of date.
                Card.objects.filter(pk=card.pk).update(version=F("version") + 1)
                card.refresh_from_db()
                refresh_search(cards=[card.pk])
                with reversion.create_revision():
                    _settle(card, user)  # in review with a hole in it: back to draft
                    _keep(card, user, site_text(
                        gettext_noop("Une de ses questions a été supprimée")))


def content_restore(*, obj, version: Version, user, data: dict | None = None,
                    token: str | None = None, seen: dict | None = None,
                    as_correction: bool = False) -> Saved:
    """Bring obj back to what one of its versions held (and only obj: its propositions or
    slots, never the other objects of that version's revision).

    A restore is an edit: published content gets a correction (live at once only for a
    Relecteur whose restore is sound), status never comes back with the content. `data`
    is the version as the editor may have amended it on the restore page.
    """
    if str(version.object_id) != str(obj.pk) or version.content_type.model_class() is not type(
            obj):
        raise ValidationError(_("Cette version n’est pas celle de cet objet."),
                              code="version_mismatch")
    if data is None:
        data = snapshots.of_version(version)
    when = timezone.localtime(version.revision.date_created)
    comment = site_text(gettext_noop("Restauré depuis la version du %(date)s"),
                        date=when.strftime("%d/%m/%Y %H:%M"))
    return content_save(obj=obj, data=data, user=user, token=token, seen=seen,
                        as_correction=as_correction, comment=comment)


def content_recover(*, version: Version, user, data: dict | None = None) -> Saved:
    """Bring deleted content back from its last version, as a draft."""
    model = version.content_type.model_class()
    if model not in (Question, Card):
        raise ValidationError(_("Rien à récupérer."), code="version_mismatch")
    if not can_recover(user, model):
        raise PermissionDenied
    if model.objects.filter(pk=version.object_id).exists():
        raise ValidationError(_("Ce contenu existe encore : ouvrez son historique."),
                              code="not_deleted")
    data = dict(snapshots.of_version(version) if data is None else data)
    notes = []
    if model.objects.filter(ref=data.get("ref")).exists():
        notes.append(_("Sa référence « %(ref)s » a été reprise entre-temps : il en reçoit "
                       "une nouvelle.") % {"ref": data.get("ref")})
        data["ref"] = Question._meta.get_field("ref").get_default()
    if model is Card:
        if data.get("pair") and not Card.objects.filter(pk=data["pair"],
                                                        pair__isnull=True).exists():
            data["pair"] = None
        kept = snapshots.of_version(version).get("slots", [])
        gone = len(kept) - Question.objects.filter(pk__in=kept).count()
        if gone:
            notes.append(ngettext(
                "%(n)s question de la carte n’existe plus : récupérez-la d’abord, ou "
                "complétez la carte.",
                "%(n)s questions de la carte n’existent plus : récupérez-les d’abord, ou "
                "complétez la carte.", gone) % {"n": gone})
            data["slots"] = [pk for pk in data.get("slots", [])
                             if Question.objects.filter(pk=pk).exists()]
    obj = model(pk=int(version.object_id), status=Status.DRAFT,
                created_by_id=version.field_dict.get("created_by_id"),
                first_published_at=version.field_dict.get("first_published_at"))
    if obj.created_by_id is not None and not get_user_model().objects.filter(
            pk=obj.created_by_id).exists():
        obj.created_by_id = None
    saved = _save(obj, data, user,
                  comment=site_text(gettext_noop("Récupéré après suppression")))
    saved.notes = notes + saved.notes
    return saved


# --- text: French typography, themes and search, on every write --------------------------

# The text fields stored with French typography (cms.typography.typeset): what print and the
# player show, the admin and the exports show too. Refs and sources (addresses) stay typed.
TYPESET_FIELDS = {Question: ("text", "answer", "variants", "anecdote", "theme"),
                  Card: ("title",)}


def typeset_data(model, data: dict) -> dict:
    """Return a snapshot with its text set in French and its theme spelt as the game's."""
    data = dict(data)
    for name in TYPESET_FIELDS[model]:
        if isinstance(data.get(name), str):
            data[name] = typeset(data[name])
    if model is Question:
        data["propositions"] = [{**row, "text": typeset(row.get("text") or "")}
                                for row in data.get("propositions", [])]
        if data.get("theme") and data.get("kind") in KINDS:
            data["theme"] = theme_spelling(KINDS[data["kind"]][0].slug, data["theme"])
    return data


def typeset_question(question: Question, propositions: Sequence[Proposition] | None = None,
                     *, spellings: dict | None = None) -> Question:
    """Set a question's text (and its propositions') in French, its theme as the game's;
    nothing is saved. An importer calls it too, so that a row that differs only by its
    typography reads as unchanged (`spellings` keeps the themes it looked up)."""
    for name in TYPESET_FIELDS[Question]:
        setattr(question, name, typeset(getattr(question, name) or ""))
    for proposition in propositions or ():
        proposition.text = typeset(proposition.text or "")
    if question.theme and question.kind in KINDS:
        game = question.game.slug
        if spellings is None:
            question.theme = theme_spelling(game, question.theme)
        else:
            found = (game, theme_key(question.theme))
            if found not in spellings:
                spellings[found] = theme_spelling(game, question.theme)
            question.theme = spellings[found]
    return question


def typeset_card(card: Card) -> Card:
    """Set a card's title in French; nothing is saved."""
    for name in TYPESET_FIELDS[Card]:
        setattr(card, name, typeset(getattr(card, name) or ""))
    return card


def theme_key(name: str) -> str:
    """Return what tells themes apart: their name without case, accents or punctuation."""
    return search.fold(name) or " ".join(name.casefold().split())


def theme_spelling(game: str, name: str) -> str:
    """Return a theme's name as the game already spells it (« geographie » → « Géographie »),
    or as given (typeset) when the game has no such theme yet."""
    name = typeset(name)
    known = Theme.objects.filter(game=game, key=theme_key(name)).values_list("name", flat=True)
    return next(iter(known), name)


def _ensure_themes(questions: Sequence[Question]) -> None:
    """Create the themes these questions name that their game does not have yet, and spell
    each question's theme as its game's (in memory: the caller saves)."""
    wanted: dict[tuple[str, str], str] = {}
    for question in questions:
        if question.theme and question.kind in KINDS:
            wanted.setdefault((question.game.slug, theme_key(question.theme)), question.theme)
    names = {}
    for game in {game for game, _key in wanted}:
        keys = [key for slug, key in wanted if slug == game]
        for chunk in _chunks(keys):
            known = dict(Theme.objects.filter(game=game, key__in=chunk)
                         .values_list("key", "name"))
            Theme.objects.bulk_create(
                [Theme(game=game, key=key, name=wanted[game, key]) for key in chunk
                 if key not in known], ignore_conflicts=True)
            names.update({(game, key): known.get(key, wanted[game, key]) for key in chunk})
    for question in questions:
        if question.theme and question.kind in KINDS:
            question.theme = names[question.game.slug, theme_key(question.theme)]


def _chunks(pks: Iterable, size: int = 900):
    pks = sorted({pk for pk in pks if pk is not None})
    for start in range(0, len(pks), size):
        yield pks[start:start + size]


def _pending_data(owner: str, pks: list[int]) -> dict[int, dict]:
    return dict(Correction.objects.filter(**{f"{owner}__in": pks}, state=CorrectionState.PENDING)
                .values_list(owner, "data"))


def _search_texts_before_write(questions: Sequence[tuple[Question, list | None]]) -> None:
    """Set the search text of questions about to be written in bulk (an import)."""
    kept = [q.pk for q, propositions in questions if propositions is None and q.pk]
    stored: dict[int, list[str]] = {}
    pending: dict[int, dict] = {}
    for chunk in _chunks([q.pk for q, _p in questions if q.pk]):
        pending.update(_pending_data("question", chunk))
    for chunk in _chunks(kept):
        for pk, text in (Proposition.objects.filter(question__in=chunk)
                         .order_by("position", "id").values_list("question", "text")):
            stored.setdefault(pk, []).append(text)
    for question, propositions in questions:
        texts = ([p.text for p in propositions] if propositions is not None
                 else stored.get(question.pk, []))
        question.search_text = search.question_search_text(question, texts,
                                                           pending.get(question.pk))


def refresh_search(*, questions: Iterable[int] = (), cards: Iterable[int] = ()) -> None:
    """Write again the search text of these questions, of the cards that hold them, and of
    these cards, from what they hold now."""
    questions, cards = list(questions), set(cards)
    for chunk in _chunks(questions):
        pending = _pending_data("question", chunk)
        rows = list(Question.objects.filter(pk__in=chunk).prefetch_related("propositions"))
        for question in rows:
            texts = [p.text for p in sorted(question.propositions.all(),
                                            key=lambda p: (p.position, p.pk))]
            question.search_text = search.question_search_text(question, texts,
                                                               pending.get(question.pk))
        Question.objects.bulk_update(rows, ["search_text"])
        cards.update(CardQuestion.objects.filter(question__in=chunk)
                     .values_list("card", flat=True))
    for chunk in _chunks(cards):
        pending = _pending_data("card", chunk)
        wanted = {pk for data in pending.values() for pk in data.get("slots") or []}
        texts = dict(Question.objects.filter(pk__in=wanted).values_list("pk", "text"))
        rows = list(Card.objects.filter(pk__in=chunk).prefetch_related("slots__question"))
        for card in rows:
            waiting = pending.get(card.pk)
            card.search_text = search.card_search_text(
                card, [slot.question.text for slot in card.ordered_slots()], waiting,
                [texts.get(pk, "") for pk in (waiting or {}).get("slots") or []])
        Card.objects.bulk_update(rows, ["search_text"])


def _refresh_search_of(obj) -> None:
    if isinstance(obj, Question):
        refresh_search(questions=[obj.pk])
    else:
        refresh_search(cards=[obj.pk])


# --- bulk writes for the importers --------------------------------------------------------


def import_status_error(*, user, obj, status: str, before: str | None) -> ValidationError | None:
    """Return why a file may not set this status (None: it may).

    A file cannot publish for someone who may not publish, and it cannot take published
    content out of the game: that is a Relecteur's action with a reason.
    """
    if before == Status.PUBLISHED and status != Status.PUBLISHED:
        return ValidationError(
            _("Contenu publié : un fichier ne le retire pas du jeu (action « Retirer du jeu » "
              "d’un relecteur). Laissez « publie »."), code="withdraw_by_file")
    if status == Status.PUBLISHED and before != Status.PUBLISHED and user is not None and (
            not can_publish(user, type(obj))):
        return ValidationError(
            _("Vous ne pouvez pas publier : mettez « relecture » ou « brouillon »."),
            code="publish_denied")
    return None


def edit_goes_to_correction(*, user, obj, before_status: str | None) -> bool:
    """Tell whether an imported change to this row waits as a correction (live untouched)."""
    return (before_status == Status.PUBLISHED and obj.status == Status.PUBLISHED
            and user is not None and not can_publish(user, type(obj)))


def questions_write_many(
        *, created: Sequence[tuple[Question, list[Proposition] | None]],
        updated: Sequence[tuple[Question, list[Proposition] | None]], user,
        fields: Sequence[str], batch_size: int = 1000) -> None:
    """Write many questions and their propositions at once (imports), versions counted.

    Each question comes with the propositions it holds (unsaved Proposition objects), or
    None to leave its propositions as they are; the caller full_clean()ed each question.
    """
    now = timezone.now()
    spellings: dict = {}
    for question, propositions in [*created, *updated]:
        typeset_question(question, propositions, spellings=spellings)
        if question.status == Status.PUBLISHED and question.first_published_at is None:
            question.first_published_at = now
    _ensure_themes([q for q, _p in [*created, *updated]])
    for question, _propositions in updated:
        question.version += 1
    _search_texts_before_write([*created, *updated])
    Question.objects.bulk_create([q for q, _p in created], batch_size=batch_size)
    Question.objects.bulk_update(
        [q for q, _p in updated],
        [*fields, "version", "first_published_at", "updated_at", "updated_by", "search_text"],
        batch_size=batch_size)
    _propositions_many(created, replace=False)
    _propositions_many(updated, replace=True)
    cards = CardQuestion.objects.filter(question__in=[q.pk for q, _p in updated])
    refresh_search(cards=cards.values_list("card", flat=True))
    change_log.record([q for q, _p in [*created, *updated]])


def _propositions_many(written, *, replace: bool) -> None:
    written = [(q, propositions) for q, propositions in written
               if propositions is not None and q.pk is not None]
    if not written:
        return
    if replace:
        Proposition.objects.filter(question__in=[q.pk for q, _p in written]).delete()
    rows = []
    for question, propositions in written:
        for proposition in propositions:
            proposition.question_id = question.pk
            rows.append(proposition)
    Proposition.objects.bulk_create(rows, batch_size=2000)


def card_write(*, card: Card, user) -> None:
    """Save an imported card's own fields (full_clean()ed by the caller), version counted."""
    if card.pk is not None:
        card.version += 1
    if card.status == Status.PUBLISHED and card.first_published_at is None:
        card.first_published_at = timezone.now()
    typeset_card(card)
    card.save()
    refresh_search(cards=[card.pk])
    change_log.record([card])


def card_compose(*, card: Card, questions: Sequence[Question | int], user=None,
                 movable: Iterable[int] = ()) -> Card:
    """Put these questions on the card, in this order, replacing what it held.

    A question already on another card is refused, unless that card is among `movable`
    (an import that recomposes several cards at once moves questions between them).
    """
    pks = [getattr(q, "pk", q) for q in questions]
    with transaction.atomic(), reversion.create_revision():
        _check_slots(card, pks, movable=movable)
        if [s.question_id for s in card.ordered_slots()] != pks:
            taken = CardQuestion.objects.filter(question__in=pks).exclude(card=card)
            moved_from = set(taken.values_list("card", flat=True))
            change_log.record([card, *Card.objects.filter(pk__in=moved_from).only("pk", "kind")])
            taken.delete()
            _write_slots(card, pks)
            refresh_search(cards=[card.pk, *moved_from])
        if user is not None:
            _keep(card, user, "")
    return card


def duel_pair(*, card: Card, partner: Card | None, user=None) -> None:
    """Make two duel cards each other's twin, releasing their former twins."""
    with transaction.atomic(), reversion.create_revision():
        _pair(card, partner)
        for one in (card, partner):
            if one is not None and user is not None:
                _keep(one, user, "")


def propose_many(*, items: Sequence[tuple[Question | Card, dict]], user) -> list[Correction]:
    """Write imported changes to published content as pending corrections.

    A row that changes nothing proposes nothing.
    """
    written = []
    for obj, data in items:
        data = _normalise(type(obj), data)
        if obj.pending_correction() is None and _same(obj, data):
            continue
        written.append(_propose(obj, data, user))
    return written


def import_correction_error(*, user, obj) -> ValidationError | None:
    """Refuse a file's change to content whose pending correction is someone else's."""
    correction = obj.pending_correction()
    if correction is None or user is None or correction.created_by_id == user.pk:
        return None
    who = correction.created_by.get_username() if correction.created_by else _("quelqu’un")
    return ValidationError(
        _("« %(ref)s » a une correction en attente, proposée par %(who)s : qu’un relecteur "
          "la publie ou l’abandonne avant de le corriger par fichier."),
        code="correction_pending", params={"ref": obj.ref, "who": who})



# --- themes -------------------------------------------------------------------------------


def theme_questions(theme: Theme) -> list[Question]:
    """Return the questions of the theme's game that hold it, however they spell it."""
    rows = Question.objects.for_game(theme.game).exclude(theme="").only("pk", "theme")
    return [q for q in rows if theme_key(q.theme) == theme.key]


def theme_rename(*, theme: Theme, name: str, user) -> Theme:
    """Rename a theme, and every question (and pending correction) of its game that holds it.

    Each question changed gets a version in history. A name another theme of the game
    already has is refused: merge the two instead.
    """
    if not _perm(user, "change", Theme):
        raise PermissionDenied
    error = theme_name_error(theme=theme, name=name)
    if error is not None:
        raise ValidationError({"name": error})
    return _retheme(game=theme.game, keys={theme.key}, keep=theme, name=typeset(name),
                    user=user)


def theme_name_error(*, theme: Theme, name: str) -> ValidationError | None:
    """Return why a theme may not take this name (None: it may)."""
    name = typeset(name or "")
    if not name:
        return ValidationError(_("Donnez un nom au thème."), code="theme_blank")
    other = Theme.objects.filter(game=theme.game, key=theme_key(name)).exclude(pk=theme.pk)
    if other.exists():
        return ValidationError(
            _("Ce jeu a déjà le thème « %(name)s » : fusionnez les deux thèmes plutôt."),
            code="theme_exists", params={"name": other.first().name})
    return None


def theme_merge(*, themes: Sequence[Theme], into: Theme, user) -> Theme:
    """Merge themes of one game into `into`: their questions take its name, they go."""
    if not (_perm(user, "change", Theme) and _perm(user, "delete", Theme)):
        raise PermissionDenied
    if any(theme.game != into.game for theme in themes):
        raise ValidationError(_("On ne fusionne que des thèmes d’un même jeu."),
                              code="theme_other_game")
    keys = {theme.key for theme in themes} | {into.key}
    return _retheme(game=into.game, keys=keys, keep=into, name=into.name, user=user)


def theme_delete(*, theme: Theme, user) -> None:
    """Delete a theme no question holds (a theme in use is renamed or merged instead)."""
    if not _perm(user, "delete", Theme):
        raise PermissionDenied
    used = len(theme_questions(theme))
    if used:
        raise ValidationError(ngettext(
            "Le thème « %(name)s » est celui de %(n)s question : renommez-le ou fusionnez-le.",
            "Le thème « %(name)s » est celui de %(n)s questions : renommez-le ou "
            "fusionnez-le.", used) % {"name": theme.name, "n": used}, code="theme_in_use")
    theme.delete()


def _retheme(*, game: str, keys: set[str], keep: Theme, name: str, user) -> Theme:
    """Give every question of the game whose theme is one of `keys` the theme `name`,
    keeping `keep` under that name and deleting the other themes of `keys`."""
    comment = site_text(gettext_noop("Thème : « %(name)s »"), name=name)
    with transaction.atomic(), reversion.create_revision(), guard({game}):
        Theme.objects.filter(game=game, key__in=keys).exclude(pk=keep.pk).delete()
        keep.name, keep.key = name, theme_key(name)
        keep.full_clean()
        keep.save()
        rows = Question.objects.for_game(game).exclude(theme="")
        questions = [q for q in rows if theme_key(q.theme) in keys and q.theme != name]
        for question in questions:
            question.theme = name
            question.version += 1
            question.updated_by = user if getattr(user, "pk", None) else None
            question.full_clean()
            question.save()
            _keep(question, user, comment)
        kinds = [kind.slug for kind in GAMES[game].kinds]
        corrections = Correction.objects.filter(state=CorrectionState.PENDING,
                                                question__kind__in=kinds)
        for correction in corrections:
            if correction.data.get("theme") and theme_key(correction.data["theme"]) in keys:
                correction.data = {**correction.data, "theme": name}
                correction.revision += 1  # a page open on it is now out of date
                correction.save()
        refresh_search(questions=[q.pk for q in questions]
                       + [c.question_id for c in corrections])
    return keep
# --- review: sending back, comments -------------------------------------------------------


def request_changes(*, obj, user, reason: str) -> Comment:
    """Send content in review, or a pending correction, back to its author with a reason.

    Content in review goes back to draft (a card with its questions in review); a pending
    correction stays as it is, returned to
    its author (it leaves the review queue until its author saves it again), never
    discarded. The reason is kept as an open « demande de corrections » comment, and in
    the history of content sent back to draft.
    """
    if not can_publish(user, type(obj)):
        raise PermissionDenied
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": ValidationError(
            _("Dites ce qu’il faut corriger."), code="reason_missing")})
    with transaction.atomic():
        obj = type(obj).objects.select_for_update().get(pk=obj.pk)
        if obj.status == Status.REVIEW:
            # A card's questions in review were sent with it: they come back with it.
            questions = [slot.question for slot in obj.ordered_slots()
                         if slot.question.status == Status.REVIEW] if isinstance(
                obj, Card) else []
            with reversion.create_revision():
                _move([obj, *questions], Status.DRAFT, user, site_text(
                    gettext_noop("Corrections demandées : %(reason)s"), reason=reason))
        elif obj.pending_correction() is None:
            raise StatusRefused(messages=[_(
                "Ni en relecture ni corrigé : il n’y a rien à renvoyer à son auteur.")])
        return _comment(obj, user, reason, CommentKind.CHANGES_REQUESTED)


def _comment(obj, user, text: str, kind: str) -> Comment:
    comment = Comment(**{type(obj).__name__.lower(): obj}, kind=kind, text=text,
                      author=user if getattr(user, "pk", None) else None)
    comment.full_clean()
    comment.save()
    return comment


def can_comment(user, model) -> bool:
    """Editors and reviewers write comments and resolve them; readers read them."""
    return can_edit(user, model)


def comment_add(*, obj, user, text: str) -> Comment:
    """Add a comment to a question or card."""
    if not can_comment(user, type(obj)):
        raise PermissionDenied
    text = (text or "").strip()
    if not text:
        raise ValidationError({"text": ValidationError(
            _("Le commentaire est vide."), code="comment_empty")})
    return _comment(obj, user, text, CommentKind.NOTE)


def comment_resolve(*, comment: Comment, user) -> Comment:
    """Mark a comment resolved (once: resolving it again changes nothing)."""
    if not can_comment(user, type(comment.target)):
        raise PermissionDenied
    if comment.resolved_at is None:
        comment.resolved_at = timezone.now()
        comment.resolved_by = user if getattr(user, "pk", None) else None
        comment.save(update_fields=["resolved_at", "resolved_by"])
    return comment


# --- duplicates ---------------------------------------------------------------------------


def content_duplicate(*, obj, user) -> Question | Card:
    """Copy a question (with its propositions) or a card (with copies of its questions, a
    question sitting on one card only) as new drafts with new references.

    The copy is of what editors see: the pending correction, if any, else the live content.
    A duel card's copy has no twin.
    """
    if not can_duplicate(user, type(obj)):
        raise PermissionDenied
    with transaction.atomic():
        return _duplicate(type(obj).objects.get(pk=obj.pk), user)


def can_duplicate(user, model) -> bool:
    """Copies are new content: who creates questions (and cards, for a card) may copy."""
    return _perm(user, "add", model) and _perm(user, "add", Question)


def _duplicate(obj, user) -> Question | Card:
    data = {k: v for k, v in shown_state(obj).items() if k != "status"}
    data["ref"] = new_ref()
    if isinstance(obj, Card):
        data["pair"] = None
        data["slots"] = [_duplicate(Question.objects.get(pk=pk), user).pk
                         for pk in data["slots"]]
    comment = site_text(gettext_noop("Copie de « %(ref)s »"), ref=obj.ref)
    return _save(type(obj)(), data, user, comment=comment).obj


# --- bulk edits ---------------------------------------------------------------------------

BULK_FIELDS = ("theme", "difficulty", "step", "kind")


@dataclass
class BulkRow:
    """What a bulk edit does to one question: the changes, the errors it brings, or why
    it is refused."""

    question: Question
    changes: list[snapshots.Change]
    new_errors: list[Problem] = field(default_factory=list)
    refusal: list[str] = field(default_factory=list)


def questions_bulk_edit(*, questions: Sequence[Question], changes: dict, user) -> list[Saved]:
    """Set the same fields on many questions, each written as its own edit would be
    (history kept, published content corrected through a correction), all or nothing.

    Raises EditRefused naming every question refused; nothing is written then.
    """
    with transaction.atomic():
        saved, refused = _bulk_write(questions, changes, user)
        if refused:
            raise EditRefused(messages=[
                _("« %(obj)s » : %(why)s") % {"obj": question, "why": " · ".join(why)}
                for question, why in refused.items()])
    return saved


def bulk_changed(state: dict, changes: dict) -> dict:
    """Return a question's state with the changes of a bulk edit: a new kind empties the
    fields it does not have (a step off the ladder), as the question's own form does."""
    kind = KINDS.get(changes.get("kind") or "")
    return shapes.shaped({**state, **changes}, kind[1]) if kind else {**state, **changes}


def _bulk_write(questions, changes: dict, user) -> tuple[list[Saved], dict[Question, list[str]]]:
    """Write each question's edit; return what was saved and why others were refused."""
    changes = {k: v for k, v in changes.items() if k in BULK_FIELDS}
    saved, refused = [], {}
    for question in questions:
        question = Question.objects.get(pk=question.pk)
        data = bulk_changed(shown_state(question), changes)
        data.pop("status")
        try:
            saved.append(content_save(obj=question, data=data, user=user, comment=site_text(
                gettext_noop("Modification groupée"))))
        except PermissionDenied:
            refused[question] = [_("vous n’avez pas le droit de le modifier.")]
        except ValidationError as refusal:
            refused[question] = _reasons(refusal)
    return saved, refused


def _reasons(refusal: ValidationError) -> list[str]:
    if isinstance(refusal, Refused):
        return [str(r) for r in refusal.reasons]
    if isinstance(refusal, StaleEdit):
        return [refusal.describe(in_form=False)]
    if hasattr(refusal, "error_dict"):
        fields = {f.name: f.verbose_name for f in Question._meta.get_fields()
                  if hasattr(f, "verbose_name")}
        return [_("%(field)s : %(why)s") % {"field": str(fields[name]).capitalize(),
                                                "why": message} if name in fields else message
                for name, errors in refusal.error_dict.items()
                for message in ValidationError(errors).messages]
    return [str(m) for m in refusal.messages]


def _card_new_errors(questions: Sequence[Question], changes: dict) -> dict[int, list[Problem]]:
    """Return, by question, the errors the changes would bring to the cards holding them
    (a card's order is judged with all of its questions changed at once)."""
    selected = {question.pk for question in questions}
    found: dict[int, list[Problem]] = {}
    for card in Card.objects.filter(slots__question__in=selected).distinct():
        held = [slot.question for slot in card.ordered_slots()]
        before = [snapshots.apply_fields(q, shown_state(q)) for q in held]
        after = [snapshots.apply_fields(Question.objects.get(pk=q.pk),
                                        bulk_changed(shown_state(q), changes))
                 if q.pk in selected else q for q in before]
        broken = [p for p in new_errors(check_card(card, questions=after, partner=None),
                                        check_card(card, questions=before, partner=None))
                  if not p.code.startswith("pair_")]
        for question in held:
            if question.pk in selected:
                found.setdefault(question.pk, []).extend(broken)
    return found


def questions_bulk_preview(*, questions: Sequence[Question], changes: dict,
                           user) -> list[BulkRow]:
    """Return what `questions_bulk_edit` would change and break, writing nothing."""
    changes = {k: v for k, v in changes.items() if k in BULK_FIELDS}
    with transaction.atomic():
        _saved, refused = _bulk_write(questions, changes, user)
        transaction.set_rollback(True)
    refused_by_pk = {question.pk: why for question, why in refused.items()}
    on_cards = _card_new_errors(questions, changes)
    rows = []
    for question in questions:
        before = shown_state(question)
        after = bulk_changed(before, changes)
        refusal = refused_by_pk.get(question.pk, [])
        # What is refused is not judged further (a step off every ladder has no band).
        broken = [] if refusal else new_errors(snapshot_problems(question, after),
                                               snapshot_problems(question, before)) + (
            on_cards.get(question.pk, []))
        rows.append(BulkRow(question, snapshots.diff(Question, before, after), broken,
                            refusal))
    return rows
class SlotErrors(ValidationError):
    """New questions of a composed card that could not be written: `slots` holds, by slot
    number, the messages of each (nothing was written)."""

    def __init__(self, slots: dict[int, list[str]]):
        self.slots = slots
        super().__init__([_("Question n°%(n)s : %(msg)s") % {"n": n, "msg": msg}
                          for n, messages in sorted(slots.items()) for msg in messages],
                         code="slot_errors")


def _slot_messages(error: ValidationError) -> list[str]:
    """Return a question's refusal as sentences that name the field they are about."""
    if not hasattr(error, "error_dict"):
        return list(error.messages)
    messages = []
    for name, errors in error.message_dict.items():
        if name == "__all__":
            messages += errors
            continue
        try:
            label = str(Question._meta.get_field(name).verbose_name)
        except FieldDoesNotExist:  # a proposition's field: named after the row
            label = str(Proposition._meta.get_field("text").verbose_name)
        messages += [_("%(field)s : %(msg)s") % {"field": label.capitalize(), "msg": msg}
                     for msg in errors]
    return messages


def card_compose_new(*, card: Card, data: dict, slots: Sequence[int | dict | None], user,
                     token: str | None = None, seen: dict | None = None,
                     as_correction: bool = False) -> Saved:
    """Save a card composed on one page: its new questions first, then the card holding
    them and the questions picked, in this order; whole or nothing.

    Each slot is a question's pk, or a new question's snapshot (text, difficulty,
    propositions…), written as a draft of the card's kind; a new question without a theme
    takes the card's title. A slot that cannot be written raises SlotErrors with every
    slot's reasons; the card raises as `content_save` does. Nothing is written then.
    """
    errors: dict[int, list[str]] = {}
    with transaction.atomic():
        pks = []
        for number, slot in enumerate(slots, start=1):
            if slot is None:  # a slot left blank: the card holds one question less
                continue
            if not isinstance(slot, dict):
                pks.append(slot)
                continue
            question = {**slot, "kind": data.get("kind")}
            if not (question.get("theme") or "").strip():
                question["theme"] = data.get("title") or ""
            try:
                with transaction.atomic():
                    saved = content_save(obj=Question(), data=question, user=user)
            except ValidationError as refusal:
                errors[number] = _slot_messages(refusal)
                continue
            pks.append(saved.obj.pk)
        if errors:
            raise SlotErrors(errors)
        return content_save(obj=card, data={**data, "slots": pks}, user=user, token=token,
                            seen=seen, as_correction=as_correction)
