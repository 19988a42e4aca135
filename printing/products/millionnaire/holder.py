"""The millionnaire's porte-carte: the game master's card holder, to cut, fold and glue.

The game master slides the question card into a holder, reads it, then turns it to the
players; the right answer, on the card's back, stays hidden until the card comes out.
Printed flat on one sheet: a front with a window over the question, a back folded behind
it along the bottom, two tabs on the front's sides glued inside the back, the top open.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from itertools import pairwise
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cms.games.millionnaire import SPEC

from ...draw import BLACK, WHITE, Path, Pen
from ...sheets import CARD_SIZES, Rect
from ...text import BOLD
from ..base import Page, Sheets
from ..style import GOLD, GREY, LIGHT, PAGE_MARGIN
from .look import COLOUR, line_mm, lozenge

if TYPE_CHECKING:
    from ...render import PrintOptions

HOLDER_PLAY = 0.75  # mm between the card and each side of the pocket, and above it
HOLDER_TAB = 8.0  # a side tab's width: it lies inside the holder, along the pocket
HOLDER_CHAMFER = 3.0  # the tabs' ends slant, so they fold without catching
WINDOW_LIP = 2.5  # the front kept round the window, that holds the card in
CUT_WIDTH = 0.3
FOLD_DASH = (2.0, 1.3)


@dataclass(frozen=True)
class HolderNet:
    """The porte-carte laid flat: its parts in mm on the page, worked out from the card."""

    card: tuple[float, float]
    front: Rect  # the side with the window; its bottom edge is the fold
    back: Rect  # folded up behind the front, so drawn upside down
    pocket: Rect  # where the card stands on the front, between the tabs
    window: Rect
    tabs: tuple[tuple[tuple[float, float], ...], ...]  # left and right, fold edge first
    notch: tuple[float, float, float]  # in the back's free edge: centre x, y and radius

    @property
    def extent(self) -> Rect:
        """Return the rectangle the whole net takes, tabs included."""
        return Rect(self.front.x - HOLDER_TAB, self.back.y, self.front.w + 2 * HOLDER_TAB,
                    self.front.top - self.back.y)


def holder_net(card: tuple[float, float], left: float, top: float) -> HolderNet:
    """Return the holder for a card of `card` (w, h) mm, its tabs' left edge at `left`."""
    card_w, card_h = card
    pocket_w = card_w + 2 * HOLDER_PLAY
    panel_w = pocket_w + 2 * HOLDER_TAB
    panel_h = card_h + HOLDER_PLAY
    front = Rect(left + HOLDER_TAB, top - panel_h, panel_w, panel_h)
    back = Rect(front.x, front.y - panel_h, panel_w, panel_h)
    pocket = Rect(front.x + HOLDER_TAB, front.y, pocket_w, panel_h)
    tabs = tuple(
        ((edge, front.y), (edge + side * HOLDER_TAB, front.y + HOLDER_CHAMFER),
         (edge + side * HOLDER_TAB, front.top - HOLDER_CHAMFER), (edge, front.top))
        for edge, side in ((front.x, -1), (front.right, 1)))
    # A thumb pushes the card out through the notch; it shows only the top of the card's
    # back, where no answer is printed.
    notch = (back.centre[0], back.y, min(9.0, card_w / 7))
    return HolderNet(card, front, back, pocket, pocket.inset(WINDOW_LIP), tabs, notch)


def card_dimensions(card: tuple[float, float]) -> str:
    """Return a card's size as printed: « 63 × 88 mm »."""
    return _("%(w)s × %(h)s mm") % {"w": f"{card[0]:g}", "h": f"{card[1]:g}"}


HOLDER_STEPS = (
    gettext_lazy("Imprimez à 100 %, sur du papier épais (160 g/m² ou plus)."),
    gettext_lazy("Découpez le long des traits pleins, la fenêtre et l’encoche comprises."),
    gettext_lazy("Pliez vers l’arrière les deux rabats, puis le dos le long du pointillé du bas."),
    gettext_lazy("Encollez les rabats et pressez le dos dessus. Le haut reste ouvert."),
)
HOLDER_USE = gettext_lazy(
    "Le maître de jeu glisse la carte par le haut, la question vers lui, sans "
    "regarder son dos. Il lit la question et les quatre réponses, puis tourne "
    "le porte-carte vers les joueurs. Pour annoncer la bonne réponse, il sort la "
    "carte en la poussant par l’encoche.")


def holder_page(pen: Pen, *, card: tuple[float, float]) -> None:
    """The porte-carte for `card` (w, h) mm: the net on the left, how to make it on the right."""
    page = pen.box.inset(PAGE_MARGIN)
    title = Rect(page.x, page.top - 10, page.w, 10)
    pen.text(_("Porte-carte"), Rect(title.x, title.y, title.w * 0.5, title.h), size=20,
             font=BOLD, fill=COLOUR, valign="middle", label=_("titre"))
    pen.text(SPEC.name, Rect(title.x + title.w * 0.5, title.y, title.w * 0.5, title.h),
             size=12, font=BOLD, fill=GOLD, align="right", valign="middle", label=_("jeu"))
    net = holder_net(card, page.x, title.y - 5)
    draw_holder(pen, net)
    column = Rect(net.extent.right + 8, page.y, page.right - net.extent.right - 8,
                  title.y - 5 - page.y)
    holder_instructions(pen, net, column)


