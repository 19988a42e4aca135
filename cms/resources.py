"""Import and export resources: questions (propositions flattened), cards, images.

Every import runs in one transaction and is applied whole or not at all: each row is checked
by the model (`full_clean`), then the rules of cms.validation run over every game the file
touches, and any error — on a row of the file, or one the file would cause elsewhere —
rolls the whole file back and is reported against the row and column it comes from.
"""

from __future__ import annotations

import dataclasses
import hashlib

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.core.files.storage import default_storage
from django.db.models import Model, QuerySet
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from import_export import fields, resources, widgets
from import_export.instance_loaders import CachedInstanceLoader
from import_export.resources import Diff
from import_export.results import RowResult

from . import change_log, services, snapshots
from .formats import ImportFileError, normalise_header, replace_rows
from .games import KINDS, MAX_STEP, game_of
from .games.spec import DIFFICULTY_MAX, DIFFICULTY_MIN
from .images import CleanImage, store_clean_image
from .models import Card, CardQuestion, Proposition, Question, Status
from .rules import validate_game
from .typography import typeset
from .validation import new_errors
from .validators import MAX_DIGITS, WHOLE_NUMBER, echoed, plain_line_ends, whole_number

MAX_PROPOSITIONS = max(k.propositions for _game, k in KINDS.values())
PROPOSITION_COLUMNS = [f"proposition_{n}" for n in range(1, MAX_PROPOSITIONS + 1)]

STATUS_WORDS = {
    "brouillon": Status.DRAFT, "draft": Status.DRAFT,
    "relecture": Status.REVIEW, "en_relecture": Status.REVIEW, "review": Status.REVIEW,
    "publie": Status.PUBLISHED, "published": Status.PUBLISHED,
}
STATUS_EXPORT = {Status.DRAFT: "brouillon", Status.REVIEW: "relecture",
                 Status.PUBLISHED: "publie"}


# Which column a rule of cms.validation is about, by problem code.
COLUMN_OF_PROBLEM = {
    "proposition_count": "proposition_1", "proposition_repeated": "proposition_1",
    "right_count": "bonnes", "hidden_count": "cachees", "answer_missing": "reponse",
    "image_missing": "image", "step_missing": "palier", "step_difficulty_band": "difficulte",
    "step_unexpected": "palier", "question_count": "questions", "question_kind": "questions",
    "difficulty_order": "questions", "slot_difficulty_order": "questions",
    "pair_colour_missing": "couleur", "pair_missing": "paire", "pair_kind": "paire",
    "pair_not_mutual": "paire", "pair_mismatch": "paire", "pair_unexpected": "paire",
    "ladder_difficulty_down": "difficulte",
}
# Which column a text field of the model is read from, for a problem about one field.
COLUMN_OF_FIELD = {"text": "texte", "theme": "theme", "answer": "reponse",
                   "variants": "variantes", "anecdote": "anecdote", "source": "source",
                   "title": "titre"}


def column_of(problem) -> str:
    """Return the column of a file a problem of cms.validation is about."""
    args = dict(problem.params)
    if args.get("field") == "proposition":
        return f"proposition_{args['position']}"
    if args.get("field") in COLUMN_OF_FIELD:
        return COLUMN_OF_FIELD[args["field"]]
    return COLUMN_OF_PROBLEM.get(problem.code, NON_FIELD_ERRORS)


# --- widgets: one column's text <-> one value, with errors in French ---------------------


class TextWidget(widgets.Widget):
    """Text as the file holds it. An XLSX file gives back a carriage return as a line feed
    (XML reads CR and CRLF as LF): `ContentResource.snapshot` counts that as no change."""

    def clean(self, value, row=None, **kwargs):
        if value is None:
            return ""
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return str(value).strip(" ")

    def render(self, value, obj=None, **kwargs):
        return "" if value is None else str(value)


class NumberWidget(widgets.Widget):
    """A whole number within bounds, in the digits 0 to 9; `hint` says what is expected."""

    def __init__(self, *, low: int, high: int, hint: str, required: bool):
        super().__init__()
        self.low, self.high, self.hint, self.required = low, high, hint, required

    def clean(self, value, row=None, **kwargs):
        if value is None or (isinstance(value, str) and not value.strip()):
            if self.required:
                raise ValueError(_("Obligatoire : %(hint)s.") % {"hint": self.hint})
            return None
        try:
            number = whole_number(value, field="")
        except ValidationError as refusal:  # the column names the field
            if refusal.code == "number_too_large":
                raise ValueError(_("« %(value)s » est un nombre bien trop grand : %(hint)s.")
                                 % {"value": refusal.params["value"], "hint": self.hint}) from None
            raise ValueError(_("« %(value)s » n’est pas un nombre écrit avec les chiffres 0 à "
                               "9 : %(hint)s.") % {"value": refusal.params["value"],
                                                   "hint": self.hint}) from None
        if not self.low <= number <= self.high:
            raise ValueError(_("« %(value)s » : %(hint)s.") % {"value": value, "hint": self.hint})
        return number

    def render(self, value, obj=None, **kwargs):
        return "" if value is None else value


class ChoiceWidget(widgets.Widget):
    """A word from a fixed vocabulary, matched without case or accents."""

    def __init__(self, words: dict, shown: dict, *, what: str):
        super().__init__()
        self.words = words  # normalised word -> value
        self.shown = shown  # value -> word written on export
        self.what = what

    def clean(self, value, row=None, **kwargs):
        text = "" if value is None else str(value).strip()
        if not text:
            return None
        found = self.words.get(normalise_header(text))
        if found is None:
            raise ValueError(_("%(what)s « %(value)s » inconnu ; possibles : %(choices)s.") % {
                "what": self.what, "value": text,
                "choices": ", ".join(sorted(set(self.shown.values())))})
        return found

    def render(self, value, obj=None, **kwargs):
        return self.shown.get(value, value or "")


