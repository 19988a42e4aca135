"""The admin's pages for background jobs: the list, a job's page and its progress, the file,
and the background import's form.

Mounted by the admin site (`PlateauAdminSite.get_urls`), behind its login. A user sees their
own jobs; a superuser sees everyone's. Another's job answers 404, as an unknown one does.
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.core.files.storage import default_storage
from django.http import FileResponse, Http404, HttpResponseRedirect, JsonResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import formats
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from . import jobs
from .admin_import import upload_within_limit
from .formats import FORMATS_BY_NAME
from .games import KINDS
from .import_jobs import KIND as IMPORT_JOB
from .models import Job, JobState
from .resources import RESOURCES

LISTED = 100  # the list shows this many of the latest jobs


def visible_jobs(user):
    return Job.objects.all() if user.is_superuser else Job.objects.filter(owner=user)


def job_or_404(request, pk) -> Job:
    job = visible_jobs(request.user).filter(pk=pk).first()
    if job is None:
        raise Http404(_("Ce travail n’existe pas, ou n’est pas le vôtre."))
    # Its run died (a worker killed, a server stopped): take it back, this job only.
    if jobs.seems_dead(job):
        jobs.take_back(job)
        job.refresh_from_db()
    return job


def state_of(job: Job) -> dict:
    """Return what a job's page shows and polls: its state, progress and links."""
    done, total = jobs.live_progress(job)
    file_url = (reverse("admin:cms_job_file", args=[job.pk])
                if job.state == JobState.DONE and job.file else None)
    return {
        "state": job.state,
        "state_label": str(job.get_state_display()),
        "done": done,
        "total": total,
        "percent": round(100 * done / total) if total else None,
        "attempts": job.attempts,
        "message": job.message,
        "file_url": file_url,
        "ended": job.ended,
    }


def jobs_list(request):
    listed = list(visible_jobs(request.user).select_related("owner")[:LISTED])
    if jobs.runs_in_process():
        # No worker sweeps: a job whose server stopped is told here.
        jobs.take_back_stale([job for job in listed if job.state == JobState.RUNNING])
        listed = list(visible_jobs(request.user).select_related("owner")[:LISTED])
    context = {
        **admin.site.each_context(request),
        "title": _("Travaux en arrière-plan"),
        "jobs": [(job, state_of(job)) for job in listed],
        "everyone": request.user.is_superuser,
        "listed": LISTED,
        "keep_hours": settings.PLATEAU_JOB_KEEP_HOURS,
        "may_import": may_import(request.user),
    }
    return TemplateResponse(request, "admin/cms/jobs.html", context)


def job_page(request, pk):
    job = job_or_404(request, pk)
    state = state_of(job)
    back = None
    if job.kind == "print" and job.params.get("game"):
        back = (reverse("printing:print", args=[job.params["game"]])
                + "?" + job.params.get("query", ""))
    elif job.kind == IMPORT_JOB:
        back = reverse("admin:cms_job_import")
    context = {
        **admin.site.each_context(request),
        "title": job.label,
        "job": job,
        "state": state,
        "back": back,
        "status_url": reverse("admin:cms_job_status", args=[job.pk]),
        "expires": job.expires,
        "expired": job.state == JobState.DONE and not job.file and job.kind == "print",
    }
    return TemplateResponse(request, "admin/cms/job.html", context)


@require_safe
def job_status(request, pk):
    response = JsonResponse(state_of(job_or_404(request, pk)))
    response["Cache-Control"] = "no-store"
    return response


@require_safe
def job_file(request, pk):
    job = job_or_404(request, pk)
    if job.state != JobState.DONE or not job.file:
        raise Http404(_("Ce fichier n’existe plus : relancez le travail."))
    try:
        handle = default_storage.open(job.file, "rb")
    except FileNotFoundError:
        raise Http404(_("Ce fichier n’existe plus : relancez le travail.")) from None
    response = FileResponse(handle, content_type="application/pdf"
                            if job.file_name.endswith(".pdf") else "application/octet-stream")
    response["Content-Disposition"] = content_disposition_header(True, job.file_name)
    response["Cache-Control"] = "private, no-store"
    return response


# --- the background import --------------------------------------------------------------------


IMPORT_PERMISSIONS = {"questions": "cms.import_question", "images": "cms.import_question",
                      "cartes": "cms.import_card"}


def may_import(user) -> bool:
    return any(user.has_perm(perm) for perm in IMPORT_PERMISSIONS.values())


class BackgroundImportForm(forms.Form):
    resource = forms.ChoiceField(label=gettext_lazy("Ce que contient le fichier"), choices=[
        ("questions", gettext_lazy("Questions")),
        ("cartes", gettext_lazy("Cartes et fiches")),
        ("images", gettext_lazy("Images des questions")),
    ])
    import_file = forms.FileField(label=gettext_lazy("Fichier"), help_text=gettext_lazy(
        "CSV, XLSX, JSON, ZIP (une feuille et ses images), Open Trivia DB ou OpenQuizzDB."))
    format = forms.ChoiceField(label=gettext_lazy("Format"), required=False, choices=[
        ("", gettext_lazy("D’après l’extension du fichier")),
        *[(name, name) for name in FORMATS_BY_NAME]])
    kind = forms.ChoiceField(label=gettext_lazy("Genre des lignes qui n’en ont pas"),
                             required=False, choices=[("", "—"), *[
                                 (slug, f"{game.name} — {kind.label}")
                                 for slug, (game, kind) in KINDS.items()]])
    dry_run = forms.BooleanField(label=gettext_lazy("Vérifier seulement, sans rien écrire"),
                                 required=False)

    def __init__(self, *args, user, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_resource(self):
        resource = self.cleaned_data["resource"]
        if resource not in RESOURCES or not self.user.has_perm(IMPORT_PERMISSIONS[resource]):
            raise forms.ValidationError(_("Vous ne pouvez pas importer ce contenu."))
        return resource

    def clean_import_file(self):
        upload = self.cleaned_data["import_file"]
        return upload_within_limit(upload)


def job_import(request):
    if not may_import(request.user):
        raise PermissionDenied
    form = BackgroundImportForm(request.POST or None, request.FILES or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["import_file"]
        data = form.cleaned_data
        dry_run = data["dry_run"]
        label = (_("Vérification de « %(file)s »") if dry_run
                 else _("Import de « %(file)s »")) % {"file": upload.name}
        job = jobs.queue(IMPORT_JOB, owner=request.user, label=label,
                         upload=upload.read(), upload_name=upload.name,
                         params={"resource": data["resource"], "format": data["format"],
                                 "kind": data["kind"], "dry_run": dry_run,
                                 "file_name": upload.name})
        return HttpResponseRedirect(reverse("admin:cms_job", args=[job.pk]))
    context = {
        **admin.site.each_context(request),
        "title": _("Importer un gros fichier en arrière-plan"),
        "form": form,
        "max_rows": formats.number_format(settings.PLATEAU_IMPORT_MAX_ROWS,
                                          force_grouping=True),
    }
    return TemplateResponse(request, "admin/cms/job_import.html", context,
                            status=422 if form.errors else 200)
