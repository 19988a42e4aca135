"""The editors' admin: questions and cards by game, problems on every page, history kept."""

import contextvars

from django import forms
from django.apps import apps
from django.contrib import admin, messages
from django.contrib.admin.actions import delete_selected
from django.contrib.admin.utils import unquote
from django.core import signing
from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied, ValidationError
from django.db import models, transaction
from django.db.models import Count, Exists, FloatField, OrderBy
from django.db.models.functions import Cast, NullIf
from django.forms.models import BaseInlineFormSet
from django.http import (
    Http404,
    HttpResponseNotAllowed,
    HttpResponseRedirect,
    JsonResponse,
    QueryDict,
)
from django.urls import path, reverse
from django.utils.functional import cached_property
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from . import composer, search, selection, services, shapes, snapshots
from .admin_history import SEEN_SALT, HistoryMixin
from .admin_import import PlateauImportExportMixin
from .admin_review import REVIEW_ACTIONS, ReviewMixin
from .admin_site import forget_reports, reports_for
from .admin_themes import THEME_HELP, theme_widget
from .games import GAMES, KINDS, content_games, game_of
from .games.spec import ORDER_BY_SLOT_FORMAT, ORDER_STRICTLY_INCREASING
from .models import Card, CardQuestion, Correction, CorrectionState, Proposition, Question, Status
from .resources import CardResource, QuestionImageResource, QuestionResource
from .selectors import answer_counts
from .services import Refused, StaleEdit, can_set_status, set_status, set_status_many
from .validation import (
    CALIBRATION_MIN_ANSWERS,
    Calibration,
    calibration_of,
    check_calibration,
    judged_by_play,
)
from .validators import (
    MAX_DIGITS,
    WHOLE_NUMBER,
    CheckedImageField,
    PlainTextField,
    WholeNumberField,
    whole_number,
)

# --- filters ------------------------------------------------------------------------------


class GameFilter(admin.SimpleListFilter):
    title = gettext_lazy("jeu")
    parameter_name = "game"

    def lookups(self, request, model_admin):
        return [(game.slug, game.name) for game in content_games()]

    def queryset(self, request, queryset):
        if self.value() in GAMES:
            return queryset.for_game(self.value())
        return queryset


class ProblemsFilter(admin.SimpleListFilter):
    title = gettext_lazy("problèmes")
    parameter_name = "problems"

    def lookups(self, request, model_admin):
        return [
            ("errors", _("Avec erreurs")),
            ("any", _("Avec erreurs ou avertissements")),
            ("none", _("Sans problème")),
        ]

    def queryset(self, request, queryset):
        if self.value() not in ("errors", "any", "none"):
            return queryset
        keys = set()
        for game in content_games():
            report = reports_for(request, game.slug)
            keys |= report.keys_with_problems(queryset.model,
                                              errors_only=self.value() == "errors")
        if self.value() == "none":
            return queryset.exclude(pk__in=keys)
        return queryset.filter(pk__in=keys)


class CorrectionFilter(admin.SimpleListFilter):
    title = gettext_lazy("correction")
    parameter_name = "correction"

    def lookups(self, request, model_admin):
        return [("pending", _("Correction en attente")), ("none", _("Sans correction"))]

    def queryset(self, request, queryset):
        if self.value() == "pending":
            return queryset.filter(has_correction=True)
        if self.value() == "none":
            return queryset.filter(has_correction=False)
        return queryset


class CalibrationFilter(admin.SimpleListFilter):
    """Questions by what play says of their difficulty (the counts come from get_queryset)."""

    title = gettext_lazy("calibrage")
    parameter_name = "calibration"

    def lookups(self, request, model_admin):
        return [
            ("agrees", _("Assez de réponses, en accord")),
            ("disagrees", _("En désaccord avec la difficulté notée")),
            ("few", _("Pas encore assez de réponses")),
        ]

    def queryset(self, request, queryset):
        if self.value() == "few":
            return queryset.filter(answer_count__lt=CALIBRATION_MIN_ANSWERS)
        if self.value() not in ("agrees", "disagrees"):
            return queryset
        # The rule the report applies, on counts read in one query: not a second one in SQL.
        disagreeing = [
            pk for pk, kind, rated, answers, right in queryset.values_list(
                "pk", "kind", "difficulty", "answer_count", "right_count")
            if Calibration(rated, answers, right, judged_by_play(kind)).disagrees]
        if self.value() == "disagrees":
            return queryset.filter(pk__in=disagreeing)
        return queryset.filter(answer_count__gte=CALIBRATION_MIN_ANSWERS).exclude(
            pk__in=disagreeing)


# --- shared behaviour of questions and cards ----------------------------------------------

# The request a change list is being rendered for: list columns only receive the object.
_listing_request = contextvars.ContextVar("plateau_listing_request", default=None)


def describe_kind(kind) -> str:
    """Return, in a line, how content of this kind is composed."""
    parts = []
    if kind.is_card:
        parts.append(ngettext("%(n)s question par carte", "%(n)s questions par carte",
                              kind.questions_per_card) % {"n": kind.questions_per_card})
    if kind.propositions:
        parts.append(_("%(n)s propositions par question, dont %(right)s bonne(s) et "
                       "%(hidden)s cachée(s)") % {"n": kind.propositions, "right": kind.right,
                                                  "hidden": kind.hidden})
    if kind.free_answer:
        parts.append(_("une réponse libre"))
    if kind.needs_image:
        parts.append(_("une image"))
    if kind.ladder:
        parts.append(_("un palier de 1 à %(n)s") % {"n": len(game_of(kind.slug).ladder)})
    if kind.difficulty_order == ORDER_STRICTLY_INCREASING:
        parts.append(_("difficulté strictement croissante"))
    elif kind.difficulty_order == ORDER_BY_SLOT_FORMAT:
        formats = game_of(kind.slug).answer_formats
        order = [str(formats[slug].label) for slug in formats if slug in kind.slot_formats]
        parts.append(_("%(formats)s, de plus en plus difficiles") % {
            "formats": _(", puis ").join(order)})
    if kind.paired:
        parts.append(_("par paires de même titre et même couleur"))
    return _("%(kind)s : %(parts)s.") % {"kind": kind.label, "parts": " · ".join(parts)}