def draw_holder(pen: Pen, net: HolderNet) -> None:
    """The net: coloured panels, tabs to glue, then cut lines solid and fold lines dashed."""
    front, back, window = net.front, net.back, net.window
    pen.rect(front, fill=COLOUR)
    pen.rect(window.outset(1.2), stroke=GOLD, width=0.3)
    pen.rect(window, fill=WHITE)
    pen.text(_("fenêtre à découper"), window.inset(4), size=9, fill=GREY,
             align="centre", valign="middle", label=_("fenêtre"))
    for tab in net.tabs:
        pen.polygon(list(tab), fill=LIGHT)
        glue_label(pen, tab)
    # The back is folded up behind the front: drawn upside down, it reads upright once the
    # holder is turned round.
    with pen.transformed(rotate=180, about=back.centre):
        holder_back(pen, back, net.notch[2])
    x, y, radius = net.notch
    pen.circle(x, y, radius, fill=WHITE)
    # Cut lines, edge by edge: the front's top, the tabs, the back's sides and free edge.
    cut = partial(pen.line, stroke=BLACK, width=CUT_WIDTH)
    cut(front.x, front.top, front.right, front.top)
    for tab in net.tabs:
        for (x1, y1), (x2, y2) in pairwise(tab):
            cut(x1, y1, x2, y2)
    for edge in (back.x, back.right):
        cut(edge, back.y, edge, back.top)
    cut(back.x, back.y, x - radius, back.y)
    cut(x + radius, back.y, back.right, back.y)
    pen.shape(Path().arc(x, y, radius, 0, 180), stroke=BLACK, width=CUT_WIDTH)
    pen.rect(window, stroke=BLACK, width=CUT_WIDTH)
    fold = partial(pen.line, stroke=GOLD, width=0.4, dash=FOLD_DASH)
    for edge in (front.x, front.right):
        fold(edge, front.y, edge, front.top)
    fold(front.x, front.y, front.right, front.y)


def glue_label(pen: Pen, tab: tuple[tuple[float, float], ...]) -> None:
    """« colle » along a tab, reading upwards."""
    (x0, y0), (x1, _y1), _corner, (_x3, y3) = tab
    with pen.transformed((x0 + x1) / 2, (y0 + y3) / 2, rotate=90):
        pen.centred(_("colle"), 0, 0, size=8, font=BOLD, fill=GREY)


def holder_back(pen: Pen, back: Rect, notch: float) -> None:
    """The back as the holder shows it: the game's name, and where the answer hides."""
    pen.rect(back, fill=COLOUR)
    inner = back.inset(4.0)
    pen.rect(inner, stroke=GOLD, width=0.3, radius=2)
    text = inner.inset(3.0)
    text = Rect(text.x, text.y, text.w, text.h - notch)  # clear of the notch on top
    cx, cy = text.centre
    k = back.w / 80.0  # text sizes follow the back's width, set for a poker card's holder
    box_w, box_h = text.w, min(text.h * 0.3, 22 * k)
    pen.polygon(lozenge(cx, cy + box_h * 0.3, box_w, box_h), fill=COLOUR, stroke=GOLD,
                width=0.6)
    pen.text(SPEC.name, Rect(cx - box_w / 2 + box_h / 2, cy + box_h * 0.3 - box_h / 2 + 1,
                             box_w - box_h, box_h - 2),
             size=12 * k, font=BOLD, fill=WHITE, align="centre", valign="middle",
             label=_("jeu"))
    pen.text(_("Porte-carte"), Rect(text.x, cy - box_h * 0.35 - 8 * k, text.w, 7 * k),
             size=11 * k, font=BOLD, fill=GOLD, align="centre", valign="middle",
             label=_("titre"))
    pen.text(_("La bonne réponse est au dos de la carte, de ce côté."),
             Rect(text.x, text.y, text.w, 12 * k), size=8 * k, fill=WHITE, align="centre",
             valign="bottom", label=_("consigne"))


