"""The change form's live preview: a question or card as it will print, before it is saved.

The page posts its form as the editor left it. The object is built in memory (nothing is
written), read by its product's `to_item` as a print reads it, and printed by the same
writer, layout and faces as a print of a one-object selection with the default options:
each face is then cut out of its sheet and turned upright, as a PNG. Text that does not
fit is reported with the print's own sentences, and outlined in red on the picture.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pypdfium2 as pdfium
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from PIL import Image
from reportlab.lib.colors import Color
from reportlab.lib.units import mm

from cms import composer
from cms.games import KINDS
from cms.models import Card, CardQuestion, Proposition, Question, Status
from cms.validation import GameContent, Problem, PropositionRow
from cms.validators import MAX_DIGITS, WHOLE_NUMBER, plain_line_ends

from .draw import CanvasPen, rgb
from .products import IMAGE_PANELS, PRODUCTS, Deck, ImagePanel
from .render import DEFAULT_OPTIONS, PrintOptions, Run, Selected, Writer, write_run
from .sheets import BACKS_FOLD, Placement

PREVIEW_DPI = 150
ROWS_MAX = 60  # rows read from a posted formset: more than any kind has
TICKED = ("on", "true", "True", "1")
MARK = "#d62828"  # what does not fit: outlined in red
# How to turn a face drawn at an angle on its sheet back upright (PIL turns anticlockwise).
UPRIGHT = {90: Image.Transpose.ROTATE_270, 180: Image.Transpose.ROTATE_180,
           270: Image.Transpose.ROTATE_90}


class PreviewUnavailable(Exception):
    """Raised when the form does not say enough to print anything: the message says why."""


@dataclass(frozen=True)
class FacePicture:
    side: str  # "front" or "back"
    png: bytes
    width: int
    height: int

    @property
    def data_url(self) -> str:
        return "data:image/png;base64," + base64.b64encode(self.png).decode("ascii")


@dataclass
class Preview:
    """What the preview shows: the product, each face, what cannot print, and why it is
    shown as it is (`note`)."""

    product: Deck
    pdf: bytes
    faces: list[FacePicture]
    problems: list[Problem]
    note: str = ""
    panels: tuple[ImagePanel, ...] = ()


@dataclass
class Edited:
    """The content a preview prints: its card (or ladder question), in memory."""

    kind: str
    source: Any  # the Card, or the Question that is its own card
    card_questions: list[Question] = field(default_factory=list)
    propositions: dict[Any, list[PropositionRow]] = field(default_factory=dict)
    original: Any = None  # the stored object it numbers as, None for a new one
    note: str = ""


# --- reading the posted form ----------------------------------------------------------------


def _number(value) -> int | None:
    text = str(value or "").strip()
    if WHOLE_NUMBER.fullmatch(text) and len(text.lstrip("0")) <= MAX_DIGITS:
        return int(text)
    return None


def _text(data, name: str) -> str:
    return plain_line_ends(str(data.get(name, "") or ""))


def posted_rows(data, prefix: str, names: tuple[str, ...]) -> list[dict]:
    """Return an inline formset's rows as posted, in the order of their positions.

    A row ticked « retirer » or « supprimer », and a row left empty, is not printed.
    """
    rows = []
    for index in range(min(_number(data.get(f"{prefix}-TOTAL_FORMS")) or 0, ROWS_MAX)):
        key = f"{prefix}-{index}-"
        if data.get(key + "DELETE") in TICKED or data.get(key + "remove") in TICKED:
            continue
        row = {name: data.get(key + name, "") for name in names}
        if not str(row[names[0]] or "").strip():
            continue
        position = _number(data.get(key + "position"))
        rows.append((position if position else 10_000, index, row))
    rows.sort(key=lambda row: (row[0], row[1]))
    return [row for _position, _index, row in rows]


def kind_posted(data, original) -> str:
    kind = str(data.get("kind") or getattr(original, "kind", "") or "")
    if kind not in KINDS:
        raise PreviewUnavailable(_("Choisissez un type : l’aperçu montre la carte de ce type."))
    return kind


def question_posted(data, original: Question | None) -> tuple[Question, list[PropositionRow]]:
    """Return the question the form holds, unsaved, and its propositions in order."""
    kind = kind_posted(data, original)
    question = Question(
        pk=getattr(original, "pk", None), ref=getattr(original, "ref", ""), kind=kind,
        status=getattr(original, "status", Status.DRAFT), text=_text(data, "text"),
        difficulty=_number(data.get("difficulty")) or 1, step=_number(data.get("step")),
        answer=_text(data, "answer"), variants=_text(data, "variants"),
        theme=_text(data, "theme"), image=original.image.name if original else "")
    if data.get("image-clear") in TICKED:
        question.image = ""
    rows = [PropositionRow(_text(row, "text"), row["is_right"] in TICKED,
                           row["is_hidden"] in TICKED)
            for row in posted_rows(data, "propositions", ("text", "is_right", "is_hidden"))]
    return question, rows


def stored_rows(questions) -> dict[int, list[PropositionRow]]:
    rows: dict[int, list[PropositionRow]] = {q.pk: [] for q in questions}
    for question_id, text, right, hidden in (
            Proposition.objects.filter(question__in=[q.pk for q in questions])
            .order_by("question_id", "position", "id")
            .values_list("question_id", "text", "is_right", "is_hidden")):
        rows[question_id].append(PropositionRow(text, right, hidden))
    return rows


def stored_question(original: Question) -> tuple[Question, list[PropositionRow]]:
    return original, stored_rows([original])[original.pk]


def edited_question(question: Question, rows: list[PropositionRow],
                    original: Question | None) -> Edited:
    """Return what prints the question: itself, or its card with it in its place."""
    spec = KINDS[question.kind][1]
    if not spec.is_card:
        return Edited(question.kind, question, [question], {question.pk: rows}, original)
    slot = (CardQuestion.objects.filter(question=original.pk, card__kind=question.kind)
            .select_related("card").first() if original is not None else None)
    if slot is None:
        card = Card(kind=question.kind)
        return Edited(question.kind, card, [question], {question.pk: rows}, None, note=_(
            "La question est montrée seule sur une carte de son type : elle n’est sur "
            "aucune carte."))
    card = slot.card
    questions = [question if stored.pk == question.pk else stored
                 for stored in questions_on(card)]
    propositions = stored_rows([q for q in questions if q.pk != question.pk])
    propositions[question.pk] = rows
    return Edited(card.kind, card, questions, propositions, card, note=_(
        "La question est montrée sur sa carte, à sa place."))


def card_posted(data, original: Card | None) -> Edited:
    """Return the card the form holds, unsaved, with the questions its rows name."""
    kind = kind_posted(data, original)
    if not KINDS[kind][1].is_card:
        raise PreviewUnavailable(_("Ce type n’est pas celui d’une carte."))
    card = Card(pk=getattr(original, "pk", None), ref=getattr(original, "ref", ""), kind=kind,
                status=getattr(original, "status", Status.DRAFT), title=_text(data, "title"),
                colour=_text(data, "colour"))
    if data.get(composer.POSTED):
        return composed_card(card, data[composer.POSTED], original)
    pks = [pk for pk in (_number(row["question"]) for row in
                         posted_rows(data, "slots", ("question",))) if pk is not None]
    found = Question.objects.in_bulk(pks)
    questions = [found[pk] for pk in dict.fromkeys(pks) if pk in found]
    return Edited(kind, card, questions, stored_rows(questions), original)


def composed_card(card: Card, raw: str, original: Card | None) -> Edited:
    """Return the card as its composer holds it: picked questions as stored, written ones
    in memory (numbered below zero, as nothing stored is), blank slots left out."""
    try:
        slots = composer.read(raw, KINDS[card.kind][1])
    except ValidationError as error:
        raise PreviewUnavailable(" ".join(error.messages)) from None
    picked = [slot for slot in slots if isinstance(slot, int)]
    found = Question.objects.in_bulk(picked)
    propositions = stored_rows(list(found.values()))
    questions = []
    for number, slot in enumerate(slots, start=1):
        if isinstance(slot, int):
            if slot in found and found[slot] not in questions:
                questions.append(found[slot])
        elif slot is not None:
            written, rows = composer.written_question(slot, card.kind)
            written.pk = -number
            written.difficulty = written.difficulty or 1  # printed as the easiest until set
            questions.append(written)
            propositions[written.pk] = rows
    return Edited(card.kind, card, questions, propositions, original)


def questions_on(card: Card) -> list[Question]:
    """Return the questions a stored card holds, in order."""
    return [slot.question for slot in
            card.slots.select_related("question").order_by("position", "id")]


def stored_card(original: Card) -> Edited:
    questions = questions_on(original)
    return Edited(original.kind, original, questions, stored_rows(questions), original)


# --- printing it ----------------------------------------------------------------------------


class MarkingPen(CanvasPen):
    """A canvas pen that outlines in red the box of every text it cannot print."""

    def fit(self, value, rect, **kwargs):
        fitted = super().fit(value, rect, **kwargs)
        if fitted is None:
            c = self._drawing()
            c.saveState()
            c.setFillColor(Color(*rgb(MARK), alpha=0.18))
            c.setStrokeColorRGB(*rgb(MARK))
            c.setLineWidth(0.6 * mm)
            c.setDash([1.5 * mm, 1 * mm])
            c.rect(rect.x * mm, rect.y * mm, rect.w * mm, rect.h * mm, stroke=1, fill=1)
            c.restoreState()
        return fitted

    def _inner(self, w: float, h: float):
        inner = MarkingPen(self._canvas, w, h, forms=self._forms)
        inner.issues = self.issues
        return inner


class PreviewWriter(Writer):
    pen_class = MarkingPen


def deck_for(kind: str) -> tuple[Deck, Callable[[GameContent, Any], Any]]:
    """Return the deck that prints a content kind, and how it reads its items."""
    game = KINDS[kind][0]
    for product in PRODUCTS.get(game.slug, {}).values():
        if isinstance(product, Deck) and product.kind == kind and product.to_item is not None:
            return product, product.to_item
    raise PreviewUnavailable(_("Rien ne s’imprime pour ce type de contenu."))


def deck_number(edited: Edited, include_drafts: bool) -> int:
    """Return the number the print gives the card: its place in the deck, as stored (a new
    one comes last)."""
    model = type(edited.source)
    objects = model.objects.filter(kind=edited.kind)
    if not include_drafts:
        objects = objects.filter(status=Status.PUBLISHED)
    pks = list(objects.values_list("pk", flat=True))
    original = edited.original
    if original is not None and original.pk in pks:
        return pks.index(original.pk) + 1
    return len(pks) + 1


def content_of(edited: Edited) -> GameContent:
    game = KINDS[edited.kind][0]
    source = edited.source
    if isinstance(source, Card):
        return GameContent(game, [source], list(edited.card_questions), edited.propositions,
                           {source.pk: list(edited.card_questions)}, set())
    return GameContent(game, [], [source], edited.propositions, {}, set())


def face_placements(deck: Deck, options: PrintOptions) -> list[tuple[str, int, Placement]]:
    """Return where the first card's faces lie in its print: (side, page, placement)."""
    sheet = options.sheet_for(deck)
    faces = [("front", 0, sheet.front(0))]
    if deck.has_backs:
        faces.append(("back", 0 if sheet.backs == BACKS_FOLD else 1, sheet.back(0)))
    return faces


