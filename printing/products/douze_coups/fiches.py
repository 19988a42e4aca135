"""The fiches: coup par coup and étoile mystérieuse, laid out under the tableau révélateur.

A fiche and the tableau révélateur laid over it share one geometry (`AREAS`). An étoile
mystérieuse whose picture is gone or too small to print sharp is refused; `SENTENCES`
says so to the maker.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cms.games.douze_coups import RULES

from ...draw import WHITE, Issue, Pen
from ...sheets import Rect
from ...text import BOLD, NNBSP, width
from ...units import to_mm
from ..base import Deck, ImagePanel
from ..style import GREY, INK, LIGHT, PAPER, ink_box, numbered
from .look import COLOUR, HAIR, RIGHT_INK, TINT, WRONG_INK, grouped, kind_back
from .printed import Asked, Printed, kind_label, printed_card

if TYPE_CHECKING:
    from cms.validation import Problem

# Two to a sheet, turned a quarter, on A4 or Letter even with 3 mm of bleed; the image area
# is a 110 mm square.
FICHE_SIZE = (122.0, 182.0)
FICHE_BAND = 7.0  # mm: the red band at the top of a fiche's header
MIN_DPI = 200  # under this, a picture's pixels show as stairs on paper


@dataclass(frozen=True)
class FicheAreas:
    """Where things lie on a fiche, and so on the tableau révélateur laid over it.

    The image area is cut into rows: on the left the large panels (the coup par coup's
    propositions), on the right the small panels (its VRAI / FAUX).
    """

    header: Rect
    image: Rect
    answer: Rect
    large: tuple[Rect, ...]
    small: tuple[Rect, ...]


def fiche_areas(w: float = FICHE_SIZE[0], h: float = FICHE_SIZE[1]) -> FicheAreas:
    """Return the areas of a fiche `w` × `h` mm: one geometry for fiches and cover."""
    margin, gap = 6.0, 4.0
    inner_w = w - 2 * margin
    answer = Rect(margin, margin, inner_w, 24.0)
    # A square image area: the mystery pictures are square.
    image = Rect(margin, answer.top + gap, inner_w, inner_w)
    header = Rect(margin, image.top + gap, inner_w, h - margin - image.top - gap)
    rows = RULES.large_panels
    if RULES.small_panels != rows:
        raise ValueError("the tableau pairs each large panel with a small one")
    row_h = image.h / rows
    large_w = round(image.w * RULES.large_panel_width, 2)
    large = tuple(Rect(image.x, image.top - (i + 1) * row_h, large_w, row_h)
                  for i in range(rows))
    small = tuple(Rect(image.x + large_w, r.y, image.w - large_w, row_h) for r in large)
    return FicheAreas(header, image, answer, large, small)


AREAS = fiche_areas()


def etoile_panels(areas: FicheAreas = AREAS) -> tuple[ImagePanel, ...]:
    """Return the 14 flaps of the tableau révélateur over the étoile's picture, numbered as
    printed (large 1 to 7 on the left, small 1 to 7 on the right, from the top)."""
    image = areas.image

    def panel(number: int, size: str, rect: Rect) -> ImagePanel:
        return ImagePanel(number, size, (rect.x - image.x) / image.w,
                          (image.top - rect.top) / image.h, rect.w / image.w, rect.h / image.h)

    return (*(panel(n, "large", r) for n, r in enumerate(areas.large, start=1)),
            *(panel(n, "small", r) for n, r in enumerate(areas.small, start=1)))


def same_words(first: str, second: str) -> bool:
    """Whether two labels say the same, articles, case and apostrophes aside."""

    def words(value: str) -> str:
        value = value.casefold().replace("’", "'").strip()
        for article in ("l'", "la ", "le ", "les "):
            value = value.removeprefix(article)
        return " ".join(value.split())

    return words(first) == words(second)


def fiche_header(pen: Pen, card: Printed, areas: FicheAreas, statement: str) -> None:
    """Draw the kind and title on a red band, then the statement the players read.

    A title that only repeats the kind (« L’étoile mystérieuse ») is left out.
    """
    header = areas.header
    band = Rect(header.x, header.top - FICHE_BAND, header.w, FICHE_BAND)
    pen.rect(band, fill=COLOUR, radius=1.5)
    line = ink_box(band.inset(2.5, 0), 10)
    kind = kind_label(card)
    kind_w = to_mm(width(kind, BOLD, 10))
    pen.text(kind, Rect(line.x, line.y, kind_w + HAIR, line.h), size=10, font=BOLD,
             fill=WHITE, valign="middle", max_lines=1, label=_("type"), french=False)
    if card.title and not same_words(card.title, kind):
        pen.text(card.title, Rect(line.x + kind_w + 4, line.y, line.w - kind_w - 4, line.h),
                 size=10, font=BOLD, fill=WHITE, align="right", valign="middle",
                 max_lines=1, label=_("titre"))
    pen.text(statement, Rect(header.x + 1, header.y, header.w - 2, header.h - band.h - 1.5),
             size=13, font=BOLD, align="centre", valign="middle", label=_("énoncé"))


def answer_box(pen: Pen, rect: Rect) -> None:
    """Draw the pale red box a fiche's answer (or intruder) sits in."""
    pen.rect(rect, fill=TINT, stroke=COLOUR, width=0.3, radius=1.5)