def kind_widget(*, cards_only: bool) -> ChoiceWidget:
    kinds = {slug: kind for slug, (_game, kind) in KINDS.items()
             if kind.is_card or not cards_only}
    words = {normalise_header(slug): slug for slug in kinds}
    words.update({normalise_header(str(kind.label)): slug for slug, kind in kinds.items()})
    return ChoiceWidget(words, {slug: slug for slug in kinds}, what=gettext_lazy("Genre"))


class VariantsWidget(TextWidget):
    """Accepted answers: one per line in the database, « a | b » in a file."""

    def clean(self, value, row=None, **kwargs):
        text = super().clean(value)
        parts = [p.strip() for p in text.replace("\n", "|").split("|")]
        return "\n".join(p for p in parts if p)

    def render(self, value, obj=None, **kwargs):
        return " | ".join(line.strip() for line in (value or "").splitlines() if line.strip())


class NumbersWidget(TextWidget):
    """Proposition numbers: « 1 2 » or « 1, 2 » -> « 1 2 »."""

    def clean(self, value, row=None, **kwargs):
        text = super().clean(value).replace(",", " ").replace(";", " ")
        numbers = []
        for word in text.split():
            if (not WHOLE_NUMBER.fullmatch(word) or len(word) > MAX_DIGITS
                    or not 1 <= int(word) <= MAX_PROPOSITIONS):
                raise ValueError(_(
                    "« %(word)s » : numéros de propositions attendus, de 1 à %(n)s, séparés "
                    "par des espaces."
                ) % {"word": echoed(word), "n": MAX_PROPOSITIONS})
            numbers.append(int(word))
        if len(set(numbers)) != len(numbers):
            raise ValueError(_("Un numéro est répété."))
        return " ".join(str(n) for n in sorted(numbers))


class ImageWidget(widgets.Widget):
    """An image from a ZIP bundle, or the stored name a CSV export wrote."""

    def clean(self, value, row=None, **kwargs):
        if isinstance(value, CleanImage):
            return value
        name = "" if value is None else str(value).strip()
        if not name:
            return ""
        try:
            known = name.startswith("questions/") and default_storage.exists(name)
        except Exception:  # a name that points outside the media folder
            known = False
        if not known:
            raise ValueError(_(
                "Image « %(name)s » introuvable : importez les images dans une archive ZIP "
                "(la feuille et les fichiers qu’elle nomme)."
            ) % {"name": name})
        return name

    def render(self, value, obj=None, **kwargs):
        return getattr(value, "name", value) or ""


def status_field() -> fields.Field:
    words = dict(STATUS_WORDS)
    return fields.Field(attribute="status", column_name="statut",
                        widget=ChoiceWidget(words, STATUS_EXPORT, what=gettext_lazy("Statut")))


# --- columns that no model field holds ----------------------------------------------------


class ColumnField(fields.Field):
    """A column no model field holds: a proposition, « bonnes », a card's « questions ».

    On export `read(obj)` returns every such column of an object at once; on import the
    resource keeps the column in the row's state, never on the object.
    """

    def __init__(self, name: str, *, column_name: str, widget, read):
        super().__init__(attribute=name, column_name=column_name, widget=widget)
        self.read = read

    def get_value(self, instance):
        """Field.get_value: read the column from what the object holds, not an attribute."""
        return self.read(instance)[self.attribute]


def question_columns(question: Question) -> dict[str, str]:
    """Return a question's propositions as a file writes them: texts, bonnes, cachees."""
    propositions = sorted(question.propositions.all(), key=lambda p: (p.position, p.pk))
    columns = {column: propositions[n].text if n < len(propositions) else ""
               for n, column in enumerate(PROPOSITION_COLUMNS)}
    columns["right_numbers"] = " ".join(
        str(n) for n, p in enumerate(propositions, start=1) if p.is_right)
    columns["hidden_numbers"] = " ".join(
        str(n) for n, p in enumerate(propositions, start=1) if p.is_hidden)
    return columns


def card_columns(card: Card) -> dict[str, str]:
    """Return a card's twin and questions as a file writes them."""
    return {"pair_ref": card.pair.ref if card.pair_id else "",
            "question_refs": " ".join(s.question.ref for s in card.ordered_slots())}


# --- what an import keeps from one hook to the next ---------------------------------------


@dataclasses.dataclass(eq=False)
class RowState:
    """What the hooks learn about one row of the file and pass on to the next ones."""

    number: int  # as the library counts rows: the first data row is 1
    values: dict  # the row as read
    instance: Model | None = None
    before: tuple | None = None  # the object as loaded (`snapshot`); None: a new object
    columns: dict = dataclasses.field(default_factory=dict)  # see ColumnField
    image: CleanImage | None = None  # read from a ZIP; stored when the row is saved
    propositions: list[Proposition] | None = None  # None: the file leaves them as they are
    as_correction: bool = False  # the row waits beside published content


@dataclasses.dataclass(eq=False)
class ImportRun:
    """What one import keeps from its first row to its last; each import_data starts one."""

    user: object = None
    first_line: int = 1  # how the file numbers its first data row
    current: RowState | None = None  # the row being imported
    rows: dict[int, RowState] = dataclasses.field(default_factory=dict)
    seen_refs: dict[str, int] = dataclasses.field(default_factory=dict)  # ref -> row
    tokens_now: dict[str, str] = dataclasses.field(default_factory=dict)  # see services
    games: set[str] = dataclasses.field(default_factory=set)
    errors_before: dict[str, list] = dataclasses.field(default_factory=dict)  # by game
    saved: list[RowState] = dataclasses.field(default_factory=list)
    corrections: list[RowState] = dataclasses.field(default_factory=list)
    written_images: list[str] = dataclasses.field(default_factory=list)
    theme_spellings: dict = dataclasses.field(default_factory=dict)  # see services
    # Every error of the run, by row then by column: the rows' own and those found after.
    errors: dict[int, dict[str, list[ValidationError]]] = dataclasses.field(
        default_factory=dict)

    def line(self, number: int) -> int:
        """Return the line of the file a row is on."""
        return number + self.first_line - 1

    def add_error(self, number: int, error: ValidationError) -> None:
        """Add errors to a row's, by column."""
        self.errors[number] = error.update_error_dict(self.errors.get(number, {}))


