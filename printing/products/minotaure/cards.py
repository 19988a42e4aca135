"""The Minotaure's cards: Thésée's secret colours, Ariane's extra flick, and the card of
the Thésée marble variant, all with the board's labyrinth on their backs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cms.games.labyrinth import standard_labyrinth
from cms.games.minotaure import COLOURS, RULES

from ...draw import WHITE, Path, Pen
from ...sheets import Rect
from ...text import BOLD, MIN_SIZE, REGULAR, Fitted
from ...units import to_mm, to_points
from ..base import Deck
from ..style import GOLD, GREY, INK, back_pattern, card_frame, scale
from .board import draw_marble, draw_walls
from .look import COLOUR, MINOTAUR_RED, THESEE_GOLD, THREAD_RED, colour_label

ARIANE_CARDS = RULES.ariane_cards

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

    # A rule's line: its text, poker-card size, font, colour and the label a report names
    # it by.
    RuleText = tuple[StrOrPromise, float, str, str, StrOrPromise]


@dataclass(frozen=True)
class ColourCard:
    """One Thésée card: the colour of the prisoner its holder secretly plays."""

    name: str
    hex: str


def thesee_cards() -> list[ColourCard]:
    """Return one Thésée card per prisoner colour, in the palette's order."""
    return [ColourCard(name, value) for name, value in COLOURS.items()]


def thesee_title(card: ColourCard) -> str:
    """Return a Thésée card's name line: « Thésée — Rouge »."""
    return _("Thésée — %(colour)s") % {"colour": colour_label(card.name)}


def thesee_front(pen: Pen, card: ColourCard) -> None:
    """The colour as a big marble, its name, and the reminder to keep it secret."""
    k = scale(pen)
    body = card_frame(pen, colour=COLOUR, title=_("Thésée"))
    name_h = 9 * k
    note_h = 7 * k
    disc_box = Rect(body.x, body.y + name_h + note_h, body.w,
                    body.h - name_h - note_h)
    r = min(disc_box.w, disc_box.h) * 0.42
    cx, cy = disc_box.centre
    pen.circle(cx, cy, r + 1.2 * k, fill=WHITE, stroke=COLOUR, width=0.5)
    draw_marble(pen, cx, cy, r, card.hex)
    pen.text(thesee_title(card), Rect(body.x, body.y + note_h, body.w, name_h), size=11 * k,
             font=BOLD, fill=INK, align="centre", valign="middle", label=_("couleur"))
    pen.text(_("Gardez votre couleur secrète."), Rect(body.x, body.y, body.w, note_h),
             size=readable(7 * k), fill=GREY, align="centre", valign="middle",
             label=_("rappel"))


def readable(size: float) -> float:
    """Return `size`, raised to the smallest readable size if a small card scaled it under."""
    return max(size, MIN_SIZE)


def fitted_height(fitted: Fitted | None) -> float:
    """Return the mm a fitted text takes, from its first line's top to its last baseline."""
    if fitted is None:
        return 0.0
    return to_mm(fitted.leading * (len(fitted.lines) - 1) + fitted.size)


def rule_texts(pen: Pen, body: Rect, texts: Sequence[RuleText]) -> float:
    """Set `texts` (text, size, font, colour, label) from the bottom of `body` upwards,
    each as tall as its lines; return the height they take, for the picture above."""
    k = scale(pen)
    y = body.y
    for value, size, font, fill, label in reversed(texts):
        box = Rect(body.x, y, body.w, body.h * 0.5)
        fitted = pen.fit(str(value), box, size=readable(size * k), font=font, label=label)
        height = fitted_height(fitted)
        if fitted is not None:
            pen.draw_fitted(fitted, Rect(body.x, y, body.w, height), align="centre",
                            valign="bottom", fill=fill)
        y += height + 1.8 * k
    return y - body.y


def mini_labyrinth(pen: Pen, cx: float, cy: float, radius: float, colour: str) -> None:
    """The board's own labyrinth, small, as an emblem."""
    lab = standard_labyrinth()
    zoom = radius / lab.board_radius
    with pen.transformed(cx, cy, scale=zoom):
        draw_walls(pen, lab, colour=colour, width=max(lab.wall_thickness, 0.5 / zoom))


def card_back(pen: Pen, title: str) -> None:
    """The shared back: the board's labyrinth in gold over the deck's name."""
    back_pattern(pen, colour=COLOUR, title="")
    k = scale(pen)
    cx, cy = pen.box.centre
    radius = min(pen.w * 0.32, pen.h * 0.24)
    mini_labyrinth(pen, cx, cy + pen.h * 0.08, radius, GOLD)
    title_top = cy + pen.h * 0.08 - radius - 2 * k
    pen.text(title, Rect(pen.w * 0.12, title_top - 9 * k, pen.w * 0.76, 9 * k), size=13 * k,
             min_size=6.5, font=BOLD, fill=WHITE, align="centre", valign="middle",
             label=_("titre"))


def thesee_back_form(pen: Pen) -> None:
    """The Thésée cards' back."""
    card_back(pen, _("Thésée"))


def ariane_back_form(pen: Pen) -> None:
    """The Ariane cards' back."""
    card_back(pen, _("Ariane"))