def holder_instructions(pen: Pen, net: HolderNet, column: Rect) -> None:
    """The card size, the steps, a legend of the lines, and how the holder is used."""
    top = column.top
    pen.text(_("Pour les cartes de %(size)s") % {"size": card_dimensions(net.card)},
             Rect(column.x, top - 7, column.w, 7), size=11, font=BOLD, fill=COLOUR,
             valign="middle", label=_("format"))
    top -= 10
    for number, step in enumerate(HOLDER_STEPS, start=1):
        pen.circle(column.x + 3, top - 3, 3, fill=COLOUR)
        pen.centred(str(number), column.x + 3, top - 3, size=9, font=BOLD, fill=GOLD)
        fitted = pen.text(str(step), Rect(column.x + 8, top - 24, column.w - 8, 24), size=9.5,
                          fill=BLACK, label=_("consigne"))
        used = line_mm(fitted.size, len(fitted.lines)) if fitted else 6
        top -= max(used, 6) + 3.5
    top -= 2
    legend = (("cut", _("couper")), ("fold", _("plier vers l’arrière")),
              ("glue", _("encoller")))
    for kind, label in legend:
        y = top - 3
        if kind == "cut":
            pen.line(column.x, y, column.x + 12, y, stroke=BLACK, width=CUT_WIDTH)
        elif kind == "fold":
            pen.rect(Rect(column.x, y - 2, 12, 4), fill=COLOUR)
            pen.line(column.x, y, column.x + 12, y, stroke=GOLD, width=0.4, dash=FOLD_DASH)
        else:
            pen.rect(Rect(column.x, y - 2, 12, 4), fill=LIGHT)
        pen.text(str(label), Rect(column.x + 15, y - 3, column.w - 15, 6), size=9,
                 fill=BLACK, valign="middle", label=_("légende"))
        top -= 7
    top -= 4
    pen.text(_("En jeu"), Rect(column.x, top - 6, column.w, 6), size=11, font=BOLD,
             fill=COLOUR, valign="middle", label=_("titre"))
    top -= 8
    fitted = pen.text(str(HOLDER_USE), Rect(column.x, column.y, column.w, top - column.y),
                      size=9.5, fill=BLACK, label=_("consigne"))
    top -= (line_mm(fitted.size, len(fitted.lines)) if fitted else 0) + 8
    picture = Rect(column.x, column.y, column.w, top - column.y)
    if picture.h >= 40:
        holder_in_use(pen, net, picture)


def holder_in_use(pen: Pen, net: HolderNet, area: Rect) -> None:
    """The holder once made, a card going in, question first: what the maker aims at.

    Drawn small at the top of `area`, its caption under it.
    """
    front = net.front
    card_w, card_h = net.card
    out = card_h * 0.3  # how much of the card still stands above the holder
    k = min(0.45, area.w * 0.6 / front.w, (area.h - 14) / (front.h + out))
    holder = Rect(area.centre[0] - front.w * k / 2, area.top - (front.h + out) * k - 6,
                  front.w * k, front.h * k)
    card = Rect(area.centre[0] - card_w * k / 2, holder.y + out * k, card_w * k, card_h * k)
    arrow_x, tip = card.centre[0], card.top + 1.0
    pen.line(arrow_x, tip + 5, arrow_x, tip + 1.5, stroke=GOLD, width=0.6)
    pen.polygon([(arrow_x - 1.5, tip + 2.2), (arrow_x + 1.5, tip + 2.2), (arrow_x, tip)],
                fill=GOLD)
    pen.rect(card, fill=WHITE, stroke=GREY, width=0.2, radius=0.6)
    pen.rect(Rect(card.x, card.top - card.h * 0.1, card.w, card.h * 0.1), fill=COLOUR)
    pen.rect(holder, fill=COLOUR)
    window = Rect(holder.x + (net.window.x - front.x) * k, holder.y + (net.window.y - front.y) * k,
                  net.window.w * k, net.window.h * k)
    pen.rect(window, fill=WHITE)
    # Seen through the window: the card's question, then its four propositions.
    lower = card.y + card.h * 0.05
    row_h = card.h * 0.07
    for row in range(4):
        pen.rect(Rect(card.x + 1.5, lower + row * row_h * 1.3, card.w - 3, row_h), stroke=COLOUR,
                 width=0.2, radius=row_h / 2)
    question_y = lower + 4 * row_h * 1.3 + card.h * 0.06
    for line in range(3):
        y = question_y + line * card.h * 0.05
        if y < window.top - 1:
            pen.line(card.x + 1.5, y, card.right - 1.5 - line * card.w * 0.15, y, stroke=GREY,
                     width=0.4)
    pen.text(_("Monté : la carte entre par le haut, la question dans la fenêtre."),
             Rect(area.x, holder.y - 8, area.w, 6), size=8, fill=GREY, align="centre",
             valign="middle", label=_("légende"))


def holder_pages(options: PrintOptions, items: object) -> list[Page]:
    """The porte-carte for the card size the maker chose, on one page."""
    return [Page(draw=partial(holder_page, card=CARD_SIZES[options.card]))]


CARD_HOLDER = Sheets(
    slug="porte-carte",
    label=gettext_lazy("Porte-carte"),
    description=gettext_lazy(
        "Le porte-carte du maître de jeu, à découper, plier et coller : la "
        "question se lit par la fenêtre, la bonne réponse reste cachée au dos de "
        "la carte. À la taille des cartes choisie."),
    pages=holder_pages,
)