# --- coup par coup -------------------------------------------------------------------------


def coup_par_coup_front(pen: Pen, card: Printed) -> None:
    """Draw the statement, 7 propositions on the large panels, VRAI or FAUX on the small."""
    areas = AREAS
    pen.background(PAPER)
    question = card.first
    fiche_header(pen, card, areas, question.text)
    for number, (large, small) in enumerate(zip(areas.large, areas.small, strict=True), 1):
        pen.rect(large, stroke=GREY, width=0.3)
        pen.rect(small, fill=LIGHT, stroke=GREY, width=0.3)
        numbered(pen, number, large.x + 5, large.y + large.h / 2, radius=3.2, colour=COLOUR)
        if number > len(question.choices):
            continue
        choice = question.choices[number - 1]
        pen.text(choice.text, Rect(large.x + 10, large.y + 1, large.w - 12, large.h - 2),
                 size=12, min_size=7, valign="middle",
                 label=_("proposition %(n)s") % {"n": number})
        word, colour = (_("VRAI"), RIGHT_INK) if choice.right else (_("FAUX"), WRONG_INK)
        cx, cy = small.centre
        pen.centred(word, cx, cy, size=16 if not choice.right else 14, font=BOLD, fill=colour)
    intruders = [c.text for c in question.choices if not c.right]
    answer = areas.answer
    answer_box(pen, answer)
    pen.text(_("L’intrus (FAUX)"), Rect(answer.x + 3, answer.top - 7, answer.w - 6, 5),
             size=8, font=BOLD, fill=COLOUR, valign="middle", label=_("intrus"))
    pen.text(" · ".join(intruders), Rect(answer.x + 3, answer.y + 2, answer.w - 6,
                                         answer.h - 10),
             size=13, min_size=7, font=BOLD, align="centre", valign="middle",
             label=_("intrus"))


# --- étoile mystérieuse --------------------------------------------------------------------


