"""Themes in the admin: the list per game with question counts, rename and merge, and the
question form's theme field, which offers the game's themes and takes a new one."""

from __future__ import annotations

import json

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Case, Count, IntegerField, OuterRef, Subquery, Value, When
from django.db.models.functions import Coalesce
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from . import search, services
from .games import GAMES, KINDS
from .models import Question, Theme


def question_counts():
    """Return, for each theme, how many questions of its game hold it (an annotation)."""
    whens = []
    for game in GAMES.values():
        if not game.kinds:
            continue
        count = (Question.objects.filter(theme=OuterRef("name"),
                                         kind__in=[k.slug for k in game.kinds])
                 .order_by().values("theme").annotate(n=Count("pk")).values("n"))
        whens.append(When(game=game.slug, then=Coalesce(Subquery(count), 0)))
    return Case(*whens, default=Value(0), output_field=IntegerField())


class ThemeGameFilter(admin.SimpleListFilter):
    title = gettext_lazy("jeu")
    parameter_name = "game"

    def lookups(self, request, model_admin):
        return [(game.slug, game.name) for game in GAMES.values() if game.kinds]

    def queryset(self, request, queryset):
        return queryset.filter(game=self.value()) if self.value() in GAMES else queryset


class ThemeForm(forms.ModelForm):
    class Meta:
        model = Theme
        fields = ["name"]

    def clean_name(self):
        error = services.theme_name_error(theme=self.instance, name=self.cleaned_data["name"])
        if error is not None:
            raise error
        return self.cleaned_data["name"]


class MergeForm(forms.Form):
    into = forms.ModelChoiceField(queryset=Theme.objects.none(), widget=forms.RadioSelect,
                                  label=gettext_lazy("Thème gardé"), empty_label=None)

    def __init__(self, *args, themes, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["into"].queryset = themes


@admin.register(Theme)
class ThemeAdmin(admin.ModelAdmin):
    """Themes are created by the questions that name them; here they are renamed, merged,
    and deleted once no question holds them (all through cms.services)."""

    form = ThemeForm
    list_display = ["name", "game", "questions"]
    list_filter = [ThemeGameFilter]
    search_fields = ["key"]
    ordering = ["game", "key"]
    actions = ["merge"]
    list_per_page = 100

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(question_count=question_counts())

    def get_search_results(self, request, queryset, search_term):
        for word in search.words(search_term):
            queryset = queryset.filter(key__contains=word)
        return queryset, False

    def get_fields(self, request, obj=None):
        return ["game", "name"] if obj is not None else ["name"]

    def get_readonly_fields(self, request, obj=None):
        return ["game"]

    def has_add_permission(self, request):
        return False  # a theme comes with the first question that names it

    def has_delete_permission(self, request, obj=None):
        if obj is not None and getattr(obj, "question_count", 0):
            return False  # renamed or merged instead: its questions would keep its name
        return super().has_delete_permission(request, obj)

    @admin.display(description=gettext_lazy("questions"), ordering="question_count")
    def questions(self, obj):
        count = obj.question_count
        if not count:
            return 0
        url = reverse("admin:cms_question_changelist")
        query = urlencode({"game": obj.game, "theme__exact": obj.name})
        return format_html('<a href="{}?{}">{}</a>', url, query, count)

    def save_model(self, request, obj, form, change):
        theme = Theme.objects.get(pk=obj.pk)
        services.theme_rename(theme=theme, name=form.cleaned_data["name"], user=request.user)

    def delete_model(self, request, obj):
        services.theme_delete(theme=obj, user=request.user)

    def delete_queryset(self, request, queryset):
        for theme in queryset:
            try:
                services.theme_delete(theme=theme, user=request.user)
            except ValidationError as refusal:
                messages.error(request, " ".join(refusal.messages))

    @admin.action(description=gettext_lazy("Fusionner les thèmes sélectionnés"),
                  permissions=["change"])
    def merge(self, request, queryset):
        themes = Theme.objects.filter(pk__in=queryset.values("pk")).annotate(
            question_count=question_counts())
        if len({theme.game for theme in themes}) != 1 or len(themes) < 2:
            messages.error(request, _("Choisissez au moins deux thèmes d’un même jeu."))
            return None
        form = MergeForm(request.POST if "apply" in request.POST else None, themes=themes)
        if form.is_valid():
            into = form.cleaned_data["into"]
            try:
                services.theme_merge(themes=list(themes), into=into, user=request.user)
            except (ValidationError, PermissionDenied) as refusal:
                messages.error(request, " ".join(getattr(refusal, "messages", [])) or _(
                    "Vous n’avez pas le droit de faire cela."))
                return None
            moved = sum(t.question_count for t in themes if t.pk != into.pk)
            messages.success(request, ngettext(
                "Thèmes fusionnés dans « %(name)s » : %(n)s question a changé de thème.",
                "Thèmes fusionnés dans « %(name)s » : %(n)s questions ont changé de thème.",
                moved) % {"name": into.name, "n": moved})
            return HttpResponseRedirect(request.get_full_path())
        if form.is_bound:
            messages.error(request, _("Choisissez le thème à garder."))
        largest = max(themes, key=lambda t: t.question_count)
        form.fields["into"].initial = largest.pk
        form.fields["into"].label_from_instance = lambda t: ngettext(
            "%(name)s (%(n)s question)", "%(name)s (%(n)s questions)", t.question_count) % {
            "name": t.name, "n": t.question_count}
        context = {**self.admin_site.each_context(request), "opts": self.model._meta,
                   "title": _("Fusionner des thèmes"), "themes": themes, "form": form,
                   "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME}
        return TemplateResponse(request, "admin/cms/theme_merge.html", context)


# --- the question form's theme field ------------------------------------------------------


class ThemeInput(forms.TextInput):
    """A text field that offers the themes of the question's game (an HTML datalist per
    game; cms/themes.js follows the kind chosen) and takes any new theme."""

    def __init__(self, *, game: str = "", attrs=None):
        super().__init__(attrs)
        self.game = game

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        widget_attrs = context["widget"]["attrs"]
        widget_attrs["data-theme-games"] = json.dumps(
            {slug: game.slug for slug, (game, _kind) in KINDS.items()})
        widget_attrs["autocomplete"] = "off"
        if self.game:
            widget_attrs["list"] = f"plateau-themes-{self.game}"
        return context

    def render(self, name, value, attrs=None, renderer=None):
        html = super().render(name, value, attrs, renderer)
        names: dict[str, list[str]] = {}
        for game, theme in Theme.objects.order_by("game", "key").values_list("game", "name"):
            names.setdefault(game, []).append(theme)
        lists = format_html_join("", '<datalist id="plateau-themes-{}">{}</datalist>', (
            (game, format_html_join("", '<option value="{}">', ((n,) for n in themes)))
            for game, themes in names.items()))
        return html + lists

    class Media:
        js = ["cms/themes.js"]


def theme_widget(request) -> ThemeInput:
    """Return the question form's theme input, offering the themes of the game on the page."""
    shown = getattr(request, "plateau_shown", None) or {}
    kind = KINDS.get(shown.get("kind") or request.GET.get("kind", ""))
    game = kind[0].slug if kind else (request.GET.get("game") or "")
    return ThemeInput(game=game if game in GAMES else "", attrs={"class": "vTextField"})


THEME_HELP = gettext_lazy("Un thème du jeu, ou un nouveau : il est créé à l’enregistrement "
                          "(« geographie » est « Géographie » s’il existe).")
