"""The admin's Import and Export buttons: django-import-export with our formats and rules."""

import logging

import reversion
from django import forms
from django.conf import settings
from django.contrib import messages
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST
from import_export.admin import ImportExportMixin
from import_export.forms import ConfirmImportForm, ImportForm

from .formats import EXPORT_FORMATS, IMPORT_FORMATS, ImportFileError, reading_failure
from .games import GAMES
from .importing import (
    UPLOAD_MAX_AGE_SECONDS,
    claim_upload,
    discard_upload,
    held_upload_path,
    hold_upload,
    keep_in_revision,
    remove_stale_uploads,
)
from .validators import megabytes

logger = logging.getLogger(__name__)


def kind_choices(*, cards_only: bool):
    return [("", gettext_lazy("— celui de la colonne « genre » —"))] + [
        (game.name, [(k.slug, k.label) for k in game.kinds if k.is_card or not cards_only])
        for game in GAMES.values()
        if any(k.is_card or not cards_only for k in game.kinds)
    ]


class PlateauImportForm(ImportForm):
    kind = forms.ChoiceField(
        label=gettext_lazy("Genre par défaut"), required=False, choices=(),
        help_text=gettext_lazy("Pour les lignes sans genre, et les banques Open Trivia DB "
                               "et OpenQuizzDB (importées en brouillon)."),
    )

    def __init__(self, formats, resources, *, cards_only=False, **kwargs):
        super().__init__(formats, resources, **kwargs)
        self.fields["kind"].choices = kind_choices(cards_only=cards_only)
        self.fields["import_file"].label = gettext_lazy("Fichier à importer")

    def clean_import_file(self):
        return upload_within_limit(self.cleaned_data["import_file"])


def upload_within_limit(upload):
    """Return an uploaded import file, or refuse one heavier than any format accepts."""
    limit = settings.PLATEAU_IMPORT_MAX_ZIP_BYTES
    if upload.size > limit:
        raise forms.ValidationError(
            _("Le fichier pèse %(size)s Mo ; le maximum est %(max)s Mo."),
            code="file_too_large",
            params={"size": megabytes(upload.size), "max": megabytes(limit)})
    return upload


class PlateauConfirmImportForm(ConfirmImportForm):
    # A signed record of the preview (user, held upload, format, resource, kind), never a
    # path: the confirmation imports what was previewed, for whoever previewed it.
    import_file_name = forms.CharField(widget=forms.HiddenInput())
    kind = forms.CharField(widget=forms.HiddenInput(), required=False)
    # The version of every object the file names, as the preview found them (signed).
    tokens = forms.CharField(widget=forms.HiddenInput(), required=False)

    def clean(self):
        cleaned = super().clean()
        try:
            cleaned["tokens"] = signing.loads(cleaned.get("tokens") or "", salt=TOKENS_SALT)
        except signing.BadSignature:
            cleaned["tokens"] = None
            self.add_error(None, forms.ValidationError(
                _("Aperçu périmé ou altéré : relancez l’import."), code="bad_tokens"))
        return cleaned


TOKENS_SALT = "plateau.import.tokens"
UPLOAD_SALT = "plateau.import.upload"
# The confirmation's own fields, each checked against the signed record of the preview.
SIGNED_FIELDS = {"format": "format", "original_file_name": "name", "resource": "resource",
                 "kind": "kind"}


class HeldUpload:
    """An upload held between preview and confirmation, as the library's tmp storage."""

    def __init__(self, upload_id: str):
        self.name = upload_id

    def read(self) -> bytes:
        return held_upload_path(self.name).read_bytes()