def picture_problem(question: Asked, area: Rect) -> Issue | None:
    """Return what stops the question's picture from printing sharp in `area`, or None.

    A picture is drawn as large as the area allows, its shape kept; it must have at least
    MIN_DPI pixels an inch at that size.
    """
    if question.pixels is None:
        return Issue("image_file_missing", _("image"), os.path.basename(question.image))
    pixels_w, pixels_h = question.pixels
    mm_per_pixel = min(area.w / pixels_w, area.h / pixels_h)
    if 25.4 / mm_per_pixel >= MIN_DPI - 1e-6:
        return None
    printed_w, printed_h = pixels_w * mm_per_pixel, pixels_h * mm_per_pixel
    need_w = math.ceil(printed_w / 25.4 * MIN_DPI - 1e-6)
    need_h = math.ceil(printed_h / 25.4 * MIN_DPI - 1e-6)
    return Issue("image_low_resolution", _("image"), _(
        "l’image fait %(w)s × %(h)s px : il en faut au moins "
        "%(need_w)s × %(need_h)s pour %(dpi)s dpi à sa taille imprimée, "
        "%(size_w)s × %(size_h)s mm") % {
            "w": grouped(pixels_w), "h": grouped(pixels_h),
            "need_w": grouped(need_w), "need_h": grouped(need_h), "dpi": MIN_DPI,
            "size_w": round(printed_w), "size_h": round(printed_h)})


def _missing_image(problem: Problem) -> str:
    return _(
        "Image introuvable ou illisible : « %(name)s ». Importez-la de nouveau sur la "
        "question de cette fiche.") % {"name": problem.args["detail"]}


def _small_image(problem: Problem) -> str:
    return _(
        "Image trop petite pour être imprimée nette : %(detail)s. Importez une image plus "
        "grande.") % {"detail": problem.args["detail"]}


# The sentences of the problems this module's issues become.
SENTENCES = {"image_file_missing": _missing_image, "image_low_resolution": _small_image}


def etoile_front(pen: Pen, card: Printed) -> None:
    """Draw the mystery image in the image area, the answer and its variants under it.

    A picture whose file is gone, or too small to print sharp, is reported: the fiche
    is refused, never printed with a blank or a blurred picture.
    """
    areas = AREAS
    pen.background(PAPER)
    question = card.first
    fiche_header(pen, card, areas, question.text)
    pen.rect(areas.image, fill=LIGHT)
    # With no image at all, the content's own rule (image_missing) refuses the fiche.
    problem = picture_problem(question, areas.image) if question.image else None
    if problem is not None:
        pen.report(problem)
    elif question.image:
        pen.image(question.image, areas.image)
    pen.rect(areas.image, stroke=GREY, width=0.3)
    answer = areas.answer
    answer_box(pen, answer)
    pen.text(_("Réponse"), Rect(answer.x + 3, answer.top - 6.5, answer.w * 0.3, 5), size=8,
             font=BOLD, fill=COLOUR, valign="middle", label=_("réponse"))
    has_variants = bool(question.variants)
    pen.text(question.answer, Rect(answer.x + 3, answer.y + (8 if has_variants else 2),
                                   answer.w - 6, answer.h - (15 if has_variants else 9)),
             size=14, min_size=7, font=BOLD, align="centre", valign="middle",
             label=_("réponse"))
    if has_variants:
        pen.text(_("Aussi accepté : %(variants)s") % {
            "variants": f"{NNBSP}· ".join(question.variants)},
            Rect(answer.x + 3, answer.y + 1.2, answer.w - 6, 6.3), size=8,
            fill=INK, align="centre", valign="middle", label=_("variantes"))


COUPS_PAR_COUP = Deck(
    slug="coups-par-coup",
    label=gettext_lazy("Fiches « Coup par coup »"),
    description=gettext_lazy("L’énoncé et 7 propositions, VRAI ou FAUX sous les petits "
                             "volets du tableau révélateur."),
    kind="coup-par-coup",
    to_item=printed_card,
    front=coup_par_coup_front,
    back_form=kind_back("coup-par-coup"),
    size=FICHE_SIZE,
)

ETOILES = Deck(
    slug="etoiles",
    label=gettext_lazy("Fiches « Étoile mystérieuse »"),
    description=gettext_lazy("L’image à deviner et, en bas, la réponse et ses variantes."),
    kind="etoile-mysterieuse",
    to_item=printed_card,
    front=etoile_front,
    back_form=kind_back("etoile-mysterieuse"),
    size=FICHE_SIZE,
)