def problems_html(problems) -> str:
    if not problems:
        return format_html('<p class="plateau-ok">{}</p>', _("Aucun problème."))
    return format_html(
        '<ul class="plateau-problems">{}</ul>',
        format_html_join(
            "", '<li class="plateau-{}"><strong>{}</strong> {}</li>',
            ((p.severity, _("Erreur :") if p.is_error else _("Avertissement :"), p.message)
             for p in problems),
        ),
    )


class ContentForm(forms.ModelForm):
    """The change form of a question or card, with what the page was built on.

    `plateau_token` names the version the page shows and `plateau_seen` (signed) what it
    showed, so that a save made from an older page is refused with what changed since.
    A refusal from cms.services is shown here, the editor's input kept in the form.
    """

    plateau_token = forms.CharField(widget=forms.HiddenInput, required=False)
    plateau_seen = forms.CharField(widget=forms.HiddenInput, required=False)
    plateau_request = None  # set by ContentAdmin.get_form

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        instance = self.instance
        if not self.is_bound:
            self.initial["plateau_token"] = getattr(instance, "plateau_token", "new")
            self.initial["plateau_seen"] = sign_state(getattr(instance, "plateau_seen", None))
        refusal = getattr(self.plateau_request, "plateau_refusal", None)
        if isinstance(refusal, StaleEdit) and self.is_bound:
            self.catch_up(refusal.obj)

    def catch_up(self, current):
        """Shown what changed, the editor may save again over the current version."""
        self.data = self.data.copy()
        self.data["plateau_token"] = services.token_of(current)
        self.data["plateau_seen"] = sign_state(services.shown_state(current))

    def clean(self):
        cleaned = super().clean()
        refusal = getattr(self.plateau_request, "plateau_refusal", None)
        if refusal is None and self.instance.pk and not self.instance._state.adding:
            # Said first, even when rows that another editor removed no longer validate.
            try:
                services.check_token(self.instance, cleaned.get("plateau_token", ""),
                                     seen=self.seen_state())
            except StaleEdit as stale:
                refusal = stale
                self.catch_up(stale.obj)
        if refusal is not None:
            for field, errors in refusal_errors(refusal):
                self.add_error(field if field in self.fields else None, errors)
        return cleaned

    def seen_state(self) -> dict | None:
        return seen_state_of(self.data)


def seen_state_of(data) -> dict | None:
    """Return the state a posted change form was built on (signed), or None."""
    try:
        return signing.loads(data.get("plateau_seen") or "", salt=SEEN_SALT) or None
    except signing.BadSignature:
        return None


def keep_context(request, obj, response):
    """Return the redirect after a save with the game (and, to add another, the kind) kept:
    « ajouter un nouveau » opens the same kind again, the list comes back to the game."""
    if not isinstance(response, HttpResponseRedirect) or "_popup" in request.POST:
        return response
    url = response["Location"]
    base, _sep, query = url.partition("?")
    params = QueryDict(query, mutable=True)
    model = obj._meta.model_name
    if "_addanother" in request.POST and base == reverse(f"admin:cms_{model}_add"):
        params["game"], params["kind"] = obj.game.slug, obj.kind
    elif base == reverse(f"admin:cms_{model}_changelist") and not params:
        params["game"] = obj.game.slug
    else:
        return response
    response["Location"] = f"{base}?{params.urlencode()}"
    return response


def shaped_kind(request, obj=None):
    """Return the kind a form is shaped for: the one posted, else the object's, else the
    one the address names (None: not known yet, the page's script shapes the form)."""
    slug = request.POST.get("kind") if request.method == "POST" else None
    slug = slug or getattr(obj, "kind", None) or request.GET.get("kind") or ""
    return KINDS.get(slug, (None, None))[1]


def sign_state(state) -> str:
    return signing.dumps(state, salt=SEEN_SALT, compress=True) if state else ""


def refusal_errors(error) -> list[tuple[str | None, list]]:
    """Return a service's refusal as (form field or None, messages) pairs."""
    if isinstance(error, StaleEdit):
        return [(None, [error.describe()])]
    if isinstance(error, Refused):
        return [(None, [str(r) for r in error.reasons])]
    if hasattr(error, "error_dict"):
        return [(None if key == "__all__" else key, list(value.messages)
                 if hasattr(value, "messages") else [str(v) for v in value])
                for key, value in error.message_dict.items()]
    return [(None, list(error.messages))]


def rows_from(formset) -> list[dict]:
    """Return the rows of an inline formset as the editor left them, in position order."""
    rows = []
    for index, form in enumerate(formset.forms):
        data = getattr(form, "cleaned_data", None) or {}
        # « Retirer », or the delete box that rows bound to the database would post.
        deleted = form.data.get(form.add_prefix("DELETE")) in ("on", "true", "True", "1")
        if not data or data.get("remove") or deleted:
            continue
        rows.append((data.get("position") or 0, index, data))
    rows.sort(key=lambda row: (row[0], row[1]))
    return [row[2] for row in rows]