def face_picture(document, side: str, page_index: int, placement: Placement,
                 dpi: float) -> FacePicture:
    """Cut a face out of its page at `dpi`, upright."""
    page = document[page_index]
    page_w, page_h = page.get_size()
    trim = placement.trim
    crop = (trim.x * mm, trim.y * mm, page_w - trim.right * mm, page_h - trim.top * mm)
    image = page.render(scale=dpi / 72, crop=crop).to_pil()
    turn = UPRIGHT.get(placement.rotation)
    if turn is not None:
        image = image.transpose(turn)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=3)
    return FacePicture(side, out.getvalue(), image.width, image.height)


def print_edited(edited: Edited, *, include_drafts: bool,
                 options: PrintOptions = DEFAULT_OPTIONS, dpi: float = PREVIEW_DPI) -> Preview:
    """Print the edited card as a one-card selection would, and cut its faces out."""
    deck, to_item = deck_for(edited.kind)
    game = KINDS[edited.kind][0]
    item = to_item(content_of(edited), edited.source)
    entry = Selected(item, edited.source, deck_number(edited, include_drafts))
    out = io.BytesIO()
    writer = PreviewWriter(out, title=f"{game.name} — {deck.label}",
                           subject=_("Aperçu"), options=options, game_slug=game.slug, total=1)
    write_run(writer, Run([deck], [[entry]]))
    writer.save()
    pdf = out.getvalue()
    document = pdfium.PdfDocument(pdf)
    try:
        faces = [face_picture(document, side, page, placement, dpi)
                 for side, page, placement in face_placements(deck, options)]
    finally:
        document.close()
    return Preview(deck, pdf, faces, writer.problems, edited.note,
                   tuple(IMAGE_PANELS[edited.kind]()) if edited.kind in IMAGE_PANELS else ())


def preview_of(model, data, original, *, include_drafts: bool, edited_data: bool) -> Preview:
    """Return the preview of a question or card: the posted form's (`edited_data`), else the
    stored object's."""
    if model is Question:
        if edited_data:
            question, rows = question_posted(data, original)
        elif original is not None:
            question, rows = stored_question(original)
        else:
            raise PreviewUnavailable(_("Rien à montrer."))
        edited = edited_question(question, rows, original)
    elif edited_data:
        edited = card_posted(data, original)
    elif original is not None:
        edited = stored_card(original)
    else:
        raise PreviewUnavailable(_("Rien à montrer."))
    return print_edited(edited, include_drafts=include_drafts)