@dataclasses.dataclass(eq=False)
class CardImportRun(ImportRun):
    """An import of cards also keeps the questions the file names, and the twins to link."""

    questions: dict[str, Question] = dataclasses.field(default_factory=dict)  # by ref
    card_of_question: dict[str, str] = dataclasses.field(default_factory=dict)  # as stored
    file_cards: set[str] = dataclasses.field(default_factory=set)  # refs
    file_card_pks: set[int] = dataclasses.field(default_factory=set)
    claimed: dict[str, str] = dataclasses.field(default_factory=dict)  # in the file
    pairs: list[RowState] = dataclasses.field(default_factory=list)  # rows naming a twin


class ContentRowResult(RowResult):
    """A row's result, which also says whether the row waits as a correction: the admin
    counts those, and the revision leaves their live object out."""

    as_correction = False


class RowDiff(Diff):
    """The preview's before and after of a row, whose columns that no model field holds are
    read from the row's state.

    Diff.__init__ is not called: it reads every column from the object, and a new question
    has no propositions to read yet.
    """

    def __init__(self, resource, instance, new):
        self.left = resource.preview_values(instance)
        self.right = []
        self.new = new

    def compare_with(self, resource, instance):
        """Diff.compare_with: read the row's after the way its before was read."""
        self.right = resource.preview_values(instance)


# --- what questions and cards share -------------------------------------------------------