class ContentAdmin(ReviewMixin, HistoryMixin, admin.ModelAdmin):
    """What the question and card admins share: edits through cms.services, the status
    workflow and corrections, problems on every page, history."""

    form = ContentForm
    change_form_template = "admin/cms/content_change_form.html"
    change_list_template = "admin/cms/change_list.html"
    formfield_overrides = {models.TextField: {"widget": forms.Textarea(attrs={"rows": 3}),
                                              "form_class": PlainTextField},
                           # difficulty, step: the digits 0 to 9 only, not ３ or +3
                           models.IntegerField: {"form_class": WholeNumberField},
                           models.ImageField: {"form_class": CheckedImageField}}
    actions = ["send_to_review", "publish", "back_to_draft", "withdraw", "print_selection",
               *REVIEW_ACTIONS]
    list_per_page = 50
    save_on_top = True

    # Permissions the actions and buttons need.
    def has_submit_permission(self, request, obj=None):
        return can_set_status(request.user, self.model, Status.REVIEW)

    def has_publish_permission(self, request, obj=None):
        return can_set_status(request.user, self.model, Status.PUBLISHED)

    def has_delete_permission(self, request, obj=None):
        if obj is None:
            return super().has_delete_permission(request)
        return services.can_delete(request.user, obj)

    def has_add_permission(self, request):
        if getattr(request, "plateau_recover", None) is not None:
            return services.can_recover(request.user, self.model)
        return super().has_add_permission(request)

    def get_actions(self, request):
        actions = super().get_actions(request)
        if not super().has_delete_permission(request):
            actions.pop("delete_selected", None)
        elif "delete_selected" in actions:
            _func, name, description = actions["delete_selected"]
            actions["delete_selected"] = (type(self).delete_selected_whole, name, description)
        return actions

    def delete_selected_whole(self, request, queryset):
        """Delete the selection whole or not at all: what one deletion would break is said
        before anything is deleted (or logged as deleted)."""
        if request.POST.get("post"):
            reasons = self.deletion_refusals(request, list(queryset))
            if reasons:
                for reason in reasons:
                    messages.error(request, reason)
                messages.error(request, _("Rien n’a été supprimé."))
                return None
        return delete_selected(self, request, queryset)

    def deletion_refusals(self, request, objects) -> list[str]:
        """Try the deletions in a transaction rolled back; return why any would be refused."""
        reasons = []
        with transaction.atomic():
            for obj in objects:
                try:
                    services.content_delete(obj=type(obj).objects.get(pk=obj.pk),
                                            user=request.user)
                except (Refused, ValidationError, PermissionDenied) as refusal:
                    why = getattr(refusal, "reasons", None) or getattr(
                        refusal, "messages", None) or [_("Vous n’avez pas le droit de faire cela.")]
                    reasons.append(_("« %(obj)s » ne peut pas être supprimé : %(why)s") % {
                        "obj": obj, "why": " · ".join(str(r) for r in why)})
            transaction.set_rollback(True)
        return reasons

    def problems_of(self, request, obj):
        if obj is None or obj.pk is None:
            return []
        return reports_for(request, obj.game.slug).about(obj)

    @admin.display(description=gettext_lazy("problèmes"))
    def problems_count(self, obj):
        problems = self.problems_of(_listing_request.get(), obj)
        errors = sum(p.is_error for p in problems)
        warnings = len(problems) - errors
        if not problems:
            return format_html('<span class="plateau-ok" title="{}">✓</span>',
                               _("Aucun problème"))
        return format_html(
            '<span class="plateau-error" title="{}">{}</span> '
            '<span class="plateau-warning" title="{}">{}</span>',
            _("erreurs"), f"✖ {errors}" if errors else "",
            _("avertissements"), f"⚠ {warnings}" if warnings else "",
        )

    @admin.display(description=gettext_lazy("statut"), ordering="status")
    def status_badge(self, obj):
        badge = format_html('<span class="plateau-status plateau-status-{}">{}</span>',
                            obj.status, obj.get_status_display())
        if getattr(obj, "has_correction", None) or (
                getattr(obj, "has_correction", None) is None and obj.pending_correction()):
            badge += format_html(' <span class="plateau-correction" title="{}">{}</span>',
                                 _("Une correction attend la relecture ; la version publiée "
                                   "reste en jeu."), _("correction en attente"))
        return badge

    # Searched through cms.search: every word of the term, accents, case and apostrophes
    # aside, in what `search_text` holds (search_fields only shows the search box).
    search_fields = ["search_text"]
    search_live_columns: tuple[str, ...] = ()

    def get_search_results(self, request, queryset, search_term):
        return search.matching(queryset, search_term,
                               live_columns=self.search_live_columns), False

    def get_queryset(self, request):
        pending = Correction.objects.filter(
            **{self.model._meta.model_name: models.OuterRef("pk")},
            state=CorrectionState.PENDING)
        return super().get_queryset(request).annotate(has_correction=Exists(pending))

    def changelist_view(self, request, extra_context=None):
        token = _listing_request.set(request)
        extra_context = {**(extra_context or {}),
                         "plateau_can_recover": services.can_recover(request.user, self.model)}
        try:
            response = super().changelist_view(request, extra_context)
            # Render while the request is known to the list columns.
            if hasattr(response, "render"):
                response.render()
            return response
        finally:
            _listing_request.reset(token)

    # --- the change form: read what to show, write through cms.services ---

    def get_object(self, request, object_id, from_field=None):
        obj = super().get_object(request, object_id, from_field)
        if obj is None or not getattr(request, "plateau_editing", False):
            return obj
        obj.plateau_token = services.token_of(obj)
        obj.plateau_seen = services.shown_state(obj)
        if not self.has_change_permission(request, obj):
            return obj  # a reader sees the live rows, read-only
        version = getattr(request, "plateau_version", None)
        # Rows come from a snapshot, never bound to database rows: another editor's save
        # cannot leave this page posting rows that no longer exist.
        shown = snapshots.of_version(version) if version is not None else obj.plateau_seen
        snapshots.apply_fields(obj, shown)
        request.plateau_shown = shown
        return obj

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change, **kwargs)
        form = type(form.__name__, (form,), {"plateau_request": request})
        game = GAMES.get(request.GET.get("game", "")) if obj is None else None
        field = form.base_fields.get("kind")  # the subclass's own fields, made just now
        if game is not None and field is not None:
            # New content for one game (its « Ajouter »): only that game's kinds.
            field.choices = [(game.name, [(kind.slug, kind.label)
                                          for kind in self.kinds_of(game)])]
        return form

    def get_changeform_initial_data(self, request):
        shown = getattr(request, "plateau_shown", None)
        if getattr(request, "plateau_recover", None) is not None and shown:
            initial = {name: value for name, value in shown.items()
                       if name in snapshots.fields_of(self.model)}
            if "pair" in initial:
                initial["pair"] = None
            return initial
        initial = super().get_changeform_initial_data(request)
        game = request.GET.get("game")
        if "kind" not in initial and game in GAMES:
            kinds = self.kinds_of(GAMES[game])
            if kinds:
                initial["kind"] = kinds[0].slug
        return initial

    def get_formset_kwargs(self, request, obj, inline, prefix):
        kwargs = super().get_formset_kwargs(request, obj, inline, prefix)
        shown = getattr(request, "plateau_shown", None)
        if shown is not None:
            # The page shows a correction or a version: rows come from it, not the database.
            kwargs["queryset"] = inline.model.objects.none()
            kwargs["initial"] = inline.rows_of(shown)
        return kwargs

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        request.plateau_editing = True
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except ValidationError as refusal:
            if request.method != "POST" or getattr(request, "plateau_refusal", None):
                raise
            # Nothing was written (the transaction rolled back): show the form again, as
            # the editor filled it, with the reason.
            request.plateau_refusal = refusal
            return super().changeform_view(request, object_id, form_url, extra_context)

    def save_model(self, request, obj, form, change):
        """Write nothing yet: save_related hands the whole object to cms.services."""

    def save_related(self, request, form, formsets, change):
        obj = form.instance
        data = self.data_from(form, formsets)
        user = request.user
        recover = getattr(request, "plateau_recover", None)
        version = getattr(request, "plateau_version", None)
        token = form.cleaned_data.get("plateau_token", "")
        as_correction = "_as_correction" in request.POST
        if recover is not None:
            saved = services.content_recover(version=recover, user=user, data=data)
            obj.pk = saved.obj.pk
            obj._state.adding = False
        elif version is not None:
            saved = services.content_restore(obj=obj, version=version, user=user, data=data,
                                             token=token, seen=form.seen_state(),
                                             as_correction=as_correction)
        else:
            saved = services.content_save(obj=obj, data=data, user=user,
                                          token=token if change else None,
                                          seen=form.seen_state(), as_correction=as_correction)
        request.plateau_saved = saved

    def data_from(self, form, formsets) -> dict:
        """Return the object the editor submitted as a snapshot for cms.services."""
        obj = form.instance
        data = {name: snapshots.field_value(obj, name)
                for name in snapshots.fields_of(self.model) if name != "image"}
        if "image" in snapshots.fields_of(self.model):
            data["image"] = form.cleaned_data.get("image", obj.image.name or "")
        data.update(self.inlines[0].data_of(rows_from(formsets[0]) if formsets else []))
        return data

    def construct_change_message(self, request, form, formsets, add=False):
        saved = getattr(request, "plateau_saved", None)
        if saved is not None and saved.correction is not None:
            return [{"changed": {"fields": [str(_("correction proposée"))]}}]
        return [{"added": {}}] if add else [{"changed": {"fields": form.changed_data}}]

    def _after_save(self, request, obj, default_response):
        """Apply a status button, then stay on the page while the content has errors."""
        forget_reports(request)
        saved = request.plateau_saved
        obj = saved.obj
        for note in saved.notes:
            messages.warning(request, note)
        if "_publish" in request.POST:
            if obj.status == Status.PUBLISHED:
                if obj.pending_correction() is not None:
                    self.publish_correction(request, obj, token=services.token_of(obj))
            else:
                self._move(request, obj, Status.PUBLISHED)
        elif "_submit_review" in request.POST and obj.status == Status.DRAFT:
            self._move(request, obj, Status.REVIEW)
        forget_reports(request)
        problems = self.shown_problems(request, obj)
        errors = [p for p in problems if p.is_error]
        if errors:
            messages.error(request, ngettext(
                "%(n)s erreur à corriger : %(list)s",
                "%(n)s erreurs à corriger : %(list)s", len(errors),
            ) % {"n": len(errors), "list": " · ".join(p.message for p in errors)})
        elif problems:
            messages.warning(request, " · ".join(p.message for p in problems))
        if (errors or getattr(request, "plateau_version", None) is not None
                or getattr(request, "plateau_recover", None) is not None) and (
                "_popup" not in request.POST):
            url = reverse(f"admin:cms_{self.model._meta.model_name}_change", args=[obj.pk])
            return HttpResponseRedirect(url)
        return keep_context(request, obj, default_response)

    def shown_problems(self, request, obj):
        """Return the problems of what the editor sees: the correction, else the live object."""
        correction = obj.pending_correction()
        if correction is not None:
            return services.correction_problems(obj)
        return self.problems_of(request, obj)

    def message_user(self, request, message, level=messages.INFO, extra_tags="",
                     fail_silently=False):
        saved = getattr(request, "plateau_saved", None)
        if saved is not None and saved.correction is not None and level == messages.SUCCESS:
            # Django's « modifié avec succès »: say what really happened.
            message = _("Correction de « %(obj)s » enregistrée : elle attend la relecture, la "
                        "version publiée reste en jeu.") % {"obj": saved.obj}
        super().message_user(request, message, level, extra_tags, fail_silently)

    def response_add(self, request, obj, post_url_continue=None):
        return self._after_save(request, obj, super().response_add(request, obj,
                                                                   post_url_continue))

    def response_change(self, request, obj):
        return self._after_save(request, obj, super().response_change(request, obj))

    def _move(self, request, obj, status) -> bool:
        try:
            set_status(obj=obj, status=status, user=request.user)
        except PermissionDenied:
            messages.error(request, _("Vous n’avez pas le droit de faire cela."))
            return False
        except Refused as refusal:
            self._refusal_message(request, obj, refusal.reasons)
            return False
        forget_reports(request)
        return True

    @staticmethod
    def _refusal_message(request, obj, reasons):
        messages.error(request, _("« %(obj)s » reste « %(status)s » : %(why)s") % {
            "obj": obj, "status": obj.get_status_display(),
            "why": " · ".join(str(r) for r in reasons)})

    def delete_view(self, request, object_id, extra_context=None):
        try:
            return super().delete_view(request, object_id, extra_context)
        except (Refused, ValidationError) as refusal:
            reasons = getattr(refusal, "reasons", None) or refusal.messages
            messages.error(request, _("Rien n’a été supprimé : %(why)s") % {
                "why": " · ".join(str(r) for r in reasons)})
            return HttpResponseRedirect(
                reverse(f"admin:cms_{self.model._meta.model_name}_change",
                        args=[unquote(object_id)]))

    def delete_model(self, request, obj):
        services.content_delete(obj=obj, user=request.user)
        forget_reports(request)

    def delete_queryset(self, request, queryset):
        for obj in queryset:
            try:
                services.content_delete(obj=obj, user=request.user)
            except (Refused, ValidationError, PermissionDenied) as refusal:
                reasons = getattr(refusal, "reasons", None) or getattr(
                    refusal, "messages", [_("Vous n’avez pas le droit de faire cela.")])
                messages.error(request, _("« %(obj)s » n’est pas supprimé : %(why)s") % {
                    "obj": obj, "why": " · ".join(str(r) for r in reasons)})
        forget_reports(request)

    def _bulk_move(self, request, queryset, status):
        objects = list(queryset)
        try:
            moved, refused = set_status_many(objects=objects, status=status, user=request.user)
        except PermissionDenied:
            messages.error(request, _("Vous n’avez pas le droit de faire cela."))
            return
        for obj, problems in refused.items():
            self._refusal_message(request, obj, [p.message for p in problems])
        done = len({(type(item), item.pk) for item in moved})
        if done:
            messages.success(request, ngettext(
                "%(n)s élément passé à « %(status)s ».",
                "%(n)s éléments passés à « %(status)s ».", done,
            ) % {"n": done, "status": Status(status).label})
        elif not refused:
            messages.info(request, _("Rien à changer : la sélection est déjà « %(status)s ».")
                          % {"status": Status(status).label})

    @admin.action(description=gettext_lazy("Envoyer en relecture"), permissions=["submit"])
    def send_to_review(self, request, queryset):
        self._bulk_move(request, queryset, Status.REVIEW)

    @admin.action(description=gettext_lazy("Publier (et publier les corrections en attente)"),
                  permissions=["publish"])
    def publish(self, request, queryset):
        self._bulk_move(request, queryset, Status.PUBLISHED)

    @admin.action(description=gettext_lazy("Repasser en brouillon (contenu non publié)"),
                  permissions=["submit"])
    def back_to_draft(self, request, queryset):
        self._bulk_move(request, queryset, Status.DRAFT)

    @admin.action(description=gettext_lazy("Retirer du jeu (avec un motif)"),
                  permissions=["publish"])
    def withdraw(self, request, queryset):
        return self.withdraw_page(request, list(queryset), action=True)

    @admin.action(description=gettext_lazy("Imprimer la sélection"), permissions=["view"])
    def print_selection(self, request, queryset):
        """Send one game's selection to that game's print page (printing's, by name)."""
        games = {obj.game.slug for obj in queryset.only("kind")}
        if len(games) != 1:
            self.message_user(request, _(
                "La sélection mélange plusieurs jeux : choisissez les éléments d’un seul jeu."),
                messages.ERROR)
            return None
        key = selection.remember(request, queryset)
        url = reverse("printing:selection", args=[games.pop()])
        return HttpResponseRedirect(f"{url}?selection={key}")

    def render_change_form(self, request, context, add=False, change=False, form_url="",
                           obj=None):
        live = type(obj).objects.get(pk=obj.pk) if obj is not None and obj.pk else None
        correction = live.pending_correction() if live is not None else None
        restoring = getattr(request, "plateau_version", None)
        recovering = getattr(request, "plateau_recover", None)
        can_change = obj is None or self.has_change_permission(request, obj)
        context.update({
            "kind_shapes": {slug: {**shapes.kind_shape(kind),
                                   "rows": self.inlines[0].wanted_rows(kind),
                                   "summary": describe_kind(kind), "label": str(kind.label)}
                            for slug, (_game, kind) in KINDS.items()},
            "rows_group": self.inlines[0].group_id,
            "problems": problems_html(self.shown_problems(request, live)) if live else "",
            "live": live,
            "correction": correction,
            "correction_diff": snapshots.diff(
                self.model, snapshots.of_object(live), {**correction.data, "status": live.status}
            ) if correction else [],
            "correction_outdated": bool(correction and correction.base_version != live.version),
            "can_publish_correction": bool(correction) and self.has_publish_permission(request),
            "can_discard_correction": bool(correction) and services.can_discard(request.user,
                                                                                 correction),
            "can_withdraw": bool(live) and live.status == Status.PUBLISHED
            and services.can_withdraw(request.user, live) and not restoring,
            "is_published": bool(live) and live.status == Status.PUBLISHED,
            "can_submit": not recovering and self.has_submit_permission(request) and can_change
            and not (live and live.status == Status.PUBLISHED),
            "can_publish": not recovering and self.has_publish_permission(request) and can_change,
            "plateau_form_token": context["adminform"].form["plateau_token"],
            "plateau_form_seen": context["adminform"].form["plateau_seen"],
        })
        if live is not None:
            # The breadcrumb and the title name the content as it is in the game.
            context.update({"original": live, "subtitle": str(live)})
        if restoring or recovering:
            context["show_save_and_continue"] = False
            context["show_save_and_add_another"] = False
            context["show_delete_link"] = False
        return super().render_change_form(request, context, add, change, form_url, obj)

    class Media:
        js = ["cms/reorder.js", "cms/kind.js", "cms/shortcuts.js", "cms/preview.js"]
        css = {"all": ["cms/forms.css", "cms/preview.css"]}


