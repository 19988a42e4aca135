"""A question or card as one plain value: its fields and its ordered propositions or slots.

Snapshots are what history, corrections and conflicts compare: read from the database, from
a version kept by django-reversion or from a pending correction, applied by cms.services,
and compared field by field for editors, in their language.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from django.contrib.contenttypes.models import ContentType
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reversion.models import Version

from .models import Card, CardQuestion, Proposition, Question, Status

# The fields an edit, a correction or a restore writes (the status moves only through the
# workflow services, never with the content).
QUESTION_FIELDS = ("ref", "kind", "text", "difficulty", "theme", "step", "answer", "variants",
                   "image", "anecdote", "source")
CARD_FIELDS = ("ref", "kind", "title", "colour", "pair")
PROPOSITION_FIELDS = ("text", "is_right", "is_hidden")

FIELDS = {Question: QUESTION_FIELDS, Card: CARD_FIELDS}
CHILDREN = {Question: "propositions", Card: "slots"}


def fields_of(model) -> tuple[str, ...]:
    return FIELDS[model]


def children_key(model) -> str:
    return CHILDREN[model]


def of_object(obj) -> dict:
    """Return the live state of a saved question or card."""
    data = {name: field_value(obj, name) for name in FIELDS[type(obj)]}
    data["status"] = obj.status
    if isinstance(obj, Question):
        data["propositions"] = [
            {name: getattr(p, name) for name in PROPOSITION_FIELDS}
            for p in obj.propositions.order_by("position", "id")
        ]
    else:
        data["slots"] = list(obj.slots.order_by("position", "id")
                             .values_list("question_id", flat=True))
    return data


def field_value(obj, name):
    """Return one field of a snapshot as read from an instance."""
    if name == "pair":
        return obj.pair_id
    if name == "image":
        return obj.image.name or ""
    return getattr(obj, name)


def of_version(version: Version) -> dict:
    """Return the state a version kept, with the propositions or slots of its revision."""
    model = version.content_type.model_class()
    fields = version.field_dict
    data = {}
    for name in FIELDS[model]:
        value = fields.get("pair_id") if name == "pair" else fields.get(name)
        if name == "image":
            value = getattr(value, "name", value) or ""
        data[name] = value
    data["status"] = fields.get("status", Status.DRAFT)
    pk = int(version.object_id)
    siblings = version.revision.version_set.filter(
        content_type=ContentType.objects.get_for_model(
            Proposition if model is Question else CardQuestion))
    rows = []
    for child in siblings:
        values = child.field_dict
        owner = values.get("question_id") if model is Question else values.get("card_id")
        if owner == pk:
            rows.append((values.get("position") or 0, int(child.object_id), values))
    rows.sort(key=lambda row: (row[0], row[1]))
    if model is Question:
        data["propositions"] = [{name: values.get(name) for name in PROPOSITION_FIELDS}
                                for _pos, _pk, values in rows]
    else:
        data["slots"] = [values.get("question_id") for _pos, _pk, values in rows]
    return data


def apply_fields(obj, data: dict):
    """Set a snapshot's fields on an instance in memory (nothing is saved)."""
    for name in FIELDS[type(obj)]:
        if name not in data:
            continue
        if name == "pair":
            obj.pair_id = data[name]
        else:
            setattr(obj, name, data[name])
    return obj


def propositions_of(data: dict) -> list[Proposition]:
    """Return a question snapshot's propositions as unsaved rows, in order."""
    return [Proposition(position=n, text=row["text"], is_right=bool(row["is_right"]),
                        is_hidden=bool(row["is_hidden"]))
            for n, row in enumerate(data.get("propositions", []), start=1)]


# --- differences, as an editor reads them ---------------------------------------------------


@dataclass(frozen=True)
class Change:
    """One difference between two states: what, before and after, as shown to editors."""

    label: str
    before: str
    after: str

    @property
    def marked(self) -> tuple[SafeString, SafeString]:
        """Return before and after as HTML, escaped, the words that differ marked (<del>
        in before, <ins> in after): a one-word correction of a long question shows."""
        return marked_words(self.before, self.after)


WORDS = re.compile(r"\s+|[^\s]+")