class ContentResource(resources.ModelResource):
    """Stable keys, French columns, whole-or-nothing imports checked by cms.validation.

    Each import_data starts a new `ImportRun` (`self.run`); the hooks keep what they learn
    there, by row, and never on the model instances.
    """

    ref = fields.Field(attribute="ref", column_name="ref", widget=TextWidget())
    status = status_field()

    # Columns a file must have (the importer may supply « genre » instead).
    required_columns: tuple[str, ...] = ()
    # Model attributes the file's columns write (for bulk updates and change detection).
    model_attributes: tuple[str, ...] = ()
    run_class = ImportRun

    def __init__(self, *, kind: str = "", user=None,
                 expected_tokens: dict | None = None, tokens_out: dict | None = None,
                 on_row=None, **kwargs):
        """`kind` fills a missing « genre ».

        `tokens_out` receives, by ref, the version of each object the file names as this
        run found it (a preview); `expected_tokens` are those of the preview being
        confirmed: a row whose object changed since is refused, naming it. `on_row(number)`
        is called as each row is read (a background import's progress).
        """
        super().__init__(**kwargs)
        self.flushes_log = True  # import_data says whether an outer write flushes instead
        self.on_row = on_row
        self.default_kind = kind
        self.user = user
        self.expected_tokens = expected_tokens
        self.tokens_out = tokens_out
        self.run = self.run_class(user=user)

    class Meta:
        import_id_fields = ["ref"]
        clean_model_instances = True
        use_transactions = True
        instance_loader_class = CachedInstanceLoader
        report_skipped = True

    @classmethod
    def get_row_result_class(cls):
        """Resource.get_row_result_class: ContentRowResult, which tells a correction."""
        return ContentRowResult

    @classmethod
    def get_diff_class(cls):
        """Resource.get_diff_class: RowDiff, which shows the propositions and questions."""
        return RowDiff

    # --- the run as a whole ---

    def import_data(self, dataset, dry_run=False, raise_errors=False, use_transactions=None,
                    collect_failed_rows=False, rollback_on_validation_errors=False, **kwargs):
        """Resource.import_data: start a new run; refuse a file whose columns are wrong
        before any row is read; always in a transaction that any error rolls back, whole,
        with the images the run stored."""
        self.run = self.run_class(user=kwargs.get("user") or self.user,
                                  first_line=getattr(dataset, "first_line", 1))
        try:
            self.check_columns(dataset)
        except ImportFileError as error:
            result = self.get_result_class()()
            result.total_rows = len(dataset)
            result.append_base_error(self.get_error_result_class()(error))
            return result
        # The change log is written once, last (after_import): see change_log.gathering.
        with change_log.gathering() as self.flushes_log:
            result = super().import_data(
                dataset, dry_run=dry_run, raise_errors=raise_errors, use_transactions=True,
                collect_failed_rows=collect_failed_rows, rollback_on_validation_errors=True,
                **kwargs)
        if result.has_errors() or result.has_validation_errors():
            # The database rolled back: the images this run stored belong to nothing.
            for name in self.run.written_images:
                default_storage.delete(name)
        return result

    def check_columns(self, dataset):
        """Refuse unknown or missing columns; fill in the importer's default kind."""
        known = {f.column_name for f in self.get_import_fields()}
        unknown = [h for h in dataset.headers if h not in known]
        if unknown:
            raise ImportFileError(_(
                "Colonne(s) inconnue(s) : %(unknown)s. Colonnes possibles : %(known)s."
            ) % {"unknown": ", ".join(unknown), "known": ", ".join(sorted(known))})
        if "genre" in self.required_columns and self.default_kind:
            self.fill_kind(dataset)
        missing = [c for c in self.required_columns if c not in dataset.headers]
        if missing:
            raise ImportFileError(_("Colonne(s) manquante(s) : %(cols)s.") % {
                "cols": ", ".join(missing)})
        if "ref" not in dataset.headers:
            dataset.append_col([""] * len(dataset), header="ref")
        self.fill_refs(dataset)

    def before_import(self, dataset, **kwargs):
        """Resource.before_import: note what the run compares against: the versions of the
        objects the file names, and the errors of each game it touches before it."""
        run = self.run
        refs = [str(r or "").strip() for r in dataset["ref"]] if "ref" in dataset.headers else []
        run.tokens_now = services.tokens_for(self.Meta.model, refs)
        if self.tokens_out is not None:
            self.tokens_out.update({ref: run.tokens_now.get(ref, "new") for ref in refs if ref})
        run.games = self.games_in(dataset)
        run.errors_before = {slug: self.error_keys(validate_game(slug)) for slug in run.games}

    def fill_kind(self, dataset):
        if self.default_kind not in KINDS:
            raise ImportFileError(_("Genre « %(kind)s » inconnu.") % {"kind": self.default_kind})
        # Blank lines stay blank: they are skipped, not imported as empty questions.
        filled = [any(str(v or "").strip() for v in row) for row in dataset]
        if "genre" not in dataset.headers:
            dataset.append_col([self.default_kind if f else "" for f in filled],
                               header="genre")
            return
        column = dataset.headers.index("genre")
        rows = [list(r) for r in dataset]
        for row, is_filled in zip(rows, filled, strict=True):
            if is_filled and not str(row[column] or "").strip():
                row[column] = self.default_kind
        replace_rows(dataset, rows)

    def fill_refs(self, dataset):
        """Give rows without a ref one drawn from their content, so re-imports match."""
        column = dataset.headers.index("ref")
        rows = [list(r) for r in dataset]
        missing = False
        for row in rows:
            if not str(row[column] or "").strip() and any(str(v or "").strip() for v in row):
                seed = "|".join(str(v) for v in row)
                row[column] = "i-" + hashlib.sha1(seed.encode("utf-8")).hexdigest()[:12]
                missing = True
        if missing:
            replace_rows(dataset, rows)

    def games_in(self, dataset) -> set[str]:
        games = set()
        if "genre" in dataset.headers:
            widget = self.fields["kind"].widget
            for value in dataset["genre"]:
                try:
                    kind = widget.clean(value)
                except ValueError:
                    continue
                if kind:
                    games.add(game_of(kind).slug)
        return games

    @staticmethod
    def error_keys(report) -> list:
        """Return the errors the content had before the file: `new_errors` tells them apart."""
        return report.errors

    # --- one row ---

    def import_row(self, row, instance_loader, **kwargs):
        """Resource.import_row: skip blank lines; give each row its state; note the row's
        errors, by column, and whether it waits as a correction."""
        if not any(str(v or "").strip() for v in row.values()):
            # A blank line between rows: neither new, changed nor unchanged.
            return self.get_row_result_class()()
        number = kwargs["row_number"]
        if self.on_row is not None:
            self.on_row(number)
        state = self.run.current = self.run.rows[number] = RowState(number=number, values=row)
        result = super().import_row(row, instance_loader, **kwargs)
        if result.validation_error is not None:
            self.run.add_error(number, self.by_column(result.validation_error))
        result.as_correction = state.as_correction
        return result

    def by_column(self, error: ValidationError) -> ValidationError:
        """Key a row's errors by the file's column names instead of model attributes."""
        columns = {f.attribute: f.column_name for f in self.get_import_fields()}
        columns.update({"questions": "questions", NON_FIELD_ERRORS: NON_FIELD_ERRORS})
        if not hasattr(error, "error_dict"):
            return error
        return ValidationError({columns.get(key, key): value
                                for key, value in error.error_dict.items()})

    def after_init_instance(self, instance, new, row, **kwargs):
        """Resource.after_init_instance: keep the object as loaded, to tell an unchanged row
        and the status it had."""
        state = self.run.current
        state.instance = instance
        if not new:
            state.columns = self.columns_of(instance)
            state.before = self.snapshot(instance, state.columns)

    def columns_of(self, instance) -> dict:
        """Return the columns no model field holds, as the object stands (read once)."""
        reads = {f.read for f in self.fields.values() if isinstance(f, ColumnField)}
        return {name: value for read in reads for name, value in read(instance).items()}

    def snapshot(self, instance, columns: dict) -> tuple:
        """Return what a file can change of an object, to compare."""
        names = sorted(f.attribute for f in self.fields.values() if isinstance(f, ColumnField))
        values = [*(getattr(instance, a) for a in self.model_attributes),
                  *(columns.get(name) for name in names)]
        # Line ends compared as an XLSX file holds them: a stored CR read back as LF is no edit.
        return tuple(plain_line_ends(str(v or "")) for v in values)

    def preview_values(self, instance) -> list:
        """Return the row's columns as the preview shows them (see RowDiff)."""
        columns = self.run.current.columns
        return [f.widget.render(columns.get(f.attribute)) if isinstance(f, ColumnField)
                else f.export(instance) for f in self.get_import_fields()]

    def import_field(self, field, instance, row, is_m2m=False, **kwargs):
        """Resource.import_field: keep a column no model field holds, and an image read
        from a ZIP, in the row's state; the object gets its model fields only."""
        if field.column_name not in row:
            return
        if isinstance(field, ColumnField):
            self.run.current.columns[field.attribute] = field.clean(row, **kwargs)
        elif isinstance(field.widget, ImageWidget):
            image = field.clean(row, **kwargs)
            self.run.current.image = image if isinstance(image, CleanImage) else None
            instance.image = getattr(image, "storage_name", image) or ""
        else:
            super().import_field(field, instance, row, is_m2m, **kwargs)

    def import_instance(self, instance, row, **kwargs):
        """Resource.import_instance: also refuse a ref the file repeats or one changed since
        the preview, and read what the model does not hold (`import_extra`)."""
        run = self.run
        number = kwargs.get("row_number", 0)
        errors = {}
        ref = TextWidget().clean(row.get("ref"))
        if ref in run.seen_refs:
            errors["ref"] = ValidationError(
                _("La référence « %(ref)s » est déjà utilisée ligne %(line)s du fichier."),
                code="ref_repeated", params={"ref": ref, "line": run.line(run.seen_refs[ref])})
        run.seen_refs[ref] = number
        changed = self.changed_since_preview(ref)
        if changed:
            errors["ref"] = changed
        try:
            super().import_instance(instance, row, **kwargs)
        except ValidationError as error:
            errors.update(error.error_dict)
        self.typeset(instance)
        errors.update(self.import_extra(instance, run.current))
        if errors:
            raise ValidationError(errors)

    def typeset(self, instance) -> None:
        """Set the row's text as cms.services stores it: a row that differs from the stored
        object only by its typography (or a theme's accents) is unchanged."""

    def changed_since_preview(self, ref: str) -> ValidationError | None:
        """Refuse a row whose object changed (or appeared) after the preview was shown."""
        if self.expected_tokens is None or not ref:
            return None
        if self.expected_tokens.get(ref, "new") == self.run.tokens_now.get(ref, "new"):
            return None
        obj = self.Meta.model.objects.filter(ref=ref).select_related("updated_by").first()
        who = obj.updated_by.get_username() if obj and obj.updated_by else _("quelqu’un")
        return ValidationError(
            _("« %(ref)s » a été modifié par %(who)s depuis l’aperçu : rien n’est importé ; "
              "relancez l’import pour voir ce qui a changé."),
            code="changed_since_preview", params={"ref": ref, "who": who})

    def import_extra(self, instance, state: RowState) -> dict:
        """Read what the model does not hold directly; return errors by column."""
        return {}

    def skip_row(self, instance, original, row, import_validation_errors=None):
        """Resource.skip_row: a valid row that changes nothing of its object is unchanged,
        propositions and a card's questions included."""
        state = self.run.current
        if import_validation_errors or state.before is None:
            return False
        return self.snapshot(instance, state.columns) == state.before

    def validate_instance(self, instance, import_validation_errors=None, validate_unique=True):
        """Resource.validate_instance: add the workflow's rules to the model's, and spare
        the queries of checks the loader and the field validators already make."""
        errors = dict(import_validation_errors or {})
        errors.update(self.status_errors(instance))
        exclude = set(errors)
        if self.run.current.image is not None:
            exclude.add("image")  # checked and re-encoded when the archive was read
        try:
            # Refs are unique by the loader and the file check; the check constraints
            # repeat the field validators. Skipping both spares queries per row.
            instance.full_clean(exclude=exclude, validate_unique=False,
                                validate_constraints=False)
        except ValidationError as error:
            errors = error.update_error_dict(errors)
        if errors:
            raise ValidationError(errors)

    def status_errors(self, instance) -> dict:
        """Apply the workflow's rules to a row: cms.services says what a file may do."""
        state, user = self.run.current, self.run.user
        before_status = (state.before[self.model_attributes.index("status")]
                         if state.before else None)
        state.as_correction = services.edit_goes_to_correction(
            user=user, obj=instance, before_status=before_status)
        if state.as_correction:
            # Published content stays live: the row waits beside it as a correction.
            error = services.import_correction_error(user=user, obj=instance)
            return {"ref": error} if error is not None else {}
        error = services.import_status_error(user=user, obj=instance,
                                             status=instance.status, before=before_status)
        return {"status": error} if error is not None else {}

    def save_instance(self, instance, is_create, row, **kwargs):
        """Resource.save_instance: a row that changes published content is not written; it
        waits, its image stored, to be proposed as a correction once every row is in."""
        if self.run.current.as_correction:
            self.before_save_instance(instance, row, **kwargs)  # in memory only, but images
            self.run.corrections.append(self.run.current)
            return
        super().save_instance(instance, is_create, row, **kwargs)

    def before_save_instance(self, instance, row, **kwargs):
        """Resource.before_save_instance: stamp who writes the object and when; store the
        row's image (not on a dry run)."""
        user = self.run.user if getattr(self.run.user, "pk", None) else None
        now = timezone.now()
        instance.updated_at = now
        if instance.pk is None:
            instance.created_at = now
            instance.created_by = user
        instance.updated_by = user
        image = self.run.current.image
        if image is not None and not kwargs.get("dry_run") and store_clean_image(image):
            self.run.written_images.append(image.storage_name)

    def after_save_instance(self, instance, row, **kwargs):
        """Resource.after_save_instance: keep the row, for the rules across rows."""
        self.run.saved.append(self.run.current)

    def correction_data(self, state: RowState) -> dict:
        """Return a row that changes published content as the correction it proposes."""
        raise NotImplementedError

    def propose_corrections(self) -> None:
        """Write the rows that change published content as pending corrections, checked."""
        items = []
        for state in self.run.corrections:
            data = self.correction_data(state)
            live = self.Meta.model.objects.get(pk=state.instance.pk)
            for problem in services.snapshot_problems(live, data):
                if problem.is_error:
                    self.add_row_error(state.number, column_of(problem), problem.message,
                                       code=problem.code)
            items.append((live, data))
        if not self.run.errors:
            services.propose_many(items=items, user=self.run.user)

    # --- the rules across rows, once every row is in ---

    def after_import(self, dataset, result, **kwargs):
        """Resource.after_import: once every row is in, write what needs them all (twins,
        corrections), run the rules across rows, and report every error by its line."""
        super().after_import(dataset, result, **kwargs)
        try:
            if not result.has_errors():
                self.link()
                self.propose_corrections()
                self.check_games()
        finally:
            self.report_errors(result)
        if self.flushes_log and not (result.has_errors() or result.has_validation_errors()):
            # The last write of the import's transaction: each game's generation is locked
            # from here to the commit only (change_log.gathering). Within import_dataset, it
            # flushes after the revision instead.
            change_log.flush()

    def link(self) -> None:
        """Write what needs every row saved first (duel twins)."""

    def check_games(self) -> None:
        """Run cms.validation over each game the file touches; blame each error it did not
        have before on the row it is about, or else on the game's first row."""
        run = self.run
        row_of = {(type(s.instance).__name__.lower(), s.instance.pk): s.number
                  for s in run.saved}
        first_row_of_game = {}
        for state in run.saved:
            first_row_of_game.setdefault(state.instance.game.slug, state.number)
        for slug in sorted(run.games):
            report = validate_game(slug)
            # An error the content had already, no worse, is not the file's.
            for problem in new_errors(report, run.errors_before[slug]):
                number = row_of.get(problem.target_key)
                column = column_of(problem)
                message = str(problem.message)
                if number is None and problem.step is not None:
                    number = next((s.number for s in run.saved
                                   if getattr(s.instance, "step", None) == problem.step
                                   and s.instance.game.slug == slug), None)
                if number is None:
                    # An error the file causes elsewhere: blame the game's first row.
                    number = first_row_of_game.get(slug)
                    if number is None:
                        continue
                    column = NON_FIELD_ERRORS
                    if problem.target is not None:
                        message = _("« %(other)s » (hors du fichier) : %(msg)s") % {
                            "other": problem.target.ref, "msg": message}
                self.add_row_error(number, column, message, code=problem.code)

    def add_row_error(self, number: int, column: str, message, *, code: str) -> None:
        """Add an error found once every row is in to a row's, under a column."""
        self.run.add_error(number, ValidationError({column: ValidationError(str(message),
                                                                            code=code)}))

    def report_errors(self, result) -> None:
        """Put the run's errors in the result: one entry a row, named by its line in the
        file, with every error found on it, during the row or after."""
        result.invalid_rows = []  # the library's, numbered from 1 and missing later errors
        for number, errors in sorted(self.run.errors.items()):
            state = self.run.rows.get(number)
            result.append_invalid_row(self.run.line(number), state.values if state else {},
                                      ValidationError(errors))


