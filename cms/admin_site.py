"""The editors' admin site, organised by game, with a problems report and a rules sheet."""

import math
from dataclasses import fields
from functools import partial

from django.conf import settings
from django.contrib import admin
from django.contrib.admin.views.autocomplete import AutocompleteJsonView
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import render
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from . import admin_jobs, report_store
from .admin_dashboard import game_dashboard
from .games import GAMES
from .review import home_context
from .rules import full_game_needs
from .validation import euros


def describe_value(value, labels=None) -> str:
    """Return a scoring constant as an editor reads it: 10 000, « 50:50 », DUO (1 pt)…"""
    labels = labels or {}
    if isinstance(value, str) and value in labels:
        return str(labels[value])
    if isinstance(value, bool):
        return _("oui") if value else _("non")
    if isinstance(value, int):
        return number_format(value, force_grouping=True)
    if isinstance(value, dict):
        return " · ".join(f"{describe_value(k, labels)} : {describe_value(v, labels)}"
                          for k, v in value.items())
    if isinstance(value, tuple | list):
        return ", ".join(describe_value(v, labels) for v in value)
    if hasattr(value, "points"):
        return ngettext("%(label)s (%(n)s pt)", "%(label)s (%(n)s pts)", value.points) % {
            "label": value.label, "n": value.points}
    return str(value)


def reports_for(request, slug: str):
    """Return the validation report of a game, read once per request from its kept report."""
    cache = request.__dict__.setdefault("_plateau_reports", {})
    if slug not in cache:
        cache[slug] = report_store.report(slug)
    return cache[slug]


def forget_reports(request) -> None:
    """Drop the reports computed for this request: the content has just changed."""
    request.__dict__.pop("_plateau_reports", None)


class QuestionAwareAutocomplete(AutocompleteJsonView):
    """Label questions with their kind and difficulty when an editor picks one for a card."""

    def serialize_result(self, obj, to_field_name):
        result = super().serialize_result(obj, to_field_name)
        if hasattr(obj, "difficulty"):
            result["text"] = _("%(text)s — %(kind)s, difficulté %(d)s") % {
                "text": obj, "kind": obj.spec.label, "d": obj.difficulty}
        return result


