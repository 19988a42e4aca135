"""The maker's print options, as a form that builds PrintOptions."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, cast

from django import forms
from django.http import QueryDict
from django.utils.functional import lazy
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from .products import PRODUCTS
from .render import PrintOptions, prints_alone
from .sheets import (
    BACKS_FOLD,
    BACKS_LONG,
    BACKS_SEPARATE,
    BACKS_SHORT,
    CARD_SIZES,
    DEFAULT_CARD,
    DEFAULT_GUTTER,
    MAX_BLEED,
    MAX_GUTTER,
    MAX_OFFSET,
    SheetError,
)

PAPER_CHOICES = [("a4", _("A4 (210 × 297 mm)")), ("letter", _("US Letter (216 × 279 mm)"))]
CARD_LABELS = {"poker": _("Poker"), "mini": _("Mini"), "tarot": _("Tarot")}
BACKS_CHOICES = [
    (BACKS_LONG, _("Recto verso, retournement bord long")),
    (BACKS_SHORT, _("Recto verso, retournement bord court")),
    (BACKS_SEPARATE, _("Tous les rectos, puis tous les versos")),
    (BACKS_FOLD, _("Pliage : recto et verso côte à côte")),
]


def card_choices() -> list[tuple[str, str]]:
    """Return the card sizes labelled with their size in mm: « Poker (63 × 88 mm) »."""
    return [(slug, format_html("{} ({} × {} mm)", CARD_LABELS.get(slug, slug), f"{w:g}",
                               f"{h:g}"))
            for slug, (w, h) in CARD_SIZES.items()]


def product_choices(game_slug: str) -> list[tuple[str, str]]:
    """Return a game's products as checkbox labels: the name, then what it prints."""
    return [(slug, format_html('<strong>{}</strong><span class="plateau-print-help">{}</span>',
                               product.label, product.description))
            for slug, product in PRODUCTS.get(game_slug, {}).items()]


def _interpolate(message, params: dict) -> str:
    return str(message) % params


# Translated when shown, in the reader's language, not once at import.
interpolate = lazy(_interpolate, str)


def millimetres(initial: float = 0.0, **kwargs) -> forms.DecimalField:
    # No min/max validators: PrintOptions says what is possible, in one place, in French.
    return forms.DecimalField(max_digits=4, decimal_places=1, initial=Decimal(f"{initial:g}"),
                              widget=forms.NumberInput(attrs={"step": "0.5"}), **kwargs)


BLEED_HELP = interpolate(_(
    "De 0 à %(max)s mm : le fond de la carte déborde du trait de coupe, pour un massicot."),
    {"max": f"{MAX_BLEED:g}"})
GUTTER_HELP = interpolate(_(
    "De 0 à %(max)s mm de papier blanc entre deux cartes : une coupe un peu à côté ne montre "
    "pas la voisine."), {"max": f"{MAX_GUTTER:g}"})
OFFSET_HELP = interpolate(_(
    "De −%(max)s à %(max)s mm, vu du côté verso : ce que donne la feuille de calibrage "
    "imprimée dans ce mode de dos."), {"max": f"{MAX_OFFSET:g}"})


class PrintForm(forms.Form):
    """What a maker chooses before printing one game; `options` holds the result."""

    products = forms.MultipleChoiceField(label=_("Produits"), widget=forms.CheckboxSelectMultiple,
                                         error_messages={"required": _(
                                             "Choisissez au moins un produit à imprimer.")})
    paper = forms.ChoiceField(label=_("Papier"), choices=PAPER_CHOICES, initial="a4",
                              widget=forms.RadioSelect)
    card = forms.ChoiceField(label=_("Format des cartes"), initial=DEFAULT_CARD,
                             widget=forms.RadioSelect,
                             help_text=_("Les fiches, jetons et billets gardent leur format."))
    backs = forms.ChoiceField(label=_("Dos des cartes"), choices=BACKS_CHOICES,
                              initial=BACKS_LONG, widget=forms.RadioSelect)
    bleed = millimetres(label=_("Fond perdu (mm)"), help_text=BLEED_HELP)
    gutter = millimetres(DEFAULT_GUTTER, label=_("Espace entre les cartes (mm)"),
                         help_text=GUTTER_HELP, required=False)
    offset_x = millimetres(label=_("Décalage des versos vers la droite (mm)"),
                           help_text=OFFSET_HELP)
    offset_y = millimetres(label=_("Décalage des versos vers le haut (mm)"), help_text=_(
        "Vu du côté verso, comme ci-dessus."))
    crop_marks = forms.BooleanField(label=_("Traits de coupe"), required=False, initial=True)
    marks_to_edge = forms.BooleanField(
        label=_("Traits de coupe jusqu’au bord de la feuille"), required=False,
        help_text=_("Pour un massicot ou une rogneuse : les traits traversent la marge."))
    include_drafts = forms.BooleanField(
        label=_("Inclure les brouillons et les contenus en relecture"), required=False,
        help_text=_("Pour relire sur papier ce qui n’est pas encore publié."))

    def __init__(self, *args, game_slug: str, may_include_drafts: bool = False, **kwargs):
        kwargs.setdefault("label_suffix", "")  # labels stand on their own line
        super().__init__(*args, **kwargs)
        self.options: PrintOptions | None = None
        choices = product_choices(game_slug)
        # The fields are the class's own, declared above: choice fields.
        products_field = cast(forms.MultipleChoiceField, self.fields["products"])
        products_field.choices = choices
        # The calibration sheet and a board on its own paper are printed when asked for.
        products = PRODUCTS.get(game_slug, {})
        products_field.initial = [slug for slug, _label in choices
                                  if not prints_alone(products[slug])]
        cast(forms.ChoiceField, self.fields["card"]).choices = card_choices()
        if not may_include_drafts:
            del self.fields["include_drafts"]

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if self.errors:
            return cleaned
        try:
            self.options = PrintOptions(
                paper=cleaned["paper"], card=cleaned["card"], backs=cleaned["backs"],
                bleed=float(cleaned["bleed"]),
                gutter=DEFAULT_GUTTER if cleaned["gutter"] is None else float(cleaned["gutter"]),
                offset_x=float(cleaned["offset_x"]), offset_y=float(cleaned["offset_y"]),
                crop_marks=cleaned["crop_marks"], marks_to_edge=cleaned["marks_to_edge"])
        except SheetError as error:
            raise forms.ValidationError(str(error), code="impossible_sheet") from error
        return cleaned

    @property
    def chosen_options(self) -> PrintOptions:
        """Return the options a valid form built."""
        if self.options is None:
            raise ValueError("PrintForm: no options before the form is found valid")
        return self.options

    @property
    def chosen_products(self) -> list[str]:
        return self.cleaned_data["products"]

    @property
    def wants_drafts(self) -> bool:
        return self.cleaned_data.get("include_drafts", False)

    def initial_query(self) -> QueryDict:
        """Return the default choices as the query string the form would send."""
        query = QueryDict(mutable=True)
        for name, field in self.fields.items():
            value = self.get_initial_for_field(field, name)
            if isinstance(field, forms.BooleanField):
                if value:
                    query[name] = "on"
            elif isinstance(value, list):
                query.setlist(name, value)
            elif value is not None:
                query[name] = str(value)
        return query