# --- questions ----------------------------------------------------------------------------


def _proposition_fields() -> dict:
    found = {}
    for column in PROPOSITION_COLUMNS:
        found[column] = ColumnField(column, column_name=column, widget=TextWidget(),
                                    read=question_columns)
    found["right_numbers"] = ColumnField("right_numbers", column_name="bonnes",
                                         widget=NumbersWidget(), read=question_columns)
    found["hidden_numbers"] = ColumnField("hidden_numbers", column_name="cachees",
                                          widget=NumbersWidget(), read=question_columns)
    return found


class QuestionResource(ContentResource):
    kind = fields.Field(attribute="kind", column_name="genre",
                        widget=kind_widget(cards_only=False))
    text = fields.Field(attribute="text", column_name="texte", widget=TextWidget())
    difficulty = fields.Field(attribute="difficulty", column_name="difficulte",
                              widget=NumberWidget(low=DIFFICULTY_MIN, high=DIFFICULTY_MAX,
                                                  hint=gettext_lazy("un nombre de 1 (facile) à 5 "
                                                                    "(difficile)"), required=True))
    theme = fields.Field(attribute="theme", column_name="theme", widget=TextWidget())
    step = fields.Field(attribute="step", column_name="palier",
                        widget=NumberWidget(low=1, high=MAX_STEP, required=False,
                                            hint=format_lazy(gettext_lazy("un palier de 1 à {n}"),
                                                             n=MAX_STEP)))
    answer = fields.Field(attribute="answer", column_name="reponse", widget=TextWidget())
    variants = fields.Field(attribute="variants", column_name="variantes",
                            widget=VariantsWidget())
    locals().update(_proposition_fields())
    anecdote = fields.Field(attribute="anecdote", column_name="anecdote", widget=TextWidget())
    source = fields.Field(attribute="source", column_name="source", widget=TextWidget())
    image = fields.Field(attribute="image", column_name="image", widget=ImageWidget())

    required_columns = ("genre", "texte", "difficulte")
    model_attributes = ("kind", "text", "difficulty", "theme", "step", "answer", "variants",
                        "anecdote", "source", "image", "status")

    class Meta(ContentResource.Meta):
        model = Question
        name = gettext_lazy("Questions")
        fields = ("ref", "kind", "text", "difficulty", "theme", "step", "answer", "variants",
                  *PROPOSITION_COLUMNS, "right_numbers", "hidden_numbers", "anecdote",
                  "source", "image", "status")
        import_order = fields
        export_order = fields
        use_bulk = True
        batch_size = 1000

    def get_queryset(self):
        return Question.objects.prefetch_related("propositions").order_by("kind", "step", "ref")

    def filter_export(self, queryset, **kwargs):
        """Resource.filter_export: load the propositions with the questions, whatever
        queryset the admin passes: the proposition columns read them."""
        if isinstance(queryset, QuerySet):
            return queryset.prefetch_related("propositions")
        return queryset

    def check_columns(self, dataset):
        super().check_columns(dataset)
        if "palier" not in dataset.headers and {"genre", "difficulte"} <= set(dataset.headers):
            self.fill_steps(dataset)

    def fill_steps(self, dataset):
        """Give ladder questions from a file without « palier » (a public bank) a step that
        fits their difficulty, spread over the steps by their ref."""
        kinds, refs = dataset["genre"], dataset["ref"]
        difficulties = dataset["difficulte"]
        steps = []
        for kind, ref, difficulty in zip(kinds, refs, difficulties, strict=True):
            spec = KINDS.get(str(kind or "").strip())
            step = ""
            if spec is not None and spec[1].ladder:
                try:
                    level = whole_number(difficulty, field="difficulte")
                except ValidationError:
                    level = None  # the difficulty column reports it
                fitting = [s.number for s in spec[0].ladder
                           if level is not None and s.difficulty_band[0] <= level
                           <= s.difficulty_band[1]]
                if fitting:
                    seed = int(hashlib.sha1(str(ref).encode()).hexdigest(), 16)
                    step = fitting[seed % len(fitting)]
            steps.append(step)
        if any(steps):
            dataset.append_col(steps, header="palier")

    def typeset(self, instance) -> None:
        services.typeset_question(instance, spellings=self.run.theme_spellings)

    def import_extra(self, instance, state: RowState) -> dict:
        if not any(c in state.values for c in (*PROPOSITION_COLUMNS, "bonnes", "cachees")):
            return {}  # the file leaves the propositions as they are
        columns = state.columns
        for column in PROPOSITION_COLUMNS:
            if isinstance(columns.get(column), str):
                columns[column] = typeset(columns[column])
        texts = [str(columns.get(c) or "") for c in PROPOSITION_COLUMNS]
        while texts and not texts[-1]:
            texts.pop()
        errors = {}
        if "" in texts:
            gap = texts.index("") + 1
            errors[f"proposition_{gap}"] = ValidationError(
                _("Proposition vide entre deux propositions remplies."), code="proposition_gap")
        for column, name in (("bonnes", "right_numbers"), ("cachees", "hidden_numbers")):
            numbers = [int(n) for n in str(columns.get(name) or "").split()]
            beyond = [n for n in numbers if n > len(texts)]
            if beyond:
                errors[column] = ValidationError(
                    _("La proposition %(n)s n’existe pas (il y en a %(count)s)."),
                    code="proposition_unknown", params={"n": beyond[0], "count": len(texts)})
        right = set(str(columns.get("right_numbers") or "").split())
        hidden = set(str(columns.get("hidden_numbers") or "").split())
        state.propositions = [
            Proposition(position=n, text=text, is_right=str(n) in right,
                        is_hidden=str(n) in hidden)
            for n, text in enumerate(texts, start=1)
        ]
        too_long = [p for p in state.propositions
                    if len(p.text) > Proposition._meta.get_field("text").max_length]
        if too_long:
            errors[f"proposition_{too_long[0].position}"] = ValidationError(
                _("Proposition trop longue (300 caractères au plus)."), code="max_length")
        return errors

    def bulk_create(self, using_transactions, dry_run, raise_errors, batch_size=None,
                    result=None):
        """Resource.bulk_create: write through cms.services, with the propositions."""
        self.write_many(created=self.create_instances, updated=[], raise_errors=raise_errors,
                        result=result)

    def bulk_update(self, using_transactions, dry_run, raise_errors, batch_size=None,
                    result=None):
        """Resource.bulk_update: write through cms.services, with the propositions."""
        self.write_many(created=[], updated=self.update_instances, raise_errors=raise_errors,
                        result=result)

    def write_many(self, *, created, updated, raise_errors, result):
        # The library's lists hold the questions; the rows' states hold their propositions.
        propositions = {id(state.instance): state.propositions for state in self.run.saved}
        try:
            services.questions_write_many(
                created=[(q, propositions.get(id(q))) for q in created],
                updated=[(q, propositions.get(id(q))) for q in updated],
                user=self.run.user, fields=self.model_attributes,
                batch_size=self.Meta.batch_size)
        except Exception as error:
            self.handle_import_error(result, error, raise_errors)
        finally:
            created.clear()
            updated.clear()

    def correction_data(self, state: RowState) -> dict:
        instance = state.instance
        data = {name: snapshots.field_value(instance, name) for name in snapshots.QUESTION_FIELDS}
        if state.image is not None:
            data["image"] = state.image.storage_name
        propositions = state.propositions
        if propositions is None:
            propositions = list(Proposition.objects.filter(question=instance.pk)
                                .order_by("position", "id"))
        data["propositions"] = [{"text": p.text, "is_right": p.is_right,
                                 "is_hidden": p.is_hidden} for p in propositions]
        return data