# --- questions ----------------------------------------------------------------------------


class PositionOrderedFormSet(BaseInlineFormSet):
    """Rows shown again (after an error) in the order their posted positions give, which is
    the order the editor left them in: cms/reorder.js numbers positions from the page."""

    @cached_property
    def forms(self):
        forms = list(super().forms)
        if not self.is_bound:
            return forms

        def place(indexed):
            index, form = indexed
            value = str(form.data.get(form.add_prefix("position"), "")).strip()
            if WHOLE_NUMBER.fullmatch(value) and len(value) <= MAX_DIGITS and int(value):
                return (int(value), index)
            return (10_000, index)  # a position the form refuses: shown last

        return [form for _index, form in sorted(enumerate(forms), key=place)]


class SortableInline(admin.TabularInline):
    """Rows an editor orders with ▲/▼ buttons (cms/reorder.js fills the hidden positions)."""

    formset = PositionOrderedFormSet

    classes = ["plateau-sortable"]
    readonly_fields = ["move"]
    parent_field = ""  # the foreign key to the object being edited
    extra_when_unknown = 1  # blank rows on an add page that does not name the kind

    group_id = ""  # the id of the inline's group on the page ("<related name>-group")

    @staticmethod
    def wanted_rows(kind) -> int:
        """Return how many rows a full object of this content kind has."""
        raise NotImplementedError

    @staticmethod
    def rows_of(shown: dict) -> list[dict]:
        """Return the initial rows of a snapshot (a correction or a version), in order."""
        raise NotImplementedError

    @staticmethod
    def data_of(rows: list[dict]) -> dict:
        """Return the snapshot part these submitted rows make."""
        raise NotImplementedError

    main_field = ""  # the field a row is about: emptied, the row goes

    def get_formset(self, request, obj=None, **kwargs):
        if getattr(request, "plateau_shown", None) is not None:
            # Rows shown from a snapshot are new forms: a row counts while its main field
            # is filled, and goes when emptied or ticked « retirer ».
            main = self.main_field
            kwargs["form"] = type(f"Snapshot{self.form.__name__}", (self.form,), {
                "has_changed": lambda form: bool(form[main].value()),
                "remove": forms.BooleanField(label=_("Retirer"), required=False),
            })
            kwargs["can_delete"] = False
        else:
            # The page ticks a blank row's boxes as its kind presets them (the last one
            # hidden…): a new row counts once its main field is filled, so a draft saves.
            base, main = self.form, self.main_field

            def has_changed(form):
                typed = str(form[main].value() or "").strip()
                return (form.instance.pk is not None or bool(typed)) and base.has_changed(form)

            kwargs["form"] = type(f"Blank{base.__name__}", (base,), {"has_changed": has_changed})
        return super().get_formset(request, obj, **kwargs)

    def get_fields(self, request, obj=None):
        fields = list(super().get_fields(request, obj))
        if getattr(request, "plateau_shown", None) is not None and "remove" not in fields:
            fields.insert(fields.index("position"), "remove")
        return fields

    def get_extra(self, request, obj=None, **kwargs):
        shown = getattr(request, "plateau_shown", None)
        kind = obj.spec if obj is not None else None
        if shown is not None:
            kind = kind or KINDS.get(shown.get("kind", ""), (None, None))[1]
            wanted = self.wanted_rows(kind) if kind else 0
            return max(wanted, len(self.rows_of(shown)))
        if obj is None:
            kind = KINDS.get(request.GET.get("kind", ""))
            return self.wanted_rows(kind[1]) if kind else self.extra_when_unknown
        existing = self.model.objects.filter(**{self.parent_field: obj}).count()
        return max(0, self.wanted_rows(obj.spec) - existing)

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        if db_field.name == "position":
            kwargs["widget"] = forms.HiddenInput
            kwargs["form_class"] = WholeNumberField  # the digits 0 to 9 only, as every number
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    @admin.display(description="")
    def move(self, obj):
        return ""


