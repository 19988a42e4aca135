"""The box's fixed parts: the fiche cache, the tableau révélateur, the banknotes, the desk
stars and the star tokens that cover them."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cms.games.douze_coups import RULES, SPEC
from cms.games.spec import PALETTE

from ...draw import WHITE, Pen, star_points
from ...layout.rows import text_height
from ...sheets import Rect
from ...text import BOLD, REGULAR, amount, french
from ...units import to_mm
from ..base import Deck
from ..style import GOLD, GREY, INK, PAPER, back_pattern, numbered
from .fiches import AREAS, FICHE_SIZE
from .look import COLOUR, EMBLEM, HAIR, grouped

BANKNOTE_SIZE = (120.0, 60.0)
STAR_SIZE = (80.0, 80.0)  # the desk star and the token that covers it are the same square
# One desk star and one token a seat: as many as the largest table the rules allow.
SEATS = SPEC.players.maximum or SPEC.players.coverage
NOTE_COLOURS = {10_000: PALETTE["violet"], 5_000: PALETTE["bleu"], 2_000: PALETTE["vert"],
                1_000: PALETTE["orange"]}


# --- the fiche cache -----------------------------------------------------------------------

CACHE_DARK = "#7d0a1c"  # the cache's ground: dark enough that no fiche shows through it


def cache_steps() -> list[str]:
    """Return how to use the cache, step by step."""
    return [
        _("Posez la fiche cache sur la table et, dessus, la fiche de la manche face "
          "cachée."),
        _("Retournez-les ensemble : la fiche cache couvre la fiche, personne n’en voit rien."),
        _("Posez le tableau révélateur dessus, bord à bord. Coup par coup : grands volets "
          "ouverts, petits volets et volet du bas fermés. Étoile mystérieuse : tous les "
          "volets fermés."),
        _("Retirez délicatement la fiche cache en la faisant glisser."),
    ]


def cache_front(pen: Pen, _item: object) -> None:
    """Draw the fiche cache: opaque all over, its name and how to use it in the middle.

    It hides a fiche while the tableau révélateur is laid over it and its flaps set.
    """
    pen.background(CACHE_DARK)
    # Rows of the game's stars, staggered, every one whole inside the trim: the cache
    # reads as a cover, not as a fiche.
    step, radius = 16.0, 4.2
    columns = int((pen.w - 2 * radius) // step)
    rows = int((pen.h - 2 * radius) // (step * 0.75))
    left = (pen.w - columns * step) / 2
    bottom = (pen.h - rows * step * 0.75) / 2
    for row in range(rows + 1):
        shift = step / 2 if row % 2 else 0.0
        for column in range(columns + (0 if row % 2 else 1)):
            pen.polygon(star_points(left + shift + column * step, bottom + row * step * 0.75,
                                    radius, radius * 0.43), fill=COLOUR)
    safe = pen.safe
    panel = Rect(safe.x + 6, safe.y + safe.h * 0.18, safe.w - 12, safe.h * 0.64)
    pen.rect(panel, fill=PAPER, stroke=GOLD, width=0.8, radius=3)
    inner = panel.inset(7)
    title_h = 14.0
    pen.text(_("Fiche cache"), Rect(inner.x, inner.top - title_h, inner.w, title_h),
             size=24, font=BOLD, fill=COLOUR, align="centre", valign="middle", max_lines=1,
             label=_("titre"))
    steps = cache_steps()
    size, indent, radius = 11.0, 9.0, 3.2
    text_w = inner.w - indent
    heights = [max(text_height(step_text, REGULAR, size, text_w), 2 * radius)
               for step_text in steps]
    room = inner.h - title_h
    gap = max(2.0, (room - sum(heights)) / len(steps))
    top = inner.top - title_h - gap / 2
    for number, (step_text, height) in enumerate(zip(steps, heights, strict=True), start=1):
        line = to_mm(size)
        numbered(pen, number, inner.x + radius, top - line * 0.45, radius=radius,
                 colour=COLOUR)
        pen.text(step_text, Rect(inner.x + indent, top - height - HAIR, text_w, height + HAIR),
                 size=size, fill=INK, valign="top", label=_("consigne"))
        top -= height + gap


def cache_back(pen: Pen) -> None:
    """The cache's back: the fiches' back, so it is no lighter than the fiche it covers."""
    back_pattern(pen, colour=CACHE_DARK, title=_("Fiche cache"), emblem=EMBLEM)


# --- the tableau révélateur ----------------------------------------------------------------

FOLD_DASH = (0.5, 0.7)
LARGE_FLAP = "#d8334d"
SMALL_FLAP = "#a50c25"
CUT_DASH = (2.2, 1.2)


def flap(pen: Pen, rect: Rect, *, fold: str, cut: str = WHITE) -> None:
    """Draw a flap's cut lines dashed on three sides and its fold dotted on the fourth."""
    corners = {
        "bottom": (rect.x, rect.y, rect.right, rect.y),
        "top": (rect.x, rect.top, rect.right, rect.top),
        "left": (rect.x, rect.y, rect.x, rect.top),
        "right": (rect.right, rect.y, rect.right, rect.top),
    }
    for side, (x1, y1, x2, y2) in corners.items():
        if side == fold:
            pen.line(x1, y1, x2, y2, stroke=GOLD, width=0.55, dash=FOLD_DASH)
        else:
            pen.line(x1, y1, x2, y2, stroke=cut, width=0.35, dash=CUT_DASH)