class QuestionImageResource(QuestionResource):
    """Attach images to questions that already exist: a ZIP of « ref, image » and the files."""

    required_columns = ("ref", "image")

    class Meta(QuestionResource.Meta):
        name = gettext_lazy("Images des questions")
        fields = ("ref", "image")
        import_order = fields
        export_order = fields
        use_bulk = False

    def games_in(self, dataset) -> set[str]:
        """The file has no « genre »: its games are those of the questions it names."""
        refs = [str(r or "").strip() for r in dataset["ref"]]
        kinds = Question.objects.filter(ref__in=refs).values_list("kind", flat=True)
        return {game_of(kind).slug for kind in kinds}

    def import_instance(self, instance, row, **kwargs):
        """ContentResource.import_instance: also refuse a ref no question has."""
        errors = {}
        if instance.pk is None:
            errors["ref"] = ValidationError(
                _("Aucune question n’a la référence « %(ref)s »."), code="unknown_ref",
                params={"ref": row.get("ref")})
        try:
            super().import_instance(instance, row, **kwargs)
        except ValidationError as error:
            errors.update(error.error_dict)
        if errors:
            raise ValidationError(errors)

    def save_instance(self, instance, is_create, row, **kwargs):
        """ContentResource.save_instance: write the image alone onto the live question
        through cms.services, the rest of it as stored."""
        if self.run.current.as_correction:
            super().save_instance(instance, is_create, row, **kwargs)  # waits as a correction
            return
        self.before_save_instance(instance, row, **kwargs)
        if not kwargs.get("dry_run"):
            live = Question.objects.get(pk=instance.pk)
            data = snapshots.of_object(live)
            data["image"] = instance.image.name or ""
            services.content_save(obj=live, data=data, user=self.run.user)
        self.after_save_instance(instance, row, **kwargs)