class PropositionInline(SortableInline):
    model = Proposition
    parent_field = "question"
    fields = ["move", "text", "is_right", "is_hidden", "position"]
    extra_when_unknown = 4
    verbose_name_plural = gettext_lazy("propositions (dans l’ordre A, B, C, D…)")

    group_id = "propositions-group"
    main_field = "text"

    @staticmethod
    def wanted_rows(kind) -> int:
        return kind.propositions

    @staticmethod
    def rows_of(shown: dict) -> list[dict]:
        return [{**row, "position": n} for n, row in
                enumerate(shown.get("propositions") or [], start=1)]

    @staticmethod
    def data_of(rows: list[dict]) -> dict:
        return {"propositions": [{"text": row.get("text", ""),
                                  "is_right": bool(row.get("is_right")),
                                  "is_hidden": bool(row.get("is_hidden"))} for row in rows]}


# Unanswered questions sort below 0 %, whichever way: no backend puts its nulls elsewhere.
SUCCESS_ORDER = OrderBy(Cast("right_count", FloatField()) / NullIf("answer_count", 0),
                        nulls_first=True)


@admin.register(Question)
class QuestionAdmin(PlateauImportExportMixin, ContentAdmin):
    resource_classes = [QuestionResource, QuestionImageResource]
    list_display = ["short_text", "kind", "difficulty", "success_rate", "answer_total", "step",
                    "theme", "status_badge", "problems_count", "on_card"]
    list_display_links = ["short_text"]
    list_filter = [GameFilter, "kind", "difficulty", CalibrationFilter, "status",
                   CorrectionFilter, ProblemsFilter, "step", "theme"]
    search_live_columns = ("text",)
    inlines = [PropositionInline]
    readonly_fields = ["status_badge", "image_preview", "success_rate", "answer_total",
                       "calibration", "created_by", "created_at", "updated_by", "updated_at"]
    calibration_fieldset = (gettext_lazy("Calibrage par le jeu"), {
        "fields": ["success_rate", "answer_total", "calibration"]})
    fieldsets = [
        (None, {"fields": ["status_badge", "kind", "text", "difficulty", "theme", "step"]}),
        calibration_fieldset,
        (gettext_lazy("Réponse libre et image"), {"fields": ["answer", "variants", "image",
                                                              "image_preview"]}),
        (gettext_lazy("Pour en savoir plus"), {"fields": ["anecdote", "source"]}),
        (gettext_lazy("Suivi"), {"classes": ["collapse"],
                                 "fields": ["ref", "created_by", "created_at", "updated_by",
                                            "updated_at"]}),
    ]

    @staticmethod
    def kinds_of(game):
        return game.kinds

    def _without_ladder(self, request) -> bool:
        game = GAMES.get(request.GET.get("game", ""))
        return game is not None and not game.ladder

    def get_list_display(self, request):
        columns = super().get_list_display(request)
        return [c for c in columns if c != "step"] if self._without_ladder(request) else columns

    def get_list_filter(self, request):
        filters = super().get_list_filter(request)
        return [f for f in filters if f != "step"] if self._without_ladder(request) else filters

    def get_fieldsets(self, request, obj=None):
        fieldsets = super().get_fieldsets(request, obj)
        if obj is None or obj.pk is None:
            # Nothing has been played of a question not yet saved.
            fieldsets = [fs for fs in fieldsets if fs is not self.calibration_fieldset]
        kind = shaped_kind(request, obj)
        if kind is None:
            return fieldsets
        # The form of a kind holds only its fields: what it lacks is neither shown nor read.
        without = shapes.fields_without(kind)
        shaped = [(name, {**options, "fields": [f for f in options["fields"]
                                                if f not in without]})
                  for name, options in fieldsets]
        return [fs for fs in shaped if fs[1]["fields"]]

    def data_from(self, form, formsets) -> dict:
        data = super().data_from(form, formsets)
        kind = KINDS.get(data.get("kind") or "", (None, None))[1]
        if kind is None:
            return data
        dropped = []
        for name in shapes.lacking(kind):
            posted = form.data.get(name) if name not in form.fields else None
            if data.get(name) not in (None, "") or posted:
                dropped.append(str(Question._meta.get_field(name).verbose_name))
        data = shapes.shaped(data, kind)
        if dropped and form.plateau_request is not None:
            messages.warning(form.plateau_request, _(
                "%(kind)s : ces champs n’existent pas pour ce type et ont été vidés : "
                "%(fields)s.") % {"kind": kind.label, "fields": ", ".join(dropped)})
        return data

    def get_queryset(self, request):
        return (super().get_queryset(request).prefetch_related("slots__card")
                .annotate(**answer_counts()))

    def get_object(self, request, object_id, from_field=None):
        obj = super().get_object(request, object_id, from_field)
        if obj is not None:
            obj.plateau_answers_url = self.answers_url(request, obj)
        return obj

    def answers_url(self, request, question) -> str | None:
        """Return the list of a question's answers in play, if this user may read it."""
        # Looked up by name: cms imports nothing of the player.
        model = apps.get_model("player", "Answer")
        site = self.admin_site
        if not site.is_registered(model) or not site.get_model_admin(
                model).has_view_permission(request):
            return None
        return f"{reverse('admin:player_answer_changelist')}?question__id__exact={question.pk}"

    @admin.display(description=gettext_lazy("réussite observée"), ordering=SUCCESS_ORDER)
    def success_rate(self, obj):
        calibration = calibration_of(obj)
        if calibration.rate is None:
            return "—"
        rate = _("%(rate)s %%") % {"rate": calibration.rate}
        if calibration.disagrees:
            why = check_calibration(obj, answers=calibration.answers,
                                    right=calibration.right)[0].message
            return format_html('<span class="plateau-warning" title="{}">{} ⚠</span>', why,
                               rate)
        if not calibration.enough:
            return format_html('<span class="plateau-few" title="{}">{}</span>',
                               _("Pas encore assez de réponses pour juger."), rate)
        return rate

    @admin.display(description=gettext_lazy("réponses"), ordering="answer_count")
    def answer_total(self, obj):
        count = calibration_of(obj).answers
        request = _listing_request.get()
        url = getattr(obj, "plateau_answers_url", None) or (
            self.answers_url(request, obj) if request is not None else None)
        if count and url:
            return format_html('<a href="{}">{}</a>', url, count)
        return count

    @admin.display(description=gettext_lazy("calibrage"))
    def calibration(self, obj):
        calibration = calibration_of(obj)
        if not calibration.answers:
            return _("Aucune réponse en jeu pour l’instant.")
        if not calibration.enough:
            return _(
                "Pas encore assez de réponses pour juger la difficulté : %(count)s sur les "
                "%(min)s nécessaires."
            ) % {"count": calibration.answers, "min": CALIBRATION_MIN_ANSWERS}
        problems = check_calibration(obj, answers=calibration.answers, right=calibration.right)
        if problems:
            return format_html('<span class="plateau-warning">{}</span>', _(
                "À revoir : %(why)s") % {"why": problems[0].message})
        return format_html('<span class="plateau-ok">{}</span>', _(
            "En accord avec le jeu : difficulté observée %(observed)s, notée %(rated)s."
        ) % {"observed": calibration.observed, "rated": calibration.rated})

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        if db_field.name == "theme":
            kwargs.update(widget=theme_widget(request), help_text=THEME_HELP)
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    def get_search_results(self, request, queryset, search_term):
        queryset, may_have_duplicates = super().get_search_results(request, queryset,
                                                                   search_term)
        if request.GET.get("model_name") == "cardquestion":
            # Picking a question for a card: offer only those on no card yet.
            queryset = queryset.filter(slots__isnull=True)
        return queryset, may_have_duplicates

    def get_urls(self):
        crop = path("<path:object_id>/image/recadrer/", self.admin_site.admin_view(self.crop_view),
                    name="cms_question_crop")
        return [crop, *super().get_urls()]

    def crop_view(self, request, object_id):
        """Crop the question's image to the box the change form's crop tool posts."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        obj = self.get_object(request, unquote(object_id))
        if obj is None:
            raise Http404
        if not self.has_change_permission(request, obj):
            raise PermissionDenied
        back = HttpResponseRedirect(reverse("admin:cms_question_change", args=[obj.pk]))
        labels = {"x": "x", "y": "y", "w": _("largeur"), "h": _("hauteur")}
        try:
            x, y, w, h = (whole_number(request.POST.get(f"crop_{name}", ""), field=label)
                          for name, label in labels.items())
            saved = services.question_image_crop(
                obj=obj, box=(x, y, w, h), user=request.user,
                token=request.POST.get("plateau_token", ""), seen=seen_state_of(request.POST))
        except ValidationError as refusal:
            for _field, errors in refusal_errors(refusal):
                for error in errors:
                    messages.error(request, _("L’image n’est pas recadrée : %(why)s")
                                   % {"why": error})
            return back
        forget_reports(request)
        if saved.correction is not None:
            messages.success(request, _("Image recadrée : la correction attend la relecture, "
                                        "la version publiée reste en jeu."))
        else:
            messages.success(request, _("Image recadrée (%(w)s × %(h)s px) ; l’ancienne reste "
                                        "dans l’historique.") % {"w": w, "h": h})
        return back

    @admin.display(description=gettext_lazy("aperçu"))
    def image_preview(self, obj):
        if not obj.image:
            return "—"
        return format_html('<img src="{}" alt="" class="plateau-preview">', obj.image.url)

    @admin.display(description=gettext_lazy("question"), ordering="text")
    def short_text(self, obj):
        return str(obj)

    @admin.display(description=gettext_lazy("carte"))
    def on_card(self, obj):
        slots = obj.slots.all()
        if not slots:
            return "—"
        card = slots[0].card
        return format_html('<a href="{}">{}</a>',
                           reverse("admin:cms_card_change", args=[card.pk]), card.title or card.ref)


# --- cards --------------------------------------------------------------------------------


class SlotForm(forms.ModelForm):
    """A card's slot: which card holds a question is checked by cms.services on save, where
    every path checks it (a row shown from a correction is new here, yet the same slot)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.instance.question_id and self.initial.get("question"):
            # A row shown from a snapshot: its question's difficulty and status show too.
            self.instance.question_id = self.initial["question"]

    def full_clean(self):
        super().full_clean()
        if not self.is_bound or NON_FIELD_ERRORS not in self.errors:
            return
        kept = [error for error in self.errors[NON_FIELD_ERRORS].as_data()
                if error.code != "question_on_another_card"]
        if kept:
            self.errors[NON_FIELD_ERRORS] = self.error_class(
                kept, error_class="nonfield", renderer=self.renderer)
        else:
            del self.errors[NON_FIELD_ERRORS]


