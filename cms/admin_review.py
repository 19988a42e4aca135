"""The admin's review tools: sending back with a reason, comments, duplicates, bulk edits.

Mixed into ContentAdmin; every write goes through cms.services.
"""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import quote
from django.core import signing
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from . import services
from .admin_site import forget_reports
from .games.spec import DIFFICULTY_MAX, DIFFICULTY_MIN
from .models import COMMENT_MAX_LENGTH, CommentKind, Question, Status, question_kinds

# The list actions this module adds to ContentAdmin.
REVIEW_ACTIONS = ["request_changes", "duplicate", "bulk_edit"]
BULK_SALT = "plateau.bulk-edit"


class RequestChangesForm(forms.Form):
    prefix = "review"  # the change page holds the content's own fields too
    reason = forms.CharField(
        label=gettext_lazy("Ce qu’il faut corriger"), max_length=COMMENT_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=gettext_lazy("Montré à l’auteur sur la page du contenu et dans « mes "
                               "brouillons », gardé comme commentaire."))


class CommentForm(forms.Form):
    prefix = "comment"
    text = forms.CharField(label=gettext_lazy("Nouveau commentaire"), max_length=COMMENT_MAX_LENGTH,
                           widget=forms.Textarea(attrs={"rows": 3}))


class BulkEditForm(forms.Form):
    """The fields a selection of questions may share; a field left empty is left as it is."""

    theme = forms.CharField(label=gettext_lazy("Thème"), max_length=120, required=False)
    difficulty = forms.TypedChoiceField(
        label=gettext_lazy("Difficulté"), required=False, coerce=int, empty_value=None,
        choices=[("", gettext_lazy("— inchangée —")),
                 *[(n, n) for n in range(DIFFICULTY_MIN, DIFFICULTY_MAX + 1)]])
    # Not bounded here: a step off a game's ladder is said question by question.
    step = forms.IntegerField(label=gettext_lazy("Palier"), required=False, min_value=1,
                              max_value=999)
    kind = forms.ChoiceField(label=gettext_lazy("Type"), required=False)
    previewed = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [("", _("— inchangé —")), *question_kinds()]

    def changes(self) -> dict:
        return {name: value for name in services.BULK_FIELDS
                if (value := self.cleaned_data.get(name)) not in (None, "")}

    def clean(self):
        cleaned = super().clean()
        if not self.errors and not self.changes():
            raise ValidationError(_("Remplissez au moins un champ à changer."),
                                  code="nothing_to_change")
        return cleaned


def _why(refusal) -> str:
    reasons = getattr(refusal, "reasons", None) or getattr(refusal, "messages", None) or [
        _("Vous n’avez pas le droit de faire cela.")]
    return " · ".join(str(r) for r in reasons)