class PlateauAdminSite(admin.AdminSite):
    site_header = gettext_lazy("Plateau — administration des contenus")
    site_title = gettext_lazy("Plateau")
    index_title = gettext_lazy("Contenus par jeu")

    def get_urls(self):
        return [
            path("jeux/<slug:slug>/", self.admin_view(self.game_view), name="cms_game"),
            path("jeux/<slug:slug>/problemes/", self.admin_view(self.problems_view),
                 name="cms_game_problems"),
            path("jeux/<slug:slug>/tableau-de-bord/",
                 self.admin_view(partial(game_dashboard, self)), name="cms_game_dashboard"),
            path("travaux/", self.admin_view(admin_jobs.jobs_list), name="cms_jobs"),
            path("travaux/importer/", self.admin_view(admin_jobs.job_import),
                 name="cms_job_import"),
            path("travaux/<uuid:pk>/", self.admin_view(admin_jobs.job_page), name="cms_job"),
            path("travaux/<uuid:pk>/etat.json", self.admin_view(admin_jobs.job_status),
                 name="cms_job_status"),
            path("travaux/<uuid:pk>/fichier/", self.admin_view(admin_jobs.job_file),
                 name="cms_job_file"),
            *super().get_urls(),
        ]

    def index(self, request, extra_context=None):
        return super().index(request, {**home_context(request.user), **(extra_context or {})})

    def autocomplete_view(self, request):
        return QuestionAwareAutocomplete.as_view(admin_site=self)(request)

    def get_app_list(self, request, app_label=None):
        """List one section per game (questions, cards, problems, rules) before the rest."""
        apps = super().get_app_list(request, app_label)
        if app_label:
            return apps
        content = next((app for app in apps if app["app_label"] == "cms"), None)
        models = {m["object_name"]: m for m in content["models"]} if content else {}
        sections = []
        for game in GAMES.values():
            entries = []
            if game.kinds and models:
                entries.append(self._page(
                    "dashboard", _("Tableau de bord"),
                    reverse("admin:cms_game_dashboard", args=[game.slug])))
            if game.question_kinds or game.card_kinds:
                if "Question" in models:
                    entries.append(self._entry(models["Question"], game, _("Questions")))
                if game.card_kinds and "Card" in models:
                    entries.append(self._entry(models["Card"], game, _("Cartes et fiches")))
                if "Theme" in models:
                    entries.append(self._entry(models["Theme"], game, _("Thèmes")))
                if models:
                    entries.append(self._page(
                        "problems", _("Problèmes"),
                        reverse("admin:cms_game_problems", args=[game.slug])))
            entries.append(self._page("rules", _("Règles et composants"),
                                      reverse("admin:cms_game", args=[game.slug])))
            if "Question" in models or "Card" in models:
                # Printing serves its pages itself (printing.urls): linked by name only.
                entries.append(self._page("print", _("Imprimer"),
                                          reverse("printing:print", args=[game.slug])))
            sections.append({
                "name": game.name,
                "app_label": f"cms-{game.slug}",
                "app_url": entries[0]["admin_url"],
                "has_module_perms": True,
                "models": entries,
            })
        # Everyone's own background jobs (print jobs, big imports).
        work = [self._page("jobs", _("Mes travaux"), reverse("admin:cms_jobs"))]
        if admin_jobs.may_import(request.user):
            work.append(self._page("job_import", _("Importer un gros fichier"),
                                   reverse("admin:cms_job_import")))
        sections.append({"name": _("Travaux en arrière-plan"), "app_label": "cms-travaux",
                         "app_url": work[0]["admin_url"], "has_module_perms": True,
                         "models": work})
        return sections + [app for app in apps if app["app_label"] != "cms"]

    @staticmethod
    def _entry(model: dict, game, name) -> dict:
        entry = dict(model)
        entry["name"] = name
        entry["admin_url"] = f"{model['admin_url']}?game={game.slug}"
        if model.get("add_url"):
            entry["add_url"] = f"{model['add_url']}?game={game.slug}"
        return entry

    @staticmethod
    def _page(object_name, name, url) -> dict:
        return {"name": name, "object_name": object_name, "admin_url": url, "add_url": None,
                "view_only": True, "perms": {"view": True}}

    def _game(self, slug):
        if slug not in GAMES:
            raise Http404(_("Jeu inconnu."))
        return GAMES[slug]

    def game_view(self, request, slug):
        """Show a game's rules as the registry declares them."""
        game = self._game(slug)
        ladder = [(step, euros(step.amount), euros(game.fallback_amount(step.number)))
                  for step in game.ladder]
        scoring = [(f.metadata["label"], describe_value(getattr(game.rules, f.name), game.labels))
                   for f in fields(game.rules)] if game.rules is not None else []
        # What a full game uses: the figures the dashboard and the coverage rule use.
        needs = full_game_needs(game).kinds if game.kinds else {}
        kinds = [(kind, needs.get(kind.slug)) for kind in game.kinds]
        context = {**self.each_context(request), "game": game, "title": game.name,
                   "ladder": ladder, "scoring": scoring, "kinds": kinds}
        return TemplateResponse(request, "admin/cms/game.html", context)

    def problems_view(self, request, slug):
        """List every problem of a game's content, read-only."""
        game = self._game(slug)
        user = request.user
        if not (user.has_perm("cms.view_question") or user.has_perm("cms.view_card")):
            raise PermissionDenied
        if not game.kinds:
            raise Http404(_("Ce jeu n’a pas de contenu éditable."))
        report = reports_for(request, slug)
        rows = []
        for problem in report.problems:
            target = problem.target
            url = None
            if target is not None:
                url = reverse(f"admin:cms_{type(target).__name__.lower()}_change",
                              args=[target.pk])
            rows.append({"problem": problem, "url": url})
        rows.sort(key=lambda r: (not r["problem"].is_error, r["problem"].target is not None))
        context = {**self.each_context(request), "game": game, "report": report, "rows": rows,
                   "title": _("Problèmes — %(game)s") % {"game": game.name}}
        return TemplateResponse(request, "admin/cms/problems.html", context)


def lockout(request, original_response=None, credentials=None):
    """The page a client IP gets once django-axes locks it: the admin's look, and how long."""
    from django.contrib.admin import site

    cool_off = settings.AXES_COOLOFF_TIME
    minutes = max(1, math.ceil(cool_off.total_seconds() / 60))
    context = {**site.each_context(request), "title": _("Connexion suspendue"),
               "minutes": minutes}
    # Rendered now: django-axes answers from its middleware, past the template response phase.
    return render(request, "admin/lockout.html", context, status=429)