def marked_words(before: str, after: str) -> tuple[SafeString, SafeString]:
    """Return both texts as HTML with the runs of words that differ between them marked."""
    old, new = WORDS.findall(before), WORDS.findall(after)
    shown_old: list[str] = []
    shown_new: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new,
                                                      autojunk=False).get_opcodes():
        removed, added = "".join(old[i1:i2]), "".join(new[j1:j2])
        # Spaces alone (a plain one become a no-break one) are not words that changed.
        if op == "equal" or not (removed + added).strip():
            shown_old.append(escape(removed))
            shown_new.append(escape(added))
            continue
        if removed:
            shown_old.append(format_html("<del>{}</del>", removed))
        if added:
            shown_new.append(format_html("<ins>{}</ins>", added))
    # Every piece was escaped above (escape, format_html).
    return (mark_safe("".join(shown_old).replace("\n", "<br>")),
            mark_safe("".join(shown_new).replace("\n", "<br>")))


SLOT_LABEL = gettext_lazy("Question n°%(n)s")
PROPOSITION_LABEL = gettext_lazy("Proposition %(letter)s")


def changed_fields(model, before: dict | None, after: dict | None) -> list[str]:
    """Return the fields (status included) whose values differ; blank equals blank."""
    before, after = before or {}, after or {}
    return [name for name in ["status", *FIELDS[model]]
            if (name in before or name in after)
            and not (_blank(before.get(name)) and _blank(after.get(name)))
            and before.get(name) != after.get(name)]


def same_content(model, a: dict, b: dict) -> bool:
    """Tell whether two states hold the same content (fields and rows; status aside)."""
    rows = CHILDREN[model]
    return (changed_fields(model, {**a, "status": None}, {**b, "status": None}) == []
            and list(a.get(rows) or []) == list(b.get(rows) or []))


def diff(model, before: dict | None, after: dict | None) -> list[Change]:
    """Return, field by field, what differs from `before` to `after` (propositions included)."""
    before, after = before or {}, after or {}
    changes = [Change(_label(model, name), _shown(model, name, before.get(name)),
                      _shown(model, name, after.get(name)))
               for name in changed_fields(model, before, after)]
    if model is Question:
        changes += _proposition_changes(before.get("propositions") or [],
                                        after.get("propositions") or [])
    else:
        changes += _slot_changes(before.get("slots") or [], after.get("slots") or [])
    return changes


def _blank(value) -> bool:
    return value is None or value == ""


def _label(model, name) -> str:
    if name == "status":
        return _("Statut")
    return str(model._meta.get_field(name).verbose_name).capitalize()


def _shown(model, name, value) -> str:
    if _blank(value):
        return "—"
    if name == "status":
        return str(Status(value).label) if value in Status.values else str(value)
    if name == "pair":
        card = Card.objects.filter(pk=value).first()
        return str(card) if card else _("carte supprimée (n°%(pk)s)") % {"pk": value}
    field = model._meta.get_field(name)
    if field.choices:
        return str(dict(field.flatchoices).get(value, value))
    if isinstance(value, bool):
        return _("oui") if value else _("non")
    return str(value)


def _row_changes(before: list, after: list, label, shown) -> list[Change]:
    """Return the rows that differ, position by position: label(index), shown(row)."""
    changes = []
    for index in range(max(len(before), len(after))):
        old = before[index] if index < len(before) else None
        new = after[index] if index < len(after) else None
        if old != new:
            changes.append(Change(str(label(index)), shown(old), shown(new)))
    return changes


def _proposition_changes(before: list, after: list) -> list[Change]:
    return _row_changes(before, after, lambda i: PROPOSITION_LABEL % {"letter": _letter(i)},
                        _proposition_text)


def _letter(index: int) -> str:
    return chr(ord("A") + index) if index < 26 else str(index + 1)


def _proposition_text(row) -> str:
    if not row:
        return "—"
    marks = []
    if row.get("is_right"):
        marks.append(_("bonne réponse"))
    if row.get("is_hidden"):
        marks.append(_("cachée"))
    return f"{row.get('text', '')} ({', '.join(marks)})" if marks else row.get("text", "")


def _slot_changes(before: list, after: list) -> list[Change]:
    known = Question.objects.in_bulk({pk for pk in [*before, *after] if pk})
    return _row_changes(before, after, lambda i: SLOT_LABEL % {"n": i + 1},
                        lambda pk: _question_text(known, pk))


def _question_text(known, pk) -> str:
    if pk is None:
        return "—"
    question = known.get(pk)
    if question is None:
        return _("question supprimée (n°%(pk)s)") % {"pk": pk}
    return _("%(text)s (difficulté %(d)s)") % {"text": question, "d": question.difficulty}