def tableau_front(pen: Pen, _item: object) -> None:
    """Draw the cover: a window on the statement, 7 large and 7 small flaps, an answer flap."""
    areas = AREAS
    pen.background(COLOUR)
    header = areas.header
    pen.rect(header, fill=PAPER)
    pen.dashed_rect(header, stroke=INK, width=0.35, dash=CUT_DASH)
    title = _("Tableau révélateur")
    pen.centred(title, header.centre[0], header.top - 5, size=12, font=BOLD, fill=COLOUR)
    pen.text(_("Évidez cette fenêtre. Découpez les volets le long des tirets, pliez-les le "
               "long des pointillés dorés. Posez le tableau exactement sur une fiche « coup "
               "par coup » ou « étoile mystérieuse »."),
             Rect(header.x + 3, header.y + 1.5, header.w - 6, header.h - 10), size=8,
             min_size=6.5, fill=INK, align="centre", valign="middle", label=_("consigne"))
    for large in areas.large:
        pen.rect(large, fill=LARGE_FLAP)
    for small in areas.small:
        pen.rect(small, fill=SMALL_FLAP)
    for number, (large, small) in enumerate(zip(areas.large, areas.small, strict=True), 1):
        lx, ly = large.centre
        numbered(pen, number, lx, ly, radius=4.2, colour=GOLD, text_colour=COLOUR)
        sx, sy = small.centre
        numbered(pen, number, sx, sy, radius=3.0, colour=WHITE, text_colour=SMALL_FLAP)
        flap(pen, large, fold="left")
        flap(pen, small, fold="right")
    answer = areas.answer
    pen.rect(answer, fill="#fff1c9")
    ax, ay = answer.centre
    pen.centred(_("RÉPONSE"), ax, ay + 2.5, size=14, font=BOLD, fill=COLOUR)
    pen.centred(_("à soulever en secret"), ax, ay - 4.5, size=8, font=BOLD, fill=INK)
    flap(pen, answer, fold="bottom", cut=INK)
    pen.centred(_("grands volets"), areas.large[0].centre[0], areas.image.top + 2, size=6.5,
                font=BOLD, fill=WHITE)
    pen.centred(_("petits volets"), areas.small[0].centre[0], areas.image.top + 2, size=6.5,
                font=BOLD, fill=WHITE)


# --- banknotes -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Banknote:
    """One note of the box: its value and its number among the notes of that value."""

    value: int
    number: int  # 1 to the box's count of this value


def banknotes() -> list[Banknote]:
    """Return the box's notes, the biggest first."""
    counts = RULES.banknotes
    return [Banknote(value, n) for value in sorted(counts, reverse=True)
            for n in range(1, counts[value] + 1)]


NOTE_BORDER = 4.0  # mm of the note's colour around its frame


def note_frame(pen: Pen) -> Rect:
    """Return a note's frame: NOTE_BORDER inside the cut, more above and below when the
    note's identifier needs the bottom of the border (the frame stays centred)."""
    vertical = max(NOTE_BORDER, pen.safe.y + 0.8)
    return Rect(NOTE_BORDER, vertical, pen.w - 2 * NOTE_BORDER, pen.h - 2 * vertical)


def banknote_front(pen: Pen, note: Banknote) -> None:
    """Draw the amount in big letters on the note's colour, with the game's star."""
    colour = NOTE_COLOURS[note.value]
    pen.background(colour)
    inner = note_frame(pen)
    pen.rect(inner, fill=PAPER, stroke=GOLD, width=0.8, radius=3)
    pen.rect(inner.inset(1.5), stroke=colour, width=0.3, radius=2)
    label = amount(note.value)
    pen.text(label, Rect(inner.x + 22, inner.y + 9, inner.w - 26, inner.h - 18), size=34,
             min_size=12, font=BOLD, fill=colour, align="centre", valign="middle",
             label=_("montant"), french=False)
    star_x, star_y = inner.x + 12, inner.y + inner.h / 2
    pen.polygon(star_points(star_x, star_y, 9.5, 4.0), fill=colour, stroke=GOLD, width=0.6)
    pen.centred(EMBLEM, star_x, star_y - 0.4, size=9, font=BOLD, fill=WHITE)
    pen.centred(SPEC.name, inner.x + inner.w / 2 + 11, inner.top - 5, size=8, font=BOLD,
                fill=INK)
    pen.centred(_("Banque de Midi"), inner.x + inner.w / 2 + 11, inner.y + 5, size=7,
                font=REGULAR, fill=GREY)
    corner = grouped(note.value)
    for x, y in ((inner.x + 8, inner.top - 4.5), (inner.right - 8, inner.y + 4.5)):
        pen.centred(corner, x, y, size=7, font=BOLD, fill=colour)