# --- cards --------------------------------------------------------------------------------


class CardResource(ContentResource):
    kind = fields.Field(attribute="kind", column_name="genre",
                        widget=kind_widget(cards_only=True))
    title = fields.Field(attribute="title", column_name="titre", widget=TextWidget())
    colour = fields.Field(attribute="colour", column_name="couleur", widget=TextWidget())
    pair_ref = ColumnField("pair_ref", column_name="paire", widget=TextWidget(),
                           read=card_columns)
    question_refs = ColumnField("question_refs", column_name="questions", widget=TextWidget(),
                                read=card_columns)

    required_columns = ("genre", "questions")
    model_attributes = ("kind", "title", "colour", "status")
    run_class = CardImportRun

    class Meta(ContentResource.Meta):
        model = Card
        name = gettext_lazy("Cartes")
        fields = ("ref", "kind", "title", "colour", "pair_ref", "question_refs", "status")
        import_order = fields
        export_order = fields

    def get_queryset(self):
        return (Card.objects.select_related("pair")
                .prefetch_related("slots__question").order_by("kind", "ref"))

    def filter_export(self, queryset, **kwargs):
        """Resource.filter_export: load each card's twin and questions with it, whatever
        queryset the admin passes: the « paire » and « questions » columns read them."""
        if isinstance(queryset, QuerySet):
            return queryset.select_related("pair").prefetch_related("slots__question")
        return queryset

    def before_import(self, dataset, **kwargs):
        """ContentResource.before_import: also load the questions the file names, the
        cards they are on, and the file's cards."""
        super().before_import(dataset, **kwargs)
        run = self.run
        wanted = set()
        if "questions" in dataset.headers:
            for value in dataset["questions"]:
                wanted.update(self.split_refs(value))
        run.questions = {q.ref: q for q in Question.objects.filter(ref__in=wanted)}
        run.card_of_question = dict(
            CardQuestion.objects.filter(question__ref__in=wanted)
            .values_list("question__ref", "card__ref"))
        if "ref" in dataset.headers:
            run.file_cards = {str(r or "").strip() for r in dataset["ref"]}
        run.file_card_pks = set(Card.objects.filter(ref__in=run.file_cards)
                                .values_list("pk", flat=True))

    @staticmethod
    def split_refs(value) -> list[str]:
        return str(value or "").replace(",", " ").replace(";", " ").split()

    def typeset(self, instance) -> None:
        services.typeset_card(instance)

    def import_extra(self, instance, state: RowState) -> dict:
        run = self.run
        refs = self.split_refs(state.columns.get("question_refs"))
        state.columns["question_refs"] = " ".join(refs)
        errors = []
        unknown = [r for r in refs if r not in run.questions]
        if unknown:
            errors.append(_("Question(s) inconnue(s) : %(refs)s.") % {"refs": ", ".join(unknown)})
        repeated = sorted({r for r in refs if refs.count(r) > 1})
        if repeated:
            errors.append(_("Question répétée : %(refs)s.") % {"refs": ", ".join(repeated)})
        for ref in refs:
            holder = run.claimed.get(ref)
            if holder and holder != instance.ref:
                errors.append(_("La question « %(q)s » est déjà sur la carte « %(card)s » "
                                "du fichier.") % {"q": ref, "card": holder})
                continue
            current = run.card_of_question.get(ref)
            if current and current != instance.ref and current not in run.file_cards:
                errors.append(_("La question « %(q)s » est déjà sur la carte « %(card)s ».")
                              % {"q": ref, "card": current})
            run.claimed[ref] = instance.ref
        if errors:
            return {"questions": ValidationError(errors, code="questions")}
        return {}

    def do_instance_save(self, instance, is_create):
        """Resource.do_instance_save: write the card through cms.services."""
        services.card_write(card=instance, user=self.run.user)

    def after_save_instance(self, instance, row, **kwargs):
        """ContentResource.after_save_instance: also put the row's questions on the card,
        and keep the twin it names for `link`."""
        super().after_save_instance(instance, row, **kwargs)
        state = self.run.current
        wanted = [self.run.questions[r].pk for r in state.columns["question_refs"].split()]
        services.card_compose(card=instance, questions=wanted, movable=self.run.file_card_pks)
        if "paire" in row:
            self.run.pairs.append(state)

    def correction_data(self, state: RowState) -> dict:
        instance = state.instance
        data = {name: snapshots.field_value(instance, name) for name in snapshots.CARD_FIELDS}
        data["slots"] = [self.run.questions[r].pk
                         for r in state.columns["question_refs"].split()]
        pair_ref = state.columns.get("pair_ref")
        if pair_ref:
            partner = Card.objects.filter(ref=pair_ref).first()
            data["pair"] = partner.pk if partner else instance.pair_id
        return data

    def link(self) -> None:
        """Make duel twins point at each other, whichever row names the pair."""
        pairs = [(state, state.columns.get("pair_ref") or "") for state in self.run.pairs]
        refs = {ref for _state, ref in pairs if ref}
        partners = {c.ref: c for c in Card.objects.filter(ref__in=refs)}
        named = refs | {state.instance.ref for state, ref in pairs if ref}
        for state, ref in pairs:
            card = state.instance
            partner = partners.get(ref) if ref else None
            if ref and partner is None:
                self.add_row_error(state.number, "paire", _(
                    "Aucune carte n’a la référence « %(ref)s ».") % {"ref": ref},
                    code="pair_unknown")
                continue
            if partner is not None and partner.pk == card.pk:
                self.add_row_error(state.number, "paire", _(
                    "Une carte ne peut pas être sa propre jumelle."), code="pair_self")
                continue
            if partner is None and card.ref in named:
                continue  # the other row of the pair names it
            services.duel_pair(card=card, partner=partner)


RESOURCES = {"questions": QuestionResource, "images": QuestionImageResource,
             "cartes": CardResource}
