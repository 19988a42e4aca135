"""The editors' admin: questions and cards by game, problems on every page, history kept."""

import contextvars

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import models
from django.db.models import Count
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from reversion.admin import VersionAdmin

from .admin_import import PlateauImportExportMixin
from .admin_site import forget_reports, reports_for
from .games import GAMES, KINDS, content_games
from .games.spec import ORDER_BY_SLOT_FORMAT, ORDER_STRICTLY_INCREASING
from .models import Card, CardQuestion, Proposition, Question, Status
from .resources import CardResource, QuestionImageResource, QuestionResource
from .services import (
    StatusRefused,
    after_edit,
    can_set_status,
    duel_pair,
    set_status,
    set_status_many,
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
        parts.append(_("un palier de 1 à 15"))
    if kind.difficulty_order == ORDER_STRICTLY_INCREASING:
        parts.append(_("difficulté strictement croissante"))
    elif kind.difficulty_order == ORDER_BY_SLOT_FORMAT:
        parts.append(_("DUO, puis CARRÉ, puis CASH, de plus en plus difficiles"))
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


class ContentAdmin(VersionAdmin):
    """What the question and card admins share: status workflow, problems, history."""

    change_form_template = "admin/cms/content_change_form.html"
    formfield_overrides = {models.TextField: {"widget": forms.Textarea(attrs={"rows": 3})}}
    actions = ["send_to_review", "publish", "back_to_draft", "print_selection"]
    list_per_page = 50
    save_on_top = True
    history_latest_first = True

    # Permissions the actions and buttons need.
    def has_submit_permission(self, request, obj=None):
        return can_set_status(request.user, self.model, Status.REVIEW)

    def has_publish_permission(self, request, obj=None):
        return can_set_status(request.user, self.model, Status.PUBLISHED)

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
        return format_html('<span class="plateau-status plateau-status-{}">{}</span>',
                           obj.status, obj.get_status_display())

    def changelist_view(self, request, extra_context=None):
        token = _listing_request.set(request)
        try:
            response = super().changelist_view(request, extra_context)
            # Render while the request is known to the list columns.
            if hasattr(response, "render"):
                response.render()
            return response
        finally:
            _listing_request.reset(token)

    def save_model(self, request, obj, form, change):
        if not change:
            obj.created_by = request.user
        obj.updated_by = request.user
        super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        obj = form.instance
        changed = form.has_changed() or any(fs.has_changed() for fs in formsets)
        note = after_edit(obj=obj, user=request.user, changed=changed)
        if note:
            messages.warning(request, note)

    def _after_save(self, request, obj, default_response):
        """Apply a status button, then stay on the page while the content has errors."""
        forget_reports(request)
        for button, status in (("_submit_review", Status.REVIEW), ("_publish", Status.PUBLISHED)):
            if button in request.POST:
                self._move(request, obj, status)
        forget_reports(request)
        problems = self.problems_of(request, obj)
        errors = [p for p in problems if p.is_error]
        if errors:
            messages.error(request, ngettext(
                "%(n)s erreur à corriger : %(list)s",
                "%(n)s erreurs à corriger : %(list)s", len(errors),
            ) % {"n": len(errors), "list": " · ".join(p.message for p in errors)})
            if "_popup" not in request.POST:
                url = reverse(f"admin:cms_{self.model._meta.model_name}_change", args=[obj.pk])
                return HttpResponseRedirect(url)
        elif problems:
            messages.warning(request, " · ".join(p.message for p in problems))
        return default_response

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
        except StatusRefused as refusal:
            self._refusal_message(request, obj, refusal.problems)
            return False
        forget_reports(request)
        return True

    @staticmethod
    def _refusal_message(request, obj, problems):
        messages.error(request, _("« %(obj)s » reste « %(status)s » : %(why)s") % {
            "obj": obj, "status": obj.get_status_display(),
            "why": " · ".join(p.message for p in problems)})

    def _bulk_move(self, request, queryset, status):
        objects = list(queryset)
        try:
            _moved, refused = set_status_many(objects=objects, status=status, user=request.user)
        except PermissionDenied:
            messages.error(request, _("Vous n’avez pas le droit de faire cela."))
            return
        for obj, problems in refused.items():
            self._refusal_message(request, obj, problems)
        moved = len(objects) - len(refused)
        if moved:
            messages.success(request, ngettext(
                "%(n)s élément passé à « %(status)s ».",
                "%(n)s éléments passés à « %(status)s ».", moved,
            ) % {"n": moved, "status": Status(status).label})

    @admin.action(description=gettext_lazy("Envoyer en relecture"), permissions=["submit"])
    def send_to_review(self, request, queryset):
        self._bulk_move(request, queryset, Status.REVIEW)

    @admin.action(description=gettext_lazy("Publier"), permissions=["publish"])
    def publish(self, request, queryset):
        self._bulk_move(request, queryset, Status.PUBLISHED)

    @admin.action(description=gettext_lazy("Repasser en brouillon"), permissions=["submit"])
    def back_to_draft(self, request, queryset):
        self._bulk_move(request, queryset, Status.DRAFT)

    @admin.action(description=gettext_lazy("Imprimer la sélection"), permissions=["view"])
    def print_selection(self, request, queryset):
        from printing.admin_views import print_selection  # ReportLab loads only to print

        return print_selection(self, request, queryset)

    def render_change_form(self, request, context, add=False, change=False, form_url="",
                           obj=None):
        context.update({
            "kind_shapes": {slug: {"rows": self.inlines[0].wanted_rows(kind),
                                   "summary": describe_kind(kind)}
                            for slug, (_game, kind) in KINDS.items()},
            "rows_group": self.inlines[0].group_id,
            "problems": problems_html(self.problems_of(request, obj)) if obj else "",
            "can_submit": self.has_submit_permission(request) and self.has_change_permission(
                request, obj),
            "can_publish": self.has_publish_permission(request) and self.has_change_permission(
                request, obj),
        })
        return super().render_change_form(request, context, add, change, form_url, obj)

    def get_changeform_initial_data(self, request):
        initial = super().get_changeform_initial_data(request)
        game = request.GET.get("game")
        if "kind" not in initial and game in GAMES:
            kinds = self.kinds_of(GAMES[game])
            if kinds:
                initial["kind"] = kinds[0].slug
        return initial

    class Media:
        js = ["cms/reorder.js", "cms/kind.js"]


# --- questions ----------------------------------------------------------------------------


class SortableInline(admin.TabularInline):
    """Rows an editor orders with ▲/▼ buttons (cms/reorder.js fills the hidden positions)."""

    classes = ["plateau-sortable"]
    readonly_fields = ["move"]
    parent_field = ""  # the foreign key to the object being edited
    extra_when_unknown = 1  # blank rows on an add page that does not name the kind

    group_id = ""  # the id of the inline's group on the page ("<related name>-group")

    @staticmethod
    def wanted_rows(kind) -> int:
        """Return how many rows a full object of this content kind has."""
        raise NotImplementedError

    def get_extra(self, request, obj=None, **kwargs):
        if obj is None:
            kind = KINDS.get(request.GET.get("kind", ""))
            return self.wanted_rows(kind[1]) if kind else self.extra_when_unknown
        existing = self.model.objects.filter(**{self.parent_field: obj}).count()
        return max(0, self.wanted_rows(obj.spec) - existing)

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        if db_field.name == "position":
            kwargs["widget"] = forms.HiddenInput
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

    @staticmethod
    def wanted_rows(kind) -> int:
        return kind.propositions


@admin.register(Question)
class QuestionAdmin(PlateauImportExportMixin, ContentAdmin):
    resource_classes = [QuestionResource, QuestionImageResource]
    list_display = ["short_text", "kind", "difficulty", "step", "theme", "status_badge",
                    "problems_count", "on_card"]
    list_display_links = ["short_text"]
    list_filter = [GameFilter, "kind", "difficulty", "status", ProblemsFilter, "step", "theme"]
    search_fields = ["text", "theme", "answer", "ref", "propositions__text"]
    inlines = [PropositionInline]
    readonly_fields = ["status_badge", "image_preview", "created_by", "created_at",
                       "updated_by", "updated_at"]
    fieldsets = [
        (None, {"fields": ["status_badge", "kind", "text", "difficulty", "theme", "step"]}),
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

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("slots__card")

    def get_search_results(self, request, queryset, search_term):
        queryset, may_have_duplicates = super().get_search_results(request, queryset,
                                                                   search_term)
        if request.GET.get("model_name") == "cardquestion":
            # Picking a question for a card: offer only those on no card yet.
            queryset = queryset.filter(slots__isnull=True)
        return queryset, may_have_duplicates

    @admin.display(description=gettext_lazy("aperçu"))
    def image_preview(self, obj):
        if not obj.image:
            return "—"
        return format_html('<img src="{}" alt="" class="plateau-preview">', obj.image.url)

    def delete_queryset(self, request, queryset):
        cards = list(Card.objects.filter(slots__question__in=queryset).distinct())
        super().delete_queryset(request, queryset)
        self._settle_cards(request, cards)

    def delete_model(self, request, obj):
        cards = list(Card.objects.filter(slots__question=obj))
        super().delete_model(request, obj)
        self._settle_cards(request, cards)

    def _settle_cards(self, request, cards):
        """A card that lost a question must not stay published with a hole in it."""
        for card in cards:
            note = after_edit(obj=card, user=request.user, changed=True)
            if note:
                messages.warning(request, f"{card} : {note}")

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

    @staticmethod
    def wanted_rows(kind) -> int:
        return kind.questions_per_card

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
    list_filter = [GameFilter, "kind", "status", ProblemsFilter, "colour",
                   "questions__difficulty", "questions__theme"]
    search_fields = ["title", "ref", "questions__text"]
    inlines = [CardQuestionInline]
    autocomplete_fields = ["pair"]
    readonly_fields = ["status_badge", "created_by", "created_at", "updated_by", "updated_at"]
    fieldsets = [
        (None, {"fields": ["status_badge", "kind", "title"]}),
        (gettext_lazy("Duel"), {"fields": ["colour", "pair"]}),
        (gettext_lazy("Suivi"), {"classes": ["collapse"],
                                 "fields": ["ref", "created_by", "created_at", "updated_by",
                                            "updated_at"]}),
    ]

    @staticmethod
    def kinds_of(game):
        return game.card_kinds

    def get_fieldsets(self, request, obj=None):
        fieldsets = super().get_fieldsets(request, obj)
        if obj is not None and not obj.spec.paired:
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

    def save_related(self, request, form, formsets, change):
        if "pair" in form.changed_data:
            duel_pair(card=form.instance, partner=form.instance.pair, user=request.user)
        super().save_related(request, form, formsets, change)