def banknote_back_form(pen: Pen) -> None:
    """Draw what every note's back shares: the game's star, gold on red."""
    pen.background(COLOUR)
    inner = note_frame(pen)
    pen.rect(inner, stroke=GOLD, width=0.8, radius=3)
    cx, cy = inner.centre
    pen.polygon(star_points(cx, cy, min(22.0, inner.h * 0.47), min(9.0, inner.h * 0.19)),
                fill=GOLD)
    pen.centred(EMBLEM, cx, cy - 0.5, size=16, font=BOLD, fill=COLOUR)


def banknote_back(pen: Pen, note: Banknote) -> None:
    """Repeat the value on the back, so a note counts the same whichever side is up."""
    inner = note_frame(pen)
    label = amount(note.value)
    pen.centred(label, inner.x + 18, inner.top - 5, size=11, font=BOLD, fill=WHITE)
    pen.centred(label, inner.right - 18, inner.y + 5, size=11, font=BOLD, fill=WHITE)


# --- desk stars and star tokens ------------------------------------------------------------


def star_face(pen: Pen, colour: str, tint: str, caption: str = "") -> None:
    """Draw a big star of one colour on a light square of the same hue."""
    pen.background(tint)
    cx, cy = pen.box.centre
    outer = pen.w * 0.37
    lift = 3.5 if caption else 0.0
    pen.polygon(star_points(cx, cy + lift, outer, outer * 0.42), fill=colour, stroke=WHITE,
                width=1.2)
    pen.centred(EMBLEM, cx, cy + lift - 1, size=22, font=BOLD, fill=WHITE)
    if caption:
        pen.centred(french(caption), cx, pen.safe.y + 2.5, size=9, font=BOLD, fill=colour)


def desk_star_front(pen: Pen, _number: int) -> None:
    star_face(pen, PALETTE["vert"], "#dff1e3")


def desk_star_back(pen: Pen) -> None:
    star_face(pen, PALETTE["violet"], "#ebe2f3")


def token_front(pen: Pen, _number: int) -> None:
    star_face(pen, PALETTE["orange"], "#fdebd6", _("1re erreur"))


def token_back(pen: Pen) -> None:
    star_face(pen, PALETTE["rouge"], "#f9dcdc", _("2e erreur : duel !"))


def one_per_player() -> range:
    """Return the numbers of the box's stars or tokens: one a seat."""
    return range(1, SEATS + 1)


TABLEAU_REVELATEUR = Deck(
    slug="tableau-revelateur",
    label=gettext_lazy("Tableau révélateur"),
    description=gettext_lazy("Le cache à volets posé sur les fiches : 7 grands volets, 7 "
                             "petits et le volet de la réponse. Recto seul."),
    items=lambda: ["tableau-revelateur"],
    front=tableau_front,
    size=FICHE_SIZE,
    duplex=False,
)

FICHE_CACHE = Deck(
    slug="fiche-cache",
    label=gettext_lazy("Fiche cache"),
    description=gettext_lazy("Opaque, à la taille des fiches : elle couvre la fiche de la "
                             "manche pendant qu’on pose le tableau révélateur et règle ses "
                             "volets, puis on la retire."),
    items=lambda: ["fiche-cache"],
    front=cache_front,
    back_form=cache_back,
    size=FICHE_SIZE,
)

BILLETS = Deck(
    slug="billets",
    code="BIL",
    label=gettext_lazy("Billets"),
    description=gettext_lazy("Les billets de la boîte, une couleur par valeur."),
    items=banknotes,
    front=banknote_front,
    back=banknote_back,
    back_form=banknote_back_form,
    size=BANKNOTE_SIZE,
)

ETOILES_PUPITRE = Deck(
    slug="etoiles-pupitre",
    label=gettext_lazy("Étoiles pupitres"),
    description=gettext_lazy("Une par joueur : verte au recto, violette au verso."),
    items=one_per_player,
    front=desk_star_front,
    back_form=desk_star_back,
    size=STAR_SIZE,
)

JETONS_ETOILE = Deck(
    slug="jetons-etoile",
    label=gettext_lazy("Jetons étoile"),
    description=gettext_lazy("Une par joueur : orange au recto (1re erreur), rouge au verso "
                             "(2e erreur) ; il couvre l’étoile pupitre."),
    items=one_per_player,
    front=token_front,
    back_form=token_back,
    size=STAR_SIZE,
)
