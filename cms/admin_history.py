"""The admin's history pages: versions, differences, restore, recovery; corrections and
withdrawal. Each page reads or writes through cms.snapshots and cms.services only."""

from django import forms
from django.contrib import messages
from django.contrib.admin.utils import quote, unquote
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reversion.models import Version

from . import services, snapshots
from .admin_site import forget_reports


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Motif"), widget=forms.Textarea(attrs={"rows": 3}), max_length=1000,
        help_text=gettext_lazy("Gardé dans l’historique, avec votre nom."))


class HistoryMixin:
    """History, comparison, restore and recovery pages, and the correction workflow."""

    history_template = "admin/cms/history.html"

    def get_urls(self):
        prefix = f"{self.opts.app_label}_{self.opts.model_name}"
        view = self.admin_site.admin_view
        return [
            path("recover/", view(self.recoverlist_view), name=f"{prefix}_recoverlist"),
            path("recover/<int:version_id>/", view(self.recover_view),
                 name=f"{prefix}_recover"),
            path("<path:object_id>/history/compare/", view(self.compare_view),
                 name=f"{prefix}_compare"),
            path("<path:object_id>/history/<int:version_id>/", view(self.revision_view),
                 name=f"{prefix}_revision"),
            path("<path:object_id>/correction/publier/", view(self.correction_publish_view),
                 name=f"{prefix}_correction_publish"),
            path("<path:object_id>/correction/abandonner/", view(self.correction_discard_view),
                 name=f"{prefix}_correction_discard"),
            path("<path:object_id>/retirer/", view(self.withdraw_view),
                 name=f"{prefix}_withdraw"),
            *super().get_urls(),
        ]

    def _url(self, name, *args):
        return reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_{name}", args=args)

    def _object_or_404(self, request, object_id):
        obj = self.get_object(request, unquote(object_id))
        if obj is None:
            raise Http404(_("Ce contenu n’existe pas (ou plus)."))
        return obj

    def _page(self, request, template, obj, title, **context):
        context = {**self.admin_site.each_context(request), "opts": self.opts, "original": obj,
                   "title": title, "subtitle": str(obj) if obj else None, **context}
        request.current_app = self.admin_site.name
        return TemplateResponse(request, template, context)

    def versions_of(self, obj):
        return (Version.objects.get_for_object(obj).select_related("revision__user")
                .order_by("-pk"))

    # --- history and differences ---

    def history_view(self, request, object_id, extra_context=None):
        """List the versions of one object, newest first, to compare or restore them."""
        obj = self._object_or_404(request, object_id)
        if not self.has_view_or_change_permission(request, obj):
            raise PermissionDenied
        versions = list(self.versions_of(obj))
        rows = [{"version": v, "url": self._url("revision", quote(obj.pk), v.pk)}
                for v in versions]
        return self._page(request, self.history_template, obj,
                          _("Historique : %(obj)s") % {"obj": obj}, rows=rows,
                          compare_url=self._url("compare", quote(obj.pk)),
                          corrections=obj.corrections.select_related(
                              "created_by", "decided_by").order_by("-created_at"),
                          can_restore=self.has_change_permission(request, obj))

    def compare_view(self, request, object_id):
        """Show field by field what differs between two versions (or a version and now)."""
        obj = self._object_or_404(request, object_id)
        if not self.has_view_or_change_permission(request, obj):
            raise PermissionDenied
        states = []
        for key in ("a", "b"):
            value = request.GET.get(key, "current")
            if value == "current":
                states.append((_("version actuelle"), services.shown_state(obj)))
                continue
            try:
                version = self.versions_of(obj).get(pk=int(value))
            except (ValueError, Version.DoesNotExist):
                raise Http404(_("Version inconnue.")) from None
            states.append((version, snapshots.of_version(version)))
        (label_a, a), (label_b, b) = states
        if isinstance(label_a, Version) and isinstance(label_b, Version) and (
                label_a.pk > label_b.pk):
            (label_a, a), (label_b, b) = (label_b, b), (label_a, a)
        return self._page(request, "admin/cms/compare.html", obj,
                          _("Différences : %(obj)s") % {"obj": obj},
                          changes=snapshots.diff(self.model, a, b), before=label_a,
                          after=label_b, history_url=self._url("history", quote(obj.pk)))

    def revision_view(self, request, object_id, version_id, extra_context=None):
        """Show one version in the change form; saving it restores it (an ordinary edit)."""
        obj = self._object_or_404(request, object_id)
        version = get_object_or_404(self.versions_of(obj), pk=version_id)
        request.plateau_version = version
        when = version.revision.date_created
        context = {"plateau_restoring": version,
                   "plateau_restore_diff": snapshots.diff(self.model, services.shown_state(obj),
                                                          snapshots.of_version(version)),
                   "title": _("Restaurer la version du %(date)s") % {
                       "date": when.strftime("%d/%m/%Y %H:%M")},
                   **(extra_context or {})}
        return self.changeform_view(request, object_id, request.path, context)

    # --- deleted content ---

    def recoverlist_view(self, request, extra_context=None):
        """List deleted questions or cards, from their last kept version."""
        if not services.can_recover(request.user, self.model):
            raise PermissionDenied
        deleted = (Version.objects.get_deleted(self.model).select_related("revision__user")
                   .order_by("-pk"))
        rows = [{"version": v, "url": self._url("recover", v.pk)} for v in deleted]
        return self._page(request, "admin/cms/recover_list.html", None,
                          _("Récupérer : %(what)s supprimé(e)s") % {
                              "what": self.opts.verbose_name_plural}, rows=rows)

    def recover_view(self, request, version_id, extra_context=None):
        """Show a deleted object's last version in an add form; saving brings it back, a draft."""
        if not services.can_recover(request.user, self.model):
            raise PermissionDenied
        version = get_object_or_404(Version.objects.get_for_model(self.model), pk=version_id)
        if self.model.objects.filter(pk=version.object_id).exists():
            messages.info(request, _("Ce contenu existe encore : voici son historique."))
            return HttpResponseRedirect(self._url("history", version.object_id))
        request.plateau_recover = version
        request.plateau_shown = snapshots.of_version(version)
        context = {"plateau_recovering": version,
                   "title": _("Récupérer « %(obj)s »") % {"obj": version.object_repr},
                   **(extra_context or {})}
        return self.changeform_view(request, None, request.path, context)

    # --- corrections ---

    def correction_publish_view(self, request, object_id):
        obj = self._object_or_404(request, object_id)
        if request.method != "POST":
            return HttpResponseRedirect(self._url("change", quote(obj.pk)))
        self.publish_correction(request, obj)
        return HttpResponseRedirect(self._url("change", quote(obj.pk)))

    def publish_correction(self, request, obj) -> bool:
        try:
            services.correction_publish(obj=obj, user=request.user)
        except PermissionDenied:
            messages.error(request, _("Seul un relecteur publie une correction."))
            return False
        except services.Refused as refusal:
            messages.error(request, _("La correction n’est pas publiée : %(why)s") % {
                "why": " · ".join(str(r) for r in refusal.reasons)})
            return False
        forget_reports(request)
        messages.success(request, _("Correction publiée : « %(obj)s » est à jour dans le jeu.")
                         % {"obj": obj})
        return True

    def correction_discard_view(self, request, object_id):
        obj = self._object_or_404(request, object_id)
        correction = obj.pending_correction()
        if correction is None:
            messages.info(request, _("Aucune correction en attente."))
            return HttpResponseRedirect(self._url("change", quote(obj.pk)))
        if not services.can_discard(request.user, correction):
            raise PermissionDenied
        form = ReasonForm(request.POST or None)
        form.fields["reason"].required = False
        if request.method == "POST" and form.is_valid():
            services.correction_discard(obj=obj, user=request.user,
                                        reason=form.cleaned_data["reason"])
            messages.success(request, _("Correction abandonnée : la version publiée reste "
                                        "inchangée."))
            return HttpResponseRedirect(self._url("change", quote(obj.pk)))
        return self._page(request, "admin/cms/correction_discard.html", obj,
                          _("Abandonner la correction"), form=form, correction=correction,
                          changes=snapshots.diff(self.model, snapshots.of_object(obj),
                                                 {**correction.data, "status": obj.status}))

    # --- withdrawal ---

    def withdraw_view(self, request, object_id):
        """Take one published object out of the game, with a reason."""
        obj = self._object_or_404(request, object_id)
        return self.withdraw_page(request, [obj])

    def withdraw_page(self, request, objects, *, action: bool = False):
        if not all(services.can_withdraw(request.user, obj) for obj in objects):
            raise PermissionDenied
        form = ReasonForm(request.POST if "reason" in request.POST else None)
        if form.is_bound and form.is_valid():
            done = 0
            for obj in objects:
                try:
                    services.withdraw(obj=obj, user=request.user,
                                      reason=form.cleaned_data["reason"])
                except services.Refused as refusal:
                    messages.error(request, _("« %(obj)s » reste en jeu : %(why)s") % {
                        "obj": obj, "why": " · ".join(str(r) for r in refusal.reasons)})
                else:
                    done += 1
            if done:
                messages.success(request, _("%(n)s élément(s) retiré(s) du jeu, repassé(s) en "
                                            "brouillon.") % {"n": done})
            forget_reports(request)
            if len(objects) == 1 and not action:
                return HttpResponseRedirect(self._url("change", quote(objects[0].pk)))
            return None
        return self._page(request, "admin/cms/withdraw.html", None, _("Retirer du jeu"),
                          form=form, objects=objects, action=action,
                          selected=[obj.pk for obj in objects])