class CardQuestionInline(SortableInline):
    model = CardQuestion
    parent_field = "card"
    fields = ["move", "question", "difficulty", "question_status", "position"]
    readonly_fields = ["move", "difficulty", "question_status"]
    autocomplete_fields = ["question"]
    extra_when_unknown = 1
    verbose_name = gettext_lazy("question")
    verbose_name_plural = gettext_lazy("questions de la carte, dans l’ordre")

    group_id = "slots-group"
    form = SlotForm
    main_field = "question"

    @staticmethod
    def wanted_rows(kind) -> int:
        return kind.questions_per_card

    @staticmethod
    def rows_of(shown: dict) -> list[dict]:
        return [{"question": pk, "position": n}
                for n, pk in enumerate(shown.get("slots") or [], start=1)]

    @staticmethod
    def data_of(rows: list[dict]) -> dict:
        return {"slots": [row["question"].pk for row in rows if row.get("question")]}

    @admin.display(description=gettext_lazy("difficulté"))
    def difficulty(self, obj):
        return obj.question.difficulty if obj.question_id else ""

    @admin.display(description=gettext_lazy("statut"))
    def question_status(self, obj):
        return obj.question.get_status_display() if obj.question_id else ""


@admin.register(Card)
class CardAdmin(PlateauImportExportMixin, ContentAdmin):
    resource_classes = [CardResource]
    cards_only = True
    list_display = ["label", "kind", "colour", "question_total", "status_badge",
                    "problems_count", "updated_at"]
    list_display_links = ["label"]
    list_filter = [GameFilter, "kind", "status", CorrectionFilter, ProblemsFilter, "colour",
                   "questions__difficulty", "questions__theme"]
    search_live_columns = ("title",)
    inlines = [CardQuestionInline]
    autocomplete_fields = ["pair"]
    readonly_fields = ["status_badge", "created_by", "created_at", "updated_by", "updated_at"]
    fieldsets = [
        (None, {"fields": ["status_badge", "kind", "title"]}),
        (gettext_lazy("Paire"), {"fields": ["colour", "pair"]}),
        (gettext_lazy("Suivi"), {"classes": ["collapse"],
                                 "fields": ["ref", "created_by", "created_at", "updated_by",
                                            "updated_at"]}),
    ]

    @staticmethod
    def kinds_of(game):
        return game.card_kinds

    class Media:
        js = ["cms/composer.js"]

    # --- the composer: the card's questions written or picked on its own page ---

    def get_urls(self):
        return [
            path("composer/check/", self.admin_site.admin_view(self.composer_check),
                 name="cms_card_composer_check"),
            path("composer/questions/", self.admin_site.admin_view(self.composer_questions),
                 name="cms_card_composer_questions"),
            *super().get_urls(),
        ]

    def composes(self, request, obj=None) -> bool:
        """Tell whether this page composes the card's questions in the composer."""
        if getattr(request, "plateau_version", None) or getattr(request, "plateau_recover",
                                                                 None):
            return False  # a restore or a recovery shows the version's rows as they were
        if obj is None or obj.pk is None:
            return self.has_add_permission(request)
        return self.has_change_permission(request, obj)

    def composer_check(self, request):
        """Return the problems of the card as composed on the page, by slot (JSON)."""
        if request.method != "POST" or not (self.has_add_permission(request)
                                            or self.has_change_permission(request)):
            raise PermissionDenied
        kind = KINDS.get(request.POST.get("kind", ""), (None, None))[1]
        if kind is None or not kind.is_card:
            return JsonResponse({"problems": [], "unknown_kind": True})
        try:
            slots = composer.read(request.POST.get(composer.POSTED, "[]"), kind)
        except ValidationError as refusal:
            return JsonResponse({"problems": [{"slots": [], "message": m, "severity": "error"}
                                              for m in refusal.messages]}, status=400)
        card_pk = composer.id_or_none(request.POST.get("card", ""))
        card = Card.objects.filter(pk=card_pk).first() if card_pk is not None else None
        problems = composer.check(kind_slug=kind.slug, title=request.POST.get("title", ""),
                                  slots=slots, card=card)
        return JsonResponse({"problems": problems})

    def composer_questions(self, request):
        """Return the questions a card of this kind may take, searched (JSON)."""
        questions = self.admin_site.get_model_admin(Question)
        if not questions.has_view_permission(request):
            raise PermissionDenied
        kind = request.GET.get("kind", "")
        queryset = composer.pickable(kind, composer.id_or_none(request.GET.get("card", "")))
        queryset, _duplicates = questions.get_search_results(
            request, queryset, request.GET.get("term", "").strip())
        found = queryset.distinct().order_by("difficulty", "id").prefetch_related(
            "propositions")[:20]
        return JsonResponse({"results": [composer.question_state(q) for q in found]})

    def render_change_form(self, request, context, add=False, change=False, form_url="",
                           obj=None):
        shown = getattr(request, "plateau_shown", None)
        pks = (shown or {}).get("slots") if shown is not None else (
            [s.question_id for s in obj.ordered_slots()] if obj is not None and obj.pk else [])
        raw = request.POST.get(composer.POSTED) if request.method == "POST" else None
        editable = self.composes(request, obj)
        slots = composer.shown_slots(raw if editable else None, list(pks or []), None)
        refusal = getattr(request, "plateau_refusal", None)
        form = context["adminform"].form
        context["composer"] = {
            "editable": editable,
            "slots": slots,
            "errors": getattr(refusal, "slots", {}),
            "card": obj.pk if obj is not None else None,
            "kind": getattr(obj, "kind", "") or (
                form["kind"].value() if "kind" in form.fields else ""),
            "check_url": reverse("admin:cms_card_composer_check"),
            "questions_url": reverse("admin:cms_card_composer_questions"),
        }
        return super().render_change_form(request, context, add, change, form_url, obj)

    def save_related(self, request, form, formsets, change):
        raw = request.POST.get(composer.POSTED)
        if raw is None or not self.composes(request, form.instance):
            return super().save_related(request, form, formsets, change)
        data = self.data_from(form, formsets)
        slots = composer.read(raw, form.instance.spec)
        token = form.cleaned_data.get("plateau_token", "")
        request.plateau_saved = services.card_compose_new(
            card=form.instance, data=data, slots=slots, user=request.user,
            token=token if change else None, seen=form.seen_state(),
            as_correction="_as_correction" in request.POST)
        return None

    def get_fieldsets(self, request, obj=None):
        fieldsets = super().get_fieldsets(request, obj)
        shown = getattr(request, "plateau_shown", None) or {}
        kind = obj.spec if obj is not None else KINDS.get(shown.get("kind", ""), (None, None))[1]
        kind = kind or shaped_kind(request)
        if kind is not None and not kind.paired:
            # Colour and twin only mean something for duel cards.
            return [fs for fs in fieldsets if "pair" not in fs[1]["fields"]]
        return fieldsets

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(question_total=Count("slots"))

    @admin.display(description=gettext_lazy("carte"), ordering="title")
    def label(self, obj):
        return obj.title or obj.ref

    @admin.display(description=gettext_lazy("questions"), ordering="question_total")
    def question_total(self, obj):
        return f"{obj.question_total} / {obj.spec.questions_per_card}"