def ball_of_thread(pen: Pen, cx: float, cy: float, r: float) -> None:
    """Ariane's ball of thread, its loose end winding off to the left for 2.2 radii."""
    k = r / 10
    x0, y0 = cx - r * 0.6, cy - r * 0.8
    loose_end = Path().move_to(x0, y0)
    for dx, dy in ((-1.2, -1.0), (-1.7, -0.5), (-2.2, -0.9)):
        x1, y1 = cx + dx * r, cy + dy * r
        loose_end.curve_to((x0 + x1) / 2, y0, (x0 + x1) / 2, y1, x1, y1)
        x0, y0 = x1, y1
    pen.shape(loose_end, stroke=THREAD_RED, width=0.45 * k, cap="round")
    pen.circle(cx, cy, r, fill="#efd3ad", stroke=THREAD_RED, width=0.6 * k)
    # Great circles seen at three tilts: the look of thread wound round a ball.
    with pen.clipped(Path().circle(cx, cy, r)):
        for tilt in (20, 80, 140):
            with pen.transformed(cx, cy, rotate=tilt):
                for flatness in (0.3, 0.6, 0.88):
                    pen.shape(Path().ellipse(0, 0, r, r * flatness), stroke=THREAD_RED,
                              width=0.3 * k)


ARIANE_RULE = (
    (gettext_lazy("À votre tour, défaussez-la : une pichenette de plus."), 9.5, BOLD, INK,
     gettext_lazy("règle")),
    (gettext_lazy(
        "Avec n’importe quelle bille, sauf le Minotaure. Qui élimine un joueur qui a encore "
        "la sienne la lui prend."), 7.5, REGULAR, GREY, gettext_lazy("précision")),
)


def ariane_front(pen: Pen, number: int) -> None:
    """Ariane's thread and the rule: one more flick, and what eliminating a holder wins."""
    body = card_frame(pen, colour=COLOUR, title=_("Ariane"))
    text_h = rule_texts(pen, body, ARIANE_RULE)
    art = Rect(body.x, body.y + text_h, body.w, body.h - text_h)
    # The ball and its thread (2.2 radii to the left) stay inside the body.
    r = min(art.w / 4.6, art.h / 2.4)
    ball_of_thread(pen, art.centre[0] + r * 1.1, art.centre[1] + r * 0.1, r)


# --- the Thésée marble variant --------------------------------------------------------------

THESEE_RULE = (
    (gettext_lazy("Mise en place : la bille Thésée part avec les prisonniers, dans la salle "
                  "centrale."), 7.5, REGULAR, INK, gettext_lazy("mise en place")),
    (gettext_lazy("Thésée touche le Minotaure : il est éliminé."), 9.5, BOLD, INK,
     gettext_lazy("règle")),
    (gettext_lazy(
        "La partie s’arrête aussitôt. Le joueur qui a joué ce coup gagne, quel que soit le "
        "nombre de prisonniers en jeu."), 7.5, REGULAR, INK, gettext_lazy("victoire")),
)


def thesee_meets_minotaur(pen: Pen, box: Rect) -> None:
    """The gold Thésée marble touching the Minotaur's calot, which is crossed out."""
    lab = standard_labyrinth()
    ratio = lab.minotaur_diameter / lab.marble_diameter
    r = min(box.h / 2 * 0.8 / ratio, box.w * 0.75 / (2 + 2 * ratio))
    big = r * ratio
    cx, cy = box.centre
    left = cx - (r + big) / 2
    right = left + r + big
    draw_marble(pen, left, cy, r, THESEE_GOLD)
    pen.circle(right, cy, big, fill=WHITE, stroke=MINOTAUR_RED, width=max(0.3, big * 0.06))
    pen.centred("M", right, cy, size=to_points(big) * 0.9, font=BOLD, fill=MINOTAUR_RED)
    reach = big * 0.62
    for sign in (1, -1):
        pen.line(right - reach, cy - sign * reach, right + reach, cy + sign * reach,
                 stroke=INK, width=max(0.3, big * 0.07))


def thesee_variant_front(pen: Pen, number: int) -> None:
    """The variant's setup, what Thésée does to the Minotaur, and who wins then."""
    k = scale(pen)
    body = card_frame(pen, colour=COLOUR, title=_("Variante Thésée"))
    text_h = rule_texts(pen, body, THESEE_RULE)
    art = Rect(body.x, body.y + text_h, body.w, body.h - text_h - 1.0 * k)
    thesee_meets_minotaur(pen, art)


def thesee_variant_back_form(pen: Pen) -> None:
    """The variant card's back."""
    card_back(pen, _("Variante Thésée"))


THESEE = Deck(
    slug="thesee",
    label=gettext_lazy("Cartes Thésée"),
    description=gettext_lazy("Dix cartes, une par couleur de prisonnier, au dos commun."),
    items=thesee_cards,
    front=thesee_front,
    back_form=thesee_back_form,
)

ARIANE = Deck(
    slug="ariane",
    label=gettext_lazy("Cartes Ariane"),
    description=gettext_lazy("Dix cartes de la variante Ariane : une pichenette de plus."),
    items=lambda: list(range(1, ARIANE_CARDS + 1)),
    front=ariane_front,
    back_form=ariane_back_form,
)

THESEE_VARIANT = Deck(
    slug="variante-thesee",
    label=gettext_lazy("Carte de la variante Thésée"),
    description=gettext_lazy(
        "Une carte à poser sur la table quand on joue avec la bille Thésée : sa "
        "mise en place, ce qu’elle fait au Minotaure et qui gagne alors."),
    items=lambda: [1],
    front=thesee_variant_front,
    back_form=thesee_variant_back_form,
)
