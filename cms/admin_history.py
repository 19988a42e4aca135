"""The admin's history pages: versions, differences, restore, recovery; corrections and
withdrawal. Each page reads or writes through cms.snapshots and cms.services only."""

from django import forms
from django.contrib import messages
from django.contrib.admin.models import DELETION, LogEntry
from django.contrib.admin.utils import quote, unquote
from django.contrib.contenttypes.models import ContentType
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reversion.models import Version

from . import services, snapshots
from .admin_site import forget_reports
from .models import Question

SEEN_SALT = "plateau.seen"


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Motif"), widget=forms.Textarea(attrs={"rows": 3}), max_length=1000,
        help_text=gettext_lazy("Gardé dans l’historique, avec votre nom."))
    # What the page showed: a correction changed since is not discarded unread.
    token = forms.CharField(widget=forms.HiddenInput, required=False)
    seen = forms.CharField(widget=forms.HiddenInput, required=False)


def sign_seen(state) -> str:
    return signing.dumps(state, salt=SEEN_SALT, compress=True) if state else ""


def load_seen(signed: str) -> dict | None:
    try:
        return signing.loads(signed or "", salt=SEEN_SALT) or None
    except signing.BadSignature:
        return None


def seen_state(request) -> dict | None:
    """Return the state the posted change page showed (signed), if any."""
    return load_seen(request.POST.get("plateau_seen", ""))


def when(version) -> str:
    """Return when a version was kept, in the site's time zone and the user's language."""
    return date_format(timezone.localtime(version.revision.date_created),
                       "SHORT_DATETIME_FORMAT")


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
                          _("Historique : %(obj)s") % {"obj": obj}, rows=rows,
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
                states.append((_("version en jeu"), snapshots.of_object(obj)))
                continue
            if value == "correction" and obj.pending_correction() is not None:
                states.append((_("correction en attente"),
                               {**obj.pending_correction().data, "status": obj.status}))
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
                          _("Différences : %(obj)s") % {"obj": obj},
                          changes=snapshots.diff(self.model, a, b), before=label_a,
                          after=label_b, history_url=self._url("history", quote(obj.pk)))

    def revision_view(self, request, object_id, version_id, extra_context=None):
        """Show one version in the change form; saving it restores it (an ordinary edit)."""
        obj = self._object_or_404(request, object_id)
        version = get_object_or_404(self.versions_of(obj), pk=version_id)
        request.plateau_version = version
        context = {"plateau_restoring": version,
                   "plateau_restore_diff": snapshots.diff(self.model, services.shown_state(obj),
                                                          snapshots.of_version(version)),
                   "title": _("Restaurer la version du %(date)s") % {"date": when(version)},
                   **(extra_context or {})}
        return self.changeform_view(request, object_id, request.path, context)

    # --- deleted content ---

    def recoverlist_view(self, request, extra_context=None):
        """List deleted questions or cards, from their last kept version."""
        if not services.can_recover(request.user, self.model):
            raise PermissionDenied
        deleted = (Version.objects.get_deleted(self.model).select_related("revision__user")
                   .order_by("-pk"))
        deletions = {}
        for entry in (LogEntry.objects.filter(
                content_type=ContentType.objects.get_for_model(self.model),
                action_flag=DELETION).select_related("user").order_by("action_time")):
            deletions[entry.object_id] = entry
        rows = [{"version": v, "url": self._url("recover", v.pk),
                 "deletion": deletions.get(v.object_id)} for v in deleted]
        return self._page(request, "admin/cms/recover_list.html", None,
                          _("Récupérer des %(what)s supprimées") % {
                              "what": self.opts.verbose_name_plural}, rows=rows)

    def recover_view(self, request, version_id, extra_context=None):
        """Show a deleted object's last version in an add form; saving brings it back, a draft."""
        if not services.can_recover(request.user, self.model):
            raise PermissionDenied
        version = get_object_or_404(Version.objects.get_for_model(self.model), pk=version_id)
        if self.model.objects.filter(pk=version.object_id).exists():
            messages.info(request, _("Ce contenu existe encore : voici son historique."))
            return HttpResponseRedirect(self._url("history", version.object_id))
        request.plateau_recover = version
        shown = snapshots.of_version(version)
        gone = []
        if "slots" in shown:
            there = set(Question.objects.filter(pk__in=shown["slots"]).values_list("pk",
                                                                                  flat=True))
            gone = [pk for pk in shown["slots"] if pk not in there]
            shown["slots"] = [pk for pk in shown["slots"] if pk in there]
        request.plateau_shown = shown
        context = {"plateau_recovering": version, "plateau_gone": len(gone),
                   "title": _("Récupérer « %(obj)s »") % {"obj": version.object_repr},
                   **(extra_context or {})}
        return self.changeform_view(request, None, request.path, context)

    # --- corrections ---

    def correction_publish_view(self, request, object_id):
        obj = self._object_or_404(request, object_id)
        if request.method != "POST":
            return HttpResponseRedirect(self._url("change", quote(obj.pk)))
        self.publish_correction(request, obj, token=request.POST.get("plateau_token", ""),
                                seen=seen_state(request))
        return HttpResponseRedirect(self._url("change", quote(obj.pk)))

    def publish_correction(self, request, obj, *, token=None, seen=None) -> bool:
        try:
            services.correction_publish(obj=obj, user=request.user, token=token, seen=seen)
        except PermissionDenied:
            messages.error(request, _("Seul un relecteur publie une correction."))
            return False
        except services.StaleEdit as stale:
            messages.error(request, _("La correction n’est pas publiée : %(why)s") % {
                "why": stale.describe(in_form=False)})
            return False
        except services.Refused as refusal:
            messages.error(request, _("La correction n’est pas publiée : %(why)s") % {
                "why": " · ".join(str(r) for r in refusal.reasons)})
            return False
        forget_reports(request)
        messages.success(request, _("Correction publiée : « %(obj)s » est à jour dans le jeu.")
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
        form = ReasonForm(request.POST or None, initial={
            "token": services.token_of(obj), "seen": sign_seen(services.shown_state(obj))})
        form.fields["reason"].required = False
        if request.method == "POST" and form.is_valid():
            try:
                services.correction_discard(obj=obj, user=request.user,
                                            reason=form.cleaned_data["reason"],
                                            token=form.cleaned_data["token"],
                                            seen=load_seen(form.cleaned_data["seen"]))
            except services.StaleEdit as stale:
                # Shown again with the reason kept and the current correction to read.
                messages.error(request, _("La correction n’est pas abandonnée : %(why)s") % {
                    "why": stale.describe(in_form=False)})
                form = ReasonForm(initial={
                    "reason": form.cleaned_data["reason"], "token": services.token_of(obj),
                    "seen": sign_seen(services.shown_state(obj))})
                form.fields["reason"].required = False
                correction = obj.pending_correction()
            else:
                messages.success(request, _("Correction abandonnée : la version publiée reste "
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
            done = set()
            for obj in objects:
                if (type(obj), obj.pk) in done:
                    continue  # a duel twin, withdrawn with its pair
                try:
                    items = services.withdraw(obj=type(obj).objects.get(pk=obj.pk),
                                              user=request.user,
                                              reason=form.cleaned_data["reason"])
                except services.Refused as refusal:
                    messages.error(request, _("« %(obj)s » n’est pas retiré : %(why)s") % {
                        "obj": obj, "why": " · ".join(str(r) for r in refusal.reasons)})
                else:
                    done |= {(type(item), item.pk) for item in items}
            done = len(done)
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