class PlateauImportExportMixin(ImportExportMixin):
    """Import previews whole files, then applies them whole or not at all, with history."""

    import_form_class = PlateauImportForm
    confirm_form_class = PlateauConfirmImportForm
    import_template_name = "admin/cms/import.html"
    import_error_display = ("message",)
    cards_only = False

    @property
    def import_formats(self):
        return IMPORT_FORMATS

    @property
    def export_formats(self):
        return EXPORT_FORMATS

    def get_import_form_kwargs(self, request):
        return {**super().get_import_form_kwargs(request), "cards_only": self.cards_only}

    def get_confirm_form_initial(self, request, import_form):
        initial = super().get_confirm_form_initial(request, import_form)
        if import_form is not None:
            initial["kind"] = import_form.cleaned_data.get("kind", "")
        initial["tokens"] = signing.dumps(getattr(request, "plateau_import_tokens", {}),
                                          salt=TOKENS_SALT, compress=True)
        if import_form is not None:
            initial["import_file_name"] = signing.dumps({
                "user": request.user.pk, "upload": initial["import_file_name"],
                "name": initial["original_file_name"], "format": initial["format"],
                "resource": initial.get("resource", ""), "kind": initial["kind"],
            }, salt=UPLOAD_SALT)
        return initial

    def write_to_tmp_storage(self, import_file, input_format):
        return HeldUpload(hold_upload(import_file.chunks()))

    def import_action(self, request, **kwargs):
        remove_stale_uploads()
        response = super().import_action(request, **kwargs)
        context = getattr(response, "context_data", None) or {}
        # The library marks the upload object with the held id, even when the form then
        # drops the file from its cleaned data for an error.
        upload = request.FILES.get("import_file")
        upload_id = getattr(upload, "tmp_storage_name", None)
        if upload_id and "confirm_form" not in context:
            discard_upload(upload_id)  # refused: no confirmation will come for it
        return response

    @method_decorator(require_POST)
    def process_import(self, request, **kwargs):
        if not self.has_import_permission(request):
            raise PermissionDenied
        confirm_form = self.create_confirm_form(request)
        if not confirm_form.is_valid():
            return super().process_import(request, **kwargs)  # shows the form's errors
        try:
            held = signing.loads(confirm_form.cleaned_data["import_file_name"],
                                 salt=UPLOAD_SALT, max_age=UPLOAD_MAX_AGE_SECONDS)
        except signing.SignatureExpired:
            return self.import_refused(request, _(
                "Aperçu expiré : renvoyez le fichier pour l’importer."))
        except signing.BadSignature:
            held = None
        if not isinstance(held, dict) or held.get("user") != request.user.pk:
            return self.import_refused(request, _(
                "Confirmation refusée : le formulaire a été modifié. Renvoyez le fichier."))
        for field, key in SIGNED_FIELDS.items():
            posted = confirm_form.cleaned_data.get(field) or ""
            if str(posted).strip() != str(held.get(key) or "").strip():
                return self.import_refused(request, _(
                    "Confirmation refusée : le champ « %(field)s » du formulaire ne "
                    "correspond plus à l’aperçu. Renvoyez le fichier."
                ) % {"field": field})
        data = claim_upload(held["upload"])
        if data is None:
            return self.import_refused(request, _(
                "Fichier « %(name)s » déjà importé : cette confirmation n’a rien refait."
            ) % {"name": held["name"]})
        confirm_form.cleaned_data.update(
            format=held["format"], original_file_name=held["name"],
            resource=held["resource"], kind=held["kind"])
        input_format = self.get_import_formats()[int(held["format"])](
            encoding=self.from_encoding)
        try:
            dataset = input_format.create_dataset(data)
        except ImportFileError as error:
            return self.import_refused(request, str(error))
        except Exception as error:
            logger.error("Import: the %s reader failed on a confirmed file",
                         input_format.get_title(), exc_info=error)
            return self.import_refused(request, str(reading_failure(input_format, error)))
        result = self.process_dataset(dataset, confirm_form, request, **kwargs)
        return self.process_result(result, request)

    def import_refused(self, request, message: str):
        messages.error(request, message)
        opts = self.model._meta
        return redirect(f"admin:{opts.app_label}_{opts.model_name}_import")

    def get_import_resource_kwargs(self, request, **kwargs):
        form = kwargs.get("form")
        cleaned = getattr(form, "cleaned_data", None) or {}
        kind = cleaned.get("kind", "")
        resource_kwargs = {"kind": kind or "", "user": request.user}
        if isinstance(form, ConfirmImportForm):
            # Confirming: refuse the rows whose objects changed since the preview.
            resource_kwargs["expected_tokens"] = cleaned.get("tokens") or {}
        else:
            request.plateau_import_tokens = {}
            resource_kwargs["tokens_out"] = request.plateau_import_tokens
        return resource_kwargs

    def get_export_resource_kwargs(self, request, **kwargs):
        return {}

    def add_data_read_fail_error_to_form(self, form, e):
        if isinstance(e, ImportFileError):
            form.add_error("import_file", str(e))
            return
        # A reader failed in a way no check foresaw: the editor learns which format and
        # that the file seems damaged, the developer finds the exception in the log.
        input_format = self.get_import_formats()[int(form.cleaned_data["format"])]()
        logger.error("Import: the %s reader failed", input_format.get_title(), exc_info=e)
        form.add_error("import_file", str(reading_failure(input_format, e)))

    def changelist_view(self, request, extra_context=None):
        # Uploads left unconfirmed are deleted by the next import, and, so that none waits
        # for one, whenever an editor opens a list that can import: a listing of one folder.
        remove_stale_uploads()
        return super().changelist_view(request, extra_context)

    def process_dataset(self, dataset, form, request, **kwargs):
        name = kwargs.get("file_name") or form.cleaned_data.get("original_file_name", "")
        with reversion.create_revision():
            reversion.set_user(request.user)
            reversion.set_comment(_("Import du fichier « %(name)s »") % {"name": name})
            result = super().process_dataset(dataset, form, request, **kwargs)
            keep_in_revision(result)
        return result

    def process_result(self, result, request):
        if result.has_errors() or result.has_validation_errors():
            # The content changed between the preview and the confirmation: nothing was
            # written; show why, as the preview would have.
            messages.error(request, _(
                "Rien n’a été importé : le contenu a changé depuis l’aperçu ; les lignes "
                "concernées sont nommées ci-dessous."))
            context = self.get_import_context_data()
            context.update(self.admin_site.each_context(request))
            context.update({
                "title": _("Importer"), "result": result, "opts": self.model._meta,
                "form": self.import_form_class(
                    self.get_import_formats(), self.get_import_resource_classes(request),
                    cards_only=self.cards_only),
                "import_error_display": self.import_error_display,
            })
            request.current_app = self.admin_site.name
            return TemplateResponse(request, [self.import_template_name], context)
        return super().process_result(result, request)

    def add_success_message(self, result, request):
        totals = result.totals
        waiting = sum(1 for row in result.rows
                      if getattr(row, "as_correction", False))
        messages.success(request, _(
            "Import terminé : %(new)s ajouté(s), %(update)s modifié(s), %(skip)s inchangé(s)."
        ) % {"new": totals["new"], "update": totals["update"] - waiting,
             "skip": totals["skip"]})
        if waiting:
            messages.warning(request, ngettext(
                "%(n)s ligne modifie du contenu publié : elle attend la relecture comme "
                "correction, la version publiée reste en jeu.",
                "%(n)s lignes modifient du contenu publié : elles attendent la relecture "
                "comme corrections, les versions publiées restent en jeu.", waiting)
                % {"n": waiting})