class ReviewMixin:
    """Buttons, pages and list actions of the review tools, on questions and cards."""

    def get_urls(self):
        prefix = f"{self.opts.app_label}_{self.opts.model_name}"
        view = self.admin_site.admin_view
        return [
            path("<path:object_id>/demander-corrections/", view(self.request_changes_view),
                 name=f"{prefix}_request_changes"),
            path("<path:object_id>/commentaires/", view(self.comment_add_view),
                 name=f"{prefix}_comment_add"),
            path("<path:object_id>/commentaires/<int:comment_id>/resoudre/",
                 view(self.comment_resolve_view), name=f"{prefix}_comment_resolve"),
            path("<path:object_id>/dupliquer/", view(self.duplicate_view),
                 name=f"{prefix}_duplicate"),
            *super().get_urls(),
        ]

    @property
    def media(self):
        return super().media + forms.Media(css={"all": ["cms/review.css"]})

    # --- permissions of the list actions ---

    def has_duplicate_permission(self, request, obj=None):
        return services.can_duplicate(request.user, self.model)

    def has_bulk_edit_permission(self, request, obj=None):
        return self.model is Question and services.can_edit(request.user, self.model)

    # --- the change page ---

    def render_change_form(self, request, context, add=False, change=False, form_url="",
                           obj=None):
        live = context.get("live")
        if live is not None and not context.get("is_popup") and not getattr(
                request, "plateau_recover", None):
            user = request.user
            comments = list(live.comments.select_related("author", "resolved_by"))
            context.update({
                "plateau_review": True,
                "comments": comments,
                "open_requests": [c for c in comments
                                  if c.is_open and c.kind == CommentKind.CHANGES_REQUESTED],
                "comment_form": CommentForm(),
                "can_comment": services.can_comment(user, self.model),
                "can_request_changes": services.can_publish(user, self.model) and (
                    live.status == Status.REVIEW or context.get("correction") is not None),
                "request_changes_form": RequestChangesForm(),
                "can_duplicate": self.has_duplicate_permission(request),
            })
        return super().render_change_form(request, context, add, change, form_url, obj)

    def _back(self, obj, anchor=""):
        return HttpResponseRedirect(self._url("change", quote(obj.pk)) + anchor)

    def request_changes_view(self, request, object_id):
        """Send one object back to its author with a reason (the change page's small form)."""
        obj = self._object_or_404(request, object_id)
        return self.request_changes_page(request, [obj])

    def request_changes_page(self, request, objects, *, action: bool = False):
        if not services.can_publish(request.user, self.model):
            raise PermissionDenied
        form = RequestChangesForm(request.POST if "review-reason" in request.POST else None)
        if form.is_bound and form.is_valid():
            done = 0
            for obj in objects:
                try:
                    services.request_changes(obj=obj, user=request.user,
                                             reason=form.cleaned_data["reason"])
                except (services.Refused, ValidationError) as refusal:
                    messages.error(request, _("« %(obj)s » n’est pas renvoyé : %(why)s") % {
                        "obj": obj, "why": _why(refusal)})
                else:
                    done += 1
            if done:
                messages.success(request, ngettext(
                    "%(n)s contenu renvoyé à son auteur, avec le motif.",
                    "%(n)s contenus renvoyés à leurs auteurs, avec le motif.", done)
                    % {"n": done})
            forget_reports(request)
            if len(objects) == 1 and not action:
                return self._back(objects[0])
            return None
        return self._page(request, "admin/cms/request_changes.html", None,
                          _("Demander des corrections"), form=form, objects=objects,
                          action=action, selected=[obj.pk for obj in objects])

    def comment_add_view(self, request, object_id):
        obj = self._object_or_404(request, object_id)
        if request.method != "POST":
            return self._back(obj, "#plateau-comments")
        form = CommentForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Commentaire non enregistré : %(why)s") % {
                "why": " · ".join(e for errors in form.errors.values() for e in errors)})
            return self._back(obj, "#plateau-comments")
        try:
            services.comment_add(obj=obj, user=request.user, text=form.cleaned_data["text"])
        except PermissionDenied:
            raise
        except ValidationError as refusal:
            messages.error(request, _("Commentaire non enregistré : %(why)s") % {
                "why": _why(refusal)})
        else:
            messages.success(request, _("Commentaire ajouté."))
        return self._back(obj, "#plateau-comments")

    def comment_resolve_view(self, request, object_id, comment_id):
        obj = self._object_or_404(request, object_id)
        comment = get_object_or_404(obj.comments, pk=comment_id)
        if request.method == "POST":
            services.comment_resolve(comment=comment, user=request.user)
            messages.success(request, _("Commentaire résolu."))
        return self._back(obj, "#plateau-comments")

    def duplicate_view(self, request, object_id):
        obj = self._object_or_404(request, object_id)
        if request.method != "POST":
            return self._back(obj)
        try:
            copy = services.content_duplicate(obj=obj, user=request.user)
        except ValidationError as refusal:
            messages.error(request, _("Pas de copie : %(why)s") % {"why": _why(refusal)})
            return self._back(obj)
        forget_reports(request)
        messages.success(request, _("Copie créée en brouillon, avec une nouvelle référence : "
                                    "« %(obj)s ».") % {"obj": copy})
        return self._back(copy)

    # --- list actions ---

    @admin.action(description=gettext_lazy("Demander des corrections (avec un motif)"),
                  permissions=["publish"])
    def request_changes(self, request, queryset):
        return self.request_changes_page(request, list(queryset), action=True)

    @admin.action(description=gettext_lazy("Dupliquer (copies en brouillon)"),
                  permissions=["duplicate"])
    def duplicate(self, request, queryset):
        copies = []
        for obj in queryset:
            try:
                copies.append(services.content_duplicate(obj=obj, user=request.user))
            except ValidationError as refusal:
                messages.error(request, _("« %(obj)s » n’est pas copié : %(why)s") % {
                    "obj": obj, "why": _why(refusal)})
        forget_reports(request)
        if not copies:
            return
        messages.success(request, format_html(
            "{} {}", ngettext("%(n)s copie créée en brouillon :",
                              "%(n)s copies créées en brouillon :", len(copies))
            % {"n": len(copies)},
            format_html_join(", ", '<a href="{}">{}</a>',
                             ((self._url("change", quote(c.pk)), c) for c in copies))))

    @staticmethod
    def _previewed(form) -> dict | None:
        """Return the changes the page previewed: a confirmation is of what was shown."""
        try:
            return signing.loads(form.cleaned_data["previewed"], salt=BULK_SALT)
        except signing.BadSignature:
            return None

    @admin.action(description=gettext_lazy("Modifier en groupe (thème, difficulté, palier, "
                                            "type)"), permissions=["bulk_edit"])
    def bulk_edit(self, request, queryset):
        questions = list(queryset)
        asked = "_bulk_preview" in request.POST or "_bulk_confirm" in request.POST
        form = BulkEditForm(request.POST if asked else None)
        rows = None
        if form.is_bound and form.is_valid():
            changes = form.changes()
            if "_bulk_confirm" in request.POST and self._previewed(form) == changes:
                try:
                    saved = services.questions_bulk_edit(questions=questions, changes=changes,
                                                         user=request.user)
                except services.Refused as refusal:
                    for reason in refusal.reasons:
                        messages.error(request, reason)
                    messages.error(request, _("Rien n’a été modifié."))
                else:
                    forget_reports(request)
                    corrections = sum(s.correction is not None for s in saved)
                    messages.success(request, ngettext(
                        "%(n)s question modifiée.", "%(n)s questions modifiées.",
                        len(saved)) % {"n": len(saved)})
                    if corrections:
                        messages.info(request, ngettext(
                            "%(n)s question publiée : la modification attend la relecture "
                            "comme correction.",
                            "%(n)s questions publiées : la modification attend la relecture "
                            "comme corrections.", corrections) % {"n": corrections})
                    return None
            rows = services.questions_bulk_preview(questions=questions, changes=changes,
                                                   user=request.user)
            form.data = form.data.copy()
            form.data["previewed"] = signing.dumps(changes, salt=BULK_SALT)
        return self._page(request, "admin/cms/bulk_edit.html", None,
                          _("Modifier en groupe"), form=form, rows=rows, objects=questions,
                          selected=[q.pk for q in questions],
                          refused=sum(bool(row.refusal) for row in rows or []))

