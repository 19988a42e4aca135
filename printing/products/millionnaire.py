"""Printable products of Qui veut gagner des millions ?."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import pairwise

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from reportlab.lib.units import mm

from cms.games.millionnaire import JOKERS, LADDER, SPEC
from cms.games.spec import PALETTE, LadderStep

from ..draw import BLACK, WHITE, MeasurePen, Path, Pen
from ..sheets import CARD_SIZES, Rect
from ..text import BOLD, CONDENSED, CONDENSED_BOLD, LEADING, MIN_SIZE, amount, width
from .base import Deck, Page, Sheets
from .style import (
    GAME_COLOURS,
    GOLD,
    GREY,
    LIGHT,
    PAGE_MARGIN,
    back_pattern,
    card_band,
    card_body,
    header_height,
    ink_on,
    scale,
)

GAME = "millionnaire"
# "palier" is both a ladder step and a safe level; printed alone, it means the safe level.
SAFE_LEVEL = pgettext_lazy("niveau garanti", "palier")
NAVY = GAME_COLOURS[GAME]
LETTERS = "ABCD"


@dataclass(frozen=True, slots=True)  # one a question: a deck holds thousands
class LadderCard:
    """One ladder question as its card prints it."""

    ref: str
    step: int
    amount: int
    safe: bool
    text: str
    propositions: tuple[str, ...]
    right: int  # index of the right proposition, -1 when there is none


def ladder_card(content, question) -> LadderCard:
    rows = content.propositions.get(question.pk, [])
    flags = [row.is_right for row in rows]
    right = flags.index(True) if True in flags else -1
    step = LADDER[question.step - 1] if question.step else None
    return LadderCard(
        ref=question.ref,
        step=question.step or 0,
        amount=step.amount if step else 0,
        safe=bool(step and step.safe),
        text=question.text,
        propositions=tuple([row.text for row in rows]),
        right=right,
    )


def step_title(card: LadderCard) -> str:
    return _("Question n° %(n)s") % {"n": card.step}


QUESTION_LABEL = gettext_lazy("question")
RIGHT_LABEL = gettext_lazy("bonne réponse")


def proposition_labels() -> tuple[str, ...]:
    """« proposition A », …: made when a card is drawn, in the language then active."""
    return tuple(_("proposition %(letter)s") % {"letter": letter} for letter in LETTERS)


POINTS_PER_MM = mm  # ReportLab's mm is the number of points in a millimetre
BAND_PAD = 0.4  # mm between a band's text and the band's inner edge


def line_mm(size: float, lines: int = 1) -> float:
    """Return the height in mm that `lines` lines of `size` pt take once fitted."""
    return (size * LEADING * (lines - 1) + size) / POINTS_PER_MM


def at_least_readable(size: float) -> float:
    """Return `size`, raised to the smallest readable size if a small card scaled it under."""
    return max(size, MIN_SIZE)


# Some capitals reach a little past their advance (a bold J to the left, an accent above):
# text set against the safe zone's edge keeps this much more room for them.
OVERHANG = 0.3


def header_text_box(pen: Pen) -> Rect:
    """Return where the top band's text goes: the part of the band inside the safe zone."""
    safe = pen.safe.inset(OVERHANG)
    bottom = pen.h - header_height(pen) + BAND_PAD
    return Rect(safe.x, bottom, safe.w, safe.top - bottom)


def footer_text_box(pen: Pen) -> Rect:
    """Return where the bottom band's text goes: the part of the band inside the safe zone."""
    safe = pen.safe.inset(OVERHANG)
    return Rect(safe.x, safe.y, safe.w, header_height(pen) - BAND_PAD - safe.y)


def band_title(pen: Pen) -> float:
    """Return the size of a band's text on this face: 9 pt on a poker card."""
    return at_least_readable(9 * min(scale(pen), 1.3))


@dataclass(frozen=True)
class CardLayout:
    """Where a question card's parts go, for one card size: worked out once, then reused."""

    k: float  # text scale next to a poker card
    rows: tuple[Rect, ...]  # the four proposition boxes, top to bottom
    letter_size: float
    question: Rect
    propositions: tuple[Rect, ...]  # the text inside each box
    answer: Rect  # on the back, under the letter
    centre: tuple[float, float]
    ref: Rect  # on the back, at the bottom of the frame


@lru_cache(maxsize=16)
def card_layout(w: float, h: float, numbered: bool = False) -> CardLayout:
    pen = MeasurePen(w, h, numbered=numbered)
    k = scale(pen)
    body = card_body(pen)
    gap = 1.2 * k
    row_h = min(9.0 * k, body.h * 0.13)
    rows = tuple(Rect(body.x, body.y + (3 - i) * (row_h + gap), body.w, row_h)
                 for i in range(len(LETTERS)))
    # The letter sits in the round end of its box; the text starts after it and keeps
    # clear of the other round end by as much as the box's curve needs.
    text_x = row_h * 1.05
    safe = pen.safe
    # The frame rises with the strip a numbered face keeps for its identifier.
    reserve = max(0.0, safe.y - (pen.h - safe.top))
    frame = pen.box.inset(pen.w * BACK_FRAME + BACK_FRAME_GAP)
    ref = Rect(frame.x + 1, max(safe.y, frame.y + reserve + 0.8), frame.w - 2,
               line_mm(MIN_SIZE) + 0.4)
    inner = pen.box.inset(pen.w * 0.12)
    cx, cy = pen.box.centre
    answer_bottom = max(inner.y + 6 * k, ref.top + 1)
    return CardLayout(
        k=k,
        rows=rows,
        letter_size=at_least_readable(8 * k),
        question=Rect(body.x, rows[0].top + 2, body.w, body.top - rows[0].top - 2),
        propositions=tuple(Rect(box.x + text_x, box.y + 0.5, box.w - text_x - box.h * 0.35,
                                box.h - 1) for box in rows),
        answer=Rect(inner.x, answer_bottom, inner.w, cy - 8 * k - answer_bottom),
        centre=(cx, cy),
        ref=ref,
    )


# style.back_pattern's frame: a white line pen.w * 0.07 inside the trim (above a numbered
# face's identifier), a gold one 1.4 mm further in. What sits at the bottom of a back stays
# inside both.
BACK_FRAME = 0.07
BACK_FRAME_GAP = 1.4


def layout_of(pen: Pen) -> CardLayout:
    return card_layout(pen.w, pen.h, pen.numbered)


def question_front_form(pen: Pen) -> None:
    """What every question card shares: paper, band, the four lettered boxes."""
    card_band(pen, colour=NAVY)
    layout = layout_of(pen)
    for letter, box in zip(LETTERS, layout.rows, strict=True):
        pen.rect(box, stroke=NAVY, width=0.35, radius=box.h / 2)
        pen.centred(letter, box.x + box.h * 0.55, box.y + box.h / 2, size=layout.letter_size,
                    font=BOLD, fill=GOLD)


def question_front(pen: Pen, card: LadderCard) -> None:
    """The step, the question and its four propositions; the answer is on the back."""
    layout = layout_of(pen)
    pen.reuse(f"millionnaire-front-step-{card.step}", partial(front_header, card=card))
    pen.text(card.text, layout.question, size=10.5 * layout.k, valign="middle",
             label=QUESTION_LABEL)
    for rect, proposition, label in zip(layout.propositions, card.propositions,
                                        proposition_labels(), strict=False):
        pen.text(proposition, rect, size=8.5 * layout.k, valign="middle", label=label)


def front_header(pen: Pen, *, card: LadderCard) -> None:
    """The step and its amount in the band: the same on every card of that step."""
    box = header_text_box(pen)
    size = band_title(pen)
    title = box
    if card.amount:
        value = amount(card.amount)
        small = at_least_readable(size * 0.85)
        value_w = width(value, BOLD, small) / POINTS_PER_MM
        pen.text(value, Rect(box.right - value_w - 0.2, box.y, value_w + 0.2, box.h),
                 size=small, font=BOLD, fill=GOLD if card.safe else WHITE, align="right",
                 valign="middle", french=False, label=_("montant"))
        title = Rect(box.x, box.y, box.w - value_w - 1.5, box.h)
    pen.text(step_title(card), title, size=size, font=BOLD, fill=WHITE, valign="middle",
             label=_("numéro de la question"))


def back_header(pen: Pen, *, card: LadderCard) -> None:
    """The step and its amount on the back: the same on every card of that step."""
    k = scale(pen)
    inner = pen.box.inset(pen.w * 0.12)
    title_size = at_least_readable(10 * k)
    pen.text(step_title(card), Rect(inner.x, inner.top - 9 * k, inner.w, 6 * k),
             size=title_size, font=BOLD, fill=WHITE, align="centre", valign="middle",
             label=_("numéro de la question"))
    if card.amount:
        label = amount(card.amount)
        if card.safe:
            label = f"{label} · {SAFE_LEVEL}"
        pen.text(label, Rect(inner.x, inner.top - 18 * k, inner.w, 7 * k),
                 size=at_least_readable(11 * k), font=BOLD, fill=GOLD, align="centre",
                 valign="middle", french=False, label=_("montant"))


def question_back_form(pen: Pen) -> None:
    back_pattern(pen, colour=NAVY, title="")
    k = scale(pen)
    cx, cy = pen.box.centre
    pen.circle(cx, cy + 2 * k, 8 * k, fill=GOLD)


def question_back(pen: Pen, card: LadderCard) -> None:
    """The step, its amount and the right answer, behind the question."""
    layout = layout_of(pen)
    cx, cy = layout.centre
    pen.reuse(f"millionnaire-back-step-{card.step}", partial(back_header, card=card))
    if card.right >= 0:
        letter = LETTERS[card.right]
        pen.reuse(f"millionnaire-back-letter-{letter}", partial(
            back_letter, letter=letter, x=cx, y=cy + 2 * layout.k, size=24 * layout.k))
        pen.text(card.propositions[card.right], layout.answer, size=10 * layout.k,
                 font=BOLD, fill=WHITE, align="centre", valign="middle", label=RIGHT_LABEL)
    pen.text(card.ref, layout.ref, size=MIN_SIZE, fill=WHITE, align="centre",
             valign="middle", french=False, label=_("référence"))


def back_letter(pen: Pen, *, letter: str, x: float, y: float, size: float) -> None:
    pen.centred(letter, x, y, size=size, font=BOLD, fill=NAVY)


QUESTION_CARDS = Deck(
    slug="questions",
    code="MIL",
    label=gettext_lazy("Cartes questions"),
    description=gettext_lazy("Une carte par question de l’échelle ; au dos, le palier et la bonne "
                             "réponse, exactement derrière la question."),
    kind="echelle",
    to_item=ladder_card,
    front=question_front,
    back=question_back,
    back_form=question_back_form,
    front_form=question_front_form,
)

# --- the players' sets: one colour and one number per seat --------------------------------

# The rules set no maximum: sets are printed for a table of eight, the most one pad holds.
TABLE_SIZE = 8
PLAYER_COLOURS = tuple((name, PALETTE[name]) for name in (
    "rouge", "orange", "jaune", "vert", "turquoise", "bleu", "violet", "rose"))


def player_label(player: int) -> str:
    return _("Joueur %(n)s") % {"n": player}


# --- answer cards A, B, C, D --------------------------------------------------------------


@dataclass(frozen=True)
class AnswerCard:
    """One of a player's four answer cards."""

    player: int
    colour_name: str
    colour: str
    letter: str


def answer_cards() -> list[AnswerCard]:
    return [AnswerCard(player, name, colour, letter)
            for player, (name, colour) in enumerate(PLAYER_COLOURS, start=1)
            for letter in LETTERS]


def lozenge(cx: float, cy: float, w: float, h: float) -> list[tuple[float, float]]:
    """Return the corners of the show's answer box: a hexagon pointed left and right."""
    tip = h / 2
    return [(cx - w / 2, cy), (cx - w / 2 + tip, cy + h / 2), (cx + w / 2 - tip, cy + h / 2),
            (cx + w / 2, cy), (cx + w / 2 - tip, cy - h / 2), (cx - w / 2 + tip, cy - h / 2)]


def answer_front(pen: Pen, card: AnswerCard) -> None:
    """A big letter in the show's lozenge, framed by the player's colour and number."""
    k = scale(pen)
    band = header_height(pen)
    ink = ink_on(card.colour, dark=NAVY)
    pen.background(WHITE)
    pen.rect(Rect(-pen.bleed, pen.h - band, pen.w + 2 * pen.bleed, band + pen.bleed),
             fill=card.colour)
    pen.rect(Rect(-pen.bleed, -pen.bleed, pen.w + 2 * pen.bleed, band + pen.bleed),
             fill=card.colour)
    head = header_text_box(pen)
    size = band_title(pen)
    small = at_least_readable(size * 0.85)
    colour_name = Rect(head.x + head.w * 0.55, head.y, head.w * 0.45, head.h)
    pen.text(player_label(card.player), Rect(head.x, head.y, head.w * 0.55 - 1, head.h),
             size=size, font=BOLD, fill=ink, valign="middle", label=_("joueur"))
    pen.text(card.colour_name, colour_name, size=small, font=BOLD, fill=ink, align="right",
             valign="middle", label=_("couleur"))
    pen.text(_("Réponse %(letter)s") % {"letter": card.letter}, footer_text_box(pen),
             size=small, font=BOLD, fill=ink, align="centre", valign="middle",
             label=_("réponse"))
    cx, cy = pen.box.centre
    box_w, box_h = pen.w * 0.86, min(pen.h - 2 * band - 8 * k, pen.w * 0.62)
    pen.polygon(lozenge(cx, cy, box_w, box_h), fill=NAVY, stroke=GOLD, width=0.8 * k)
    # In points: the capital letter stands about half as tall as the lozenge.
    pen.centred(card.letter, cx, cy, size=box_h * mm * 0.7, font=BOLD, fill=GOLD)


def answer_back_form(pen: Pen) -> None:
    back_pattern(pen, colour=NAVY, title=_("Carte réponse"), emblem="?")


ANSWER_CARDS = Deck(
    slug="reponses",
    label=gettext_lazy("Cartes réponses A, B, C, D"),
    description=gettext_lazy("Quatre cartes par joueur, pour une table de huit : une couleur et un "
                             "numéro par joueur, le même dos pour toutes."),
    items=answer_cards,
    front=answer_front,
    back_form=answer_back_form,
)


# --- joker tokens ---------------------------------------------------------------------------

TOKEN_SIZE = (30.0, 30.0)
STRUCK = "#b4b4b4"  # the cross over a used joker: visible, yet quieter than its name


@dataclass(frozen=True)
class JokerToken:
    """One joker of one player: a round token, flipped to « utilisé » once played."""

    player: int
    colour_name: str
    colour: str
    joker: str  # a key of cms.games.millionnaire.JOKERS
    label: str


def joker_name(label) -> str:
    """Return a joker's name as it wraps well: no line ends on « à » or « un », and the
    last two words stay together (« Coup de fil / à un ami »)."""
    words = str(label).split()
    joined = words[:1]
    for index, word in enumerate(words[1:], start=1):
        if len(words[index - 1]) <= 2 or index == len(words) - 1:
            joined[-1] += "\u00a0" + word
        else:
            joined.append(word)
    return " ".join(joined)


def joker_tokens() -> list[JokerToken]:
    return [JokerToken(player, name, colour, joker, joker_name(label))
            for player, (name, colour) in enumerate(PLAYER_COLOURS, start=1)
            for joker, label in JOKERS.items()]


def joker_icon(pen: Pen, joker: str, cx: float, cy: float, size: float,
               fill: str = GOLD) -> None:
    """Draw a joker's picture centred on (cx, cy), `size` mm wide."""
    if joker == "cinquante":
        label = str(JOKERS[joker])
        pen.centred(label, cx, cy, size=size * mm / width(label, BOLD, 1), font=BOLD,
                    fill=fill)
    elif joker == "public":
        # The audience's vote: four bars, one well above the others.
        bar = size / 6
        for i, share in enumerate((0.35, 1.0, 0.55, 0.2)):
            x = cx - size / 2 + bar * 0.5 + i * bar * 1.4
            pen.rect(Rect(x, cy - size * 0.35, bar, size * 0.7 * share), fill=fill)
        pen.line(cx - size / 2, cy - size * 0.35, cx + size / 2, cy - size * 0.35,
                 stroke=fill, width=size * 0.04)
    else:
        # An old desk telephone: a body with its dial, the handset resting on top.
        pen.polygon([(cx - size * 0.42, cy - size * 0.4), (cx + size * 0.42, cy - size * 0.4),
                     (cx + size * 0.26, cy + size * 0.08), (cx - size * 0.26, cy + size * 0.08)],
                    fill=fill)
        pen.circle(cx, cy - size * 0.16, size * 0.13, fill=NAVY)
        pen.circle(cx, cy - size * 0.16, size * 0.04, fill=fill)
        left, right, base = cx - size * 0.36, cx + size * 0.36, cy + size * 0.2
        handset = Path().move_to(left, base).curve_to(
            cx - size * 0.2, cy + size * 0.52, cx + size * 0.2, cy + size * 0.52, right, base)
        pen.shape(handset, stroke=fill, width=size * 0.13, cap="round")
        for x in (left, right):
            pen.rect(Rect(x - size * 0.13, base - size * 0.08, size * 0.26, size * 0.13),
                     fill=fill, radius=size * 0.04)


@dataclass(frozen=True)
class TokenLayout:
    """Where a round token's parts go: all its text inside the circle SAFE_INSET from the cut."""

    cx: float
    cy: float
    radius: float  # the coloured ring's outer edge
    inner: float  # the navy disc inside the ring
    text_radius: float  # text stays inside this circle
    seat: tuple[float, float, float]  # the player's badge: x, y, radius
    icon: tuple[float, float, float]  # the joker's picture: x, y, width
    name: Rect  # the joker's name under the picture


SEAT_SIZE = 8.0  # pt: the player's number on its badge


def token_layout(pen: Pen) -> TokenLayout:
    cx, cy = pen.box.centre
    radius = min(pen.w, pen.h) / 2 - 0.8
    inner = radius * 0.81
    safe = pen.safe
    text_radius = safe.w / 2  # the cut is a circle: text keeps SAFE_INSET inside it too
    badge = SEAT_SIZE / POINTS_PER_MM * 0.62  # the badge's radius: its digit fills it
    seat_y = cy + text_radius - badge - 1.2
    # The name takes up to two lines just under the centre, where the circle is still wide;
    # the picture fills what is left between the name and the badge.
    name_h = line_mm(MIN_SIZE, 2) + 0.4
    name_y = max(cy - 2.6 - name_h, safe.y)
    half = math.sqrt(max(text_radius ** 2 - (cy - name_y) ** 2, 0.0))
    name = Rect(cx - half, name_y, 2 * half, name_h)
    room = seat_y - badge - name.top - 1.6
    icon_w = min(inner * 0.8, room / 0.95)
    icon_y = (name.top + seat_y - badge) / 2
    return TokenLayout(cx, cy, radius, inner, text_radius, (cx, seat_y, badge),
                       (cx, icon_y, icon_w), name)


def token_disc(pen: Pen, token: JokerToken, layout: TokenLayout, *, fill: str) -> None:
    """The player's coloured ring round a disc of `fill`, edged in gold."""
    pen.circle(layout.cx, layout.cy, layout.radius, fill=token.colour)
    pen.circle(layout.cx, layout.cy, layout.inner, fill=fill, stroke=GOLD, width=0.3)


def seat_badge(pen: Pen, token: JokerToken, layout: TokenLayout) -> None:
    """The player's number on a disc of the player's colour."""
    x, y, r = layout.seat
    pen.circle(x, y, r, fill=token.colour, stroke=WHITE, width=0.25)
    pen.centred(str(token.player), x, y, size=SEAT_SIZE, font=BOLD,
                fill=ink_on(token.colour, dark=NAVY))


def joker_token_front(pen: Pen, token: JokerToken) -> None:
    """The joker's picture and name in a navy disc ringed with the player's colour."""
    layout = token_layout(pen)
    pen.background(WHITE)
    token_disc(pen, token, layout, fill=NAVY)
    seat_badge(pen, token, layout)
    if token.joker == "cinquante":
        # Its name is its picture, as wide as the circle lets it.
        joker_icon(pen, token.joker, layout.cx, layout.cy - 1.0, layout.text_radius * 1.55)
        return
    x, y, icon_w = layout.icon
    joker_icon(pen, token.joker, x, y, icon_w)
    pen.text(token.label, layout.name, size=MIN_SIZE, font=CONDENSED_BOLD, fill=WHITE,
             align="centre", valign="middle", label=_("joker"))


def joker_token_back_form(pen: Pen) -> None:
    pen.background(WHITE)


def joker_token_back(pen: Pen, token: JokerToken) -> None:
    """« Utilisé » across a crossed-out disc, with the joker's name to know which one went."""
    layout = token_layout(pen)
    cx, cy, inner = layout.cx, layout.cy, layout.inner
    token_disc(pen, token, layout, fill=GREY)
    reach = inner * 0.6
    for sign in (1, -1):
        pen.line(cx - reach, cy - sign * reach, cx + reach, cy + sign * reach, stroke=STRUCK,
                 width=inner * 0.07)
    seat_badge(pen, token, layout)
    name = layout.name
    band = Rect(cx - inner, name.top + 1.4, 2 * inner, 4.6)
    pen.rect(band, fill=NAVY)
    half = math.sqrt(layout.text_radius ** 2 - (band.top - cy) ** 2)
    pen.text(_("UTILISÉ"), Rect(cx - half, band.y, 2 * half, band.h), size=8, font=BOLD,
             fill=WHITE, align="centre", valign="middle", label=_("utilisé"))
    fitted = pen.fit(token.label, name, size=MIN_SIZE, font=CONDENSED_BOLD, label=_("joker"))
    if fitted is None:
        return
    # A pill just round the name, as the show prints a joker's caption.
    text_w = max(width(line, fitted.font, fitted.size) for line in fitted.lines) / POINTS_PER_MM
    text_h = line_mm(fitted.size, len(fitted.lines))
    pen.rect(Rect(cx - text_w / 2 - 1.2, name.centre[1] - text_h / 2 - 0.8, text_w + 2.4,
                  text_h + 1.6), fill=NAVY, radius=1.2)
    pen.draw_fitted(fitted, name, align="centre", valign="middle", fill=GOLD)


JOKER_TOKENS = Deck(
    slug="jokers",
    code="JOK",
    label=gettext_lazy("Jetons jokers"),
    description=gettext_lazy(
        "Les trois jokers (50:50, Vote du public, Coup de fil à un ami) de huit "
        "joueurs, en jetons ronds de 3 cm ; on retourne le jeton sur « utilisé »."),
    items=joker_tokens,
    front=joker_token_front,
    back=joker_token_back,
    back_form=joker_token_back_form,
    size=TOKEN_SIZE,
    round_face=True,
)


# --- what a wrong answer pays ----------------------------------------------------------------


@dataclass(frozen=True)
class FallbackBand:
    """A run of steps where a wrong answer pays the same: the safe level below them."""

    first: LadderStep
    last: LadderStep
    pays: int


def fallback_bands() -> list[FallbackBand]:
    """Return the runs of steps, lowest first, grouped by what a wrong answer there pays."""
    bands: list[FallbackBand] = []
    for step in LADDER:
        pays = SPEC.fallback_amount(step.number)
        if bands and bands[-1].pays == pays:
            bands[-1] = FallbackBand(bands[-1].first, step, pays)
        else:
            bands.append(FallbackBand(step, step, pays))
    return bands


def fallback_rule(band: FallbackBand) -> str:
    return _("%(pays)s (de %(low)s à %(high)s)") % {
        "low": amount(band.first.amount), "high": amount(band.last.amount),
        "pays": amount(band.pays)}


# --- the « bloc réponse » score pad ------------------------------------------------------------

ROUNDS = TABLE_SIZE  # every player is game master once
# Over a box a few millimetres wide, the jokers go by a short name.
SHORT_JOKER_NAMES = {"public": gettext_lazy("Public"), "ami": gettext_lazy("Ami")}


def ladder_strip(pen: Pen, area: Rect) -> None:
    """The fifteen steps left to right, the safe levels in gold, every amount the same size."""
    gap = 0.8
    cell_w = (area.w - gap * (len(LADDER) - 1)) / len(LADDER)
    # A millimetre each side keeps the million off the cell's border; the million's size is
    # every amount's, so the strip reads as one row.
    amount_box = Rect(0, 0, cell_w - 2.0, area.h * 0.5)
    widest = max(LADDER, key=lambda step: width(amount(step.amount), CONDENSED_BOLD, 1))
    fitted = pen.fit(amount(widest.amount), amount_box, size=8, font=CONDENSED_BOLD,
                     french=False, label=_("montant"))
    size = fitted.size if fitted else MIN_SIZE
    for step in LADDER:
        box = Rect(area.x + (step.number - 1) * (cell_w + gap), area.y, cell_w, area.h)
        pen.rect(box, fill=GOLD if step.safe else LIGHT, stroke=NAVY, width=0.2, radius=1)
        pen.text(str(step.number), Rect(box.x, box.top - area.h * 0.45, box.w, area.h * 0.4),
                 size=7.5, font=BOLD, fill=NAVY, align="centre", valign="middle",
                 label=_("numéro de la question"))
        pen.text(amount(step.amount), amount_box.moved(box.x + 1.0, box.y + 0.6), size=size,
                 font=CONDENSED_BOLD, fill=NAVY, align="centre", valign="middle",
                 label=_("montant"), french=False)


def answer_pad(pen: Pen) -> None:
    """One sheet of the pad: players down, rounds across, gains, jokers and totals."""
    page = pen.box.inset(PAGE_MARGIN)
    top = page.top
    pen.text(_("Bloc réponse"), Rect(page.x, top - 9, page.w * 0.5, 9), size=20,
             font=BOLD, fill=NAVY, valign="middle", label=_("titre"))
    pen.text(SPEC.name, Rect(page.x + page.w * 0.5, top - 9, page.w * 0.5, 9), size=12,
             font=BOLD, fill=GOLD, align="right", valign="middle", label=_("jeu"))
    top -= 12
    ladder_strip(pen, Rect(page.x, top - 11, page.w, 11))
    top -= 13
    swatch = Rect(page.x, top - 4.5, 16, 4.5)
    pen.rect(swatch, fill=GOLD, stroke=NAVY, width=0.2, radius=1)
    pen.text(str(SAFE_LEVEL), swatch, size=8, font=BOLD, fill=NAVY, align="centre",
             valign="middle", label=str(SAFE_LEVEL))
    rule = _("Mauvaise réponse, le joueur repart avec :") + " " + " · ".join(
        fallback_rule(band) for band in fallback_bands())
    pen.text(rule, Rect(swatch.right + 3, top - 5, page.right - swatch.right - 3, 5.5),
             size=8.5, font=BOLD, fill=NAVY, valign="middle", label=_("paliers"))
    top -= 8
    note_h = 5.0
    grid = Rect(page.x, page.y + note_h + 2, page.w, top - page.y - note_h - 2)
    score_grid(pen, grid)
    note = _("Le maître de jeu note le gain de chaque joueur (barrer sa propre case) et "
                 "coche les jokers utilisés. Chaque joker ne sert qu’une fois par partie.")
    pen.text(note, Rect(page.x, page.y, page.w, note_h), size=8, fill=GREY, valign="middle",
             label=_("consigne"))


def score_grid(pen: Pen, grid: Rect) -> None:
    """Players × rounds: a line for the gain and three joker boxes per cell, then totals."""
    name_w, total_w = grid.w * 0.15, grid.w * 0.1
    round_w = (grid.w - name_w - total_w) / ROUNDS
    head_h = 13.0
    row_h = (grid.h - head_h) / TABLE_SIZE
    header = Rect(grid.x, grid.top - head_h, grid.w, head_h)
    pen.rect(header, fill=NAVY)
    pen.text(_("Joueur"), Rect(grid.x + 2, header.y, name_w - 4, head_h), size=10,
             font=BOLD, fill=WHITE, valign="middle", label=_("joueur"))
    pen.text(_("Total"), Rect(grid.right - total_w + 2, header.y, total_w - 4, head_h),
             size=10, font=BOLD, fill=GOLD, align="centre", valign="middle",
             label=_("total"))
    joker_names = tuple(str(SHORT_JOKER_NAMES.get(key, label)) for key, label in JOKERS.items())
    for n in range(ROUNDS):
        x = grid.x + name_w + n * round_w
        pen.text(_("Manche %(n)s") % {"n": n + 1},
                 Rect(x + 1, header.top - 7, round_w - 2, 6), size=9, font=BOLD,
                 fill=WHITE, align="centre", valign="middle", label=_("manche"))
        for slot, name in enumerate(joker_names):
            sx = joker_slot_x(x, round_w, slot)
            pen.text(name, Rect(sx - round_w / 6 + 0.3, header.y + 0.8, round_w / 3 - 0.6, 4.5),
                     size=MIN_SIZE, font=CONDENSED, fill=GOLD, align="centre",
                     valign="middle", label=_("joker"), french=False)
    for row in range(TABLE_SIZE):
        player = row + 1
        y = header.y - (row + 1) * row_h
        if row % 2:
            pen.rect(Rect(grid.x, y, grid.w, row_h), fill=LIGHT)
        _name, seat_colour = PLAYER_COLOURS[row]
        disc = min(row_h * 0.3, 4.0)
        pen.circle(grid.x + 2 + disc, y + row_h / 2, disc, fill=seat_colour)
        pen.centred(str(player), grid.x + 2 + disc, y + row_h / 2, size=disc * mm * 1.1,
                    font=BOLD, fill=ink_on(seat_colour, dark=NAVY))
        pen.line(grid.x + 4 + 2 * disc, y + row_h * 0.3, grid.x + name_w - 2, y + row_h * 0.3,
                 stroke=GREY, width=0.2)
        for n in range(ROUNDS):
            x = grid.x + name_w + n * round_w
            gain_line = y + row_h * 0.48
            pen.line(x + 2, gain_line, x + round_w - 5, gain_line, stroke=GREY, width=0.2,
                     dash=(0.6, 0.6))
            pen.centred("€", x + round_w - 3, gain_line + 1.2, size=8, fill=GREY)
            box = min(row_h * 0.22, 3.4)
            for slot in range(len(joker_names)):
                sx = joker_slot_x(x, round_w, slot)
                pen.rect(Rect(sx - box / 2, y + row_h * 0.1, box, box), stroke=NAVY,
                         width=0.25, fill=WHITE)
        total_line = y + row_h * 0.4
        pen.line(grid.right - total_w + 3, total_line, grid.right - 6, total_line, stroke=NAVY,
                 width=0.25, dash=(0.6, 0.6))
        pen.centred("€", grid.right - 3.5, total_line + 1.4, size=10, font=BOLD, fill=NAVY)
    # Rules last, so the ruling sits over the zebra rows.
    for row in range(TABLE_SIZE + 1):
        y = header.y - row * row_h
        pen.line(grid.x, y, grid.right, y, stroke=NAVY, width=0.2)
    for n in range(ROUNDS + 1):
        x = grid.x + name_w + n * round_w
        pen.line(x, grid.y, x, grid.top, stroke=NAVY, width=0.5 if n in (0, ROUNDS) else 0.3)
    pen.rect(grid, stroke=NAVY, width=0.5)


def joker_slot_x(x: float, round_w: float, slot: int) -> float:
    """Return the centre of a round's joker box `slot` (0-2), under its header label."""
    return x + round_w * (2 * slot + 1) / 6


def answer_pad_pages(options, items) -> list[Page]:
    return [Page(draw=answer_pad, landscape=True)]


ANSWER_PAD = Sheets(
    slug="bloc-reponse",
    label=gettext_lazy("Bloc réponse"),
    description=gettext_lazy(
        "La feuille de score du maître de jeu : huit joueurs, huit manches, les "
        "gains, les jokers cochés, les paliers et les totaux."),
    pages=answer_pad_pages,
)


# --- the prize ladder poster ---------------------------------------------------------------


def ladder_poster(pen: Pen) -> None:
    """The fifteen steps, the million on top, the paliers in gold, what a wrong answer pays."""
    page = pen.box.inset(PAGE_MARGIN)
    pen.text(SPEC.name, Rect(page.x, page.top - 14, page.w, 14), size=26, font=BOLD,
             fill=NAVY, align="centre", valign="middle", label=_("titre"))
    pen.text(_("L’échelle des gains"), Rect(page.x, page.top - 22, page.w, 7), size=14,
             font=BOLD, fill=GOLD, align="centre", valign="middle", label=_("sous-titre"))
    pen.text(_("Après chaque bonne réponse, on peut s’arrêter et garder la somme "
                   "gagnée."), Rect(page.x, page.top - 29, page.w, 6), size=10,
             fill=GREY, align="centre", valign="middle", label=_("consigne"))
    jokers_h = 56.0
    ladder = Rect(page.x, page.y + jokers_h + 6, page.w * 0.62, page.h - 33 - jokers_h - 6)
    row_h = ladder.h / len(LADDER)

    def row_bottom(step: LadderStep) -> float:
        return ladder.top - (len(LADDER) - step.number + 1) * row_h

    for step in LADDER:
        ladder_row(pen, step, Rect(ladder.x, row_bottom(step) + 0.8, ladder.w, row_h - 1.6))
    side = Rect(ladder.right + 6, ladder.y, page.right - ladder.right - 6, ladder.h)
    for band in fallback_bands():
        low, high = row_bottom(band.first) + 1.5, row_bottom(band.last) + row_h - 1.5
        pen.line(side.x, low, side.x, high, stroke=NAVY, width=0.6)
        for y in (low, high):
            pen.line(side.x - 2.5, y, side.x, y, stroke=NAVY, width=0.6)
        middle = (low + high) / 2
        pen.text(_("Mauvaise réponse ici :"), Rect(side.x + 4, middle + 1, side.w - 4, 11),
                 size=11, min_size=7, font=BOLD, fill=NAVY, valign="bottom",
                 label=str(SAFE_LEVEL))
        pen.text(_("vous repartez avec"), Rect(side.x + 4, middle - 5, side.w - 4, 5.5),
                 size=10, min_size=7, fill=NAVY, valign="middle", label=str(SAFE_LEVEL))
        pen.text(amount(band.pays), Rect(side.x + 4, middle - 14, side.w - 4, 8.5), size=20,
                 min_size=10, font=BOLD, fill=GOLD if band.pays else GREY, valign="middle",
                 label=_("montant"), french=False)
    jokers_reminder(pen, Rect(page.x, page.y, page.w, jokers_h))


def ladder_row(pen: Pen, step: LadderStep, box: Rect) -> None:
    """One step as the show draws it: its number left, its amount right, gold if a palier."""
    cx, cy = box.centre
    pen.polygon(lozenge(cx, cy, box.w, box.h), fill=GOLD if step.safe else WHITE, stroke=NAVY,
                width=0.5)
    pen.text(str(step.number), Rect(box.x + box.h * 0.6, box.y, box.h * 1.2, box.h), size=14,
             min_size=8, font=BOLD, fill=NAVY if step.safe else GOLD, valign="middle",
             label=str(SAFE_LEVEL))
    if step.safe:
        pen.text(str(SAFE_LEVEL), Rect(box.x + box.h * 1.9, box.y, box.w * 0.3, box.h),
                 size=11, font=BOLD, fill=NAVY, valign="middle", label=SAFE_LEVEL)
    pen.text(amount(step.amount), Rect(box.x + box.w * 0.45, box.y, box.w * 0.55 - box.h * 0.6,
                                       box.h),
             size=16, min_size=8, font=BOLD, fill=NAVY, align="right", valign="middle",
             label=_("montant"), french=False)


JOKER_HINTS = {
    "cinquante": gettext_lazy("Le maître de jeu vous rend deux cartes, dont la bonne réponse."),
    "public": gettext_lazy("Chacun vote en secret ; le maître de jeu ajoute la bonne réponse."),
    "ami": gettext_lazy("Un joueur de votre choix vous glisse sa réponse."),
}


def jokers_reminder(pen: Pen, area: Rect) -> None:
    """The three jokers as on their tokens, how each works and how they are spent."""
    pen.rect(area, fill=NAVY, radius=3)
    pen.text(_("Les jokers : chacun une seule fois par partie, plusieurs sur la même "
                   "question si vous voulez."), Rect(area.x + 5, area.top - 9, area.w - 10, 7),
             size=11, min_size=7, font=BOLD, fill=GOLD, align="centre", valign="middle",
             label=_("jokers"))
    tries = {"public": SPEC.rules.public_tries_two_players,
             "ami": SPEC.rules.friend_tries_two_players}
    pen.text(_("À deux joueurs : %(public)s essais avec le Vote du public, %(ami)s avec "
                   "le Coup de fil à un ami.") % tries, Rect(area.x + 5, area.y + 2,
                                                           area.w - 10, 6),
             size=9, min_size=7, fill=WHITE, align="centre", valign="middle",
             label=_("variante à deux"))
    slot_w = (area.w - 10) / len(JOKERS)
    radius = 9.0
    cy = area.y + (8 + area.h - 9) / 2  # between the two-player line and the heading
    for i, (joker, label) in enumerate(JOKERS.items()):
        x = area.x + 5 + slot_w * i
        cx = x + radius + 1
        pen.circle(cx, cy, radius, fill=NAVY, stroke=GOLD, width=0.6)
        joker_icon(pen, joker, cx, cy, radius * (1.2 if joker == "cinquante" else 1.1))
        text = Rect(cx + radius + 3, cy - radius - 6, x + slot_w - cx - radius - 6,
                    2 * radius + 6)
        name = pen.text(joker_name(label), Rect(text.x, text.top - 10, text.w, 10), size=11,
                        min_size=9, font=BOLD, fill=WHITE, label=_("joker"))
        # The hint starts under the name, which takes one line or two.
        used = (name.leading * (len(name.lines) - 1) + name.size * 1.2) / mm if name else 6
        pen.text(str(JOKER_HINTS[joker]), Rect(text.x, text.y, text.w, text.h - used - 1),
                 size=8.5, min_size=6.5, font=CONDENSED, fill=WHITE, label=_("joker"))


def ladder_poster_pages(options, items) -> list[Page]:
    return [Page(draw=ladder_poster)]


LADDER_POSTER = Sheets(
    slug="echelle",
    label=gettext_lazy("Affiche de l’échelle des gains"),
    description=gettext_lazy(
        "Une page : les quinze questions de 200 € à 1 000 000 €, les paliers en or "
        "et ce que rapporte une mauvaise réponse."),
    pages=ladder_poster_pages,
)

# --- the porte-carte ------------------------------------------------------------------------
#
# The game master slides the question card into a holder, reads it, then turns it to the
# players; the right answer, on the card's back, stays hidden until the card comes out.
# Printed flat on one sheet: a front with a window over the question, a back folded behind
# it along the bottom, two tabs on the front's sides glued inside the back, the top open.

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
             font=BOLD, fill=NAVY, valign="middle", label=_("titre"))
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
    pen.rect(front, fill=NAVY)
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


def glue_label(pen: Pen, tab) -> None:
    """« colle » along a tab, reading upwards."""
    (x0, y0), (x1, _y1), _corner, (_x3, y3) = tab
    with pen.transformed((x0 + x1) / 2, (y0 + y3) / 2, rotate=90):
        pen.centred(_("colle"), 0, 0, size=8, font=BOLD, fill=GREY)


def holder_back(pen: Pen, back: Rect, notch: float) -> None:
    """The back as the holder shows it: the game's name, and where the answer hides."""
    pen.rect(back, fill=NAVY)
    inner = back.inset(4.0)
    pen.rect(inner, stroke=GOLD, width=0.3, radius=2)
    text = inner.inset(3.0)
    text = Rect(text.x, text.y, text.w, text.h - notch)  # clear of the notch on top
    cx, cy = text.centre
    k = back.w / 80.0  # text sizes follow the back's width, set for a poker card's holder
    box_w, box_h = text.w, min(text.h * 0.3, 22 * k)
    pen.polygon(lozenge(cx, cy + box_h * 0.3, box_w, box_h), fill=NAVY, stroke=GOLD,
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
             Rect(column.x, top - 7, column.w, 7), size=11, font=BOLD, fill=NAVY,
             valign="middle", label=_("format"))
    top -= 10
    for number, step in enumerate(HOLDER_STEPS, start=1):
        pen.circle(column.x + 3, top - 3, 3, fill=NAVY)
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
            pen.rect(Rect(column.x, y - 2, 12, 4), fill=NAVY)
            pen.line(column.x, y, column.x + 12, y, stroke=GOLD, width=0.4, dash=FOLD_DASH)
        else:
            pen.rect(Rect(column.x, y - 2, 12, 4), fill=LIGHT)
        pen.text(str(label), Rect(column.x + 15, y - 3, column.w - 15, 6), size=9,
                 fill=BLACK, valign="middle", label=_("légende"))
        top -= 7
    top -= 4
    pen.text(_("En jeu"), Rect(column.x, top - 6, column.w, 6), size=11, font=BOLD,
             fill=NAVY, valign="middle", label=_("titre"))
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
    pen.rect(Rect(card.x, card.top - card.h * 0.1, card.w, card.h * 0.1), fill=NAVY)
    pen.rect(holder, fill=NAVY)
    window = Rect(holder.x + (net.window.x - front.x) * k, holder.y + (net.window.y - front.y) * k,
                  net.window.w * k, net.window.h * k)
    pen.rect(window, fill=WHITE)
    # Seen through the window: the card's question, then its four propositions.
    lower = card.y + card.h * 0.05
    row_h = card.h * 0.07
    for row in range(4):
        pen.rect(Rect(card.x + 1.5, lower + row * row_h * 1.3, card.w - 3, row_h), stroke=NAVY,
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


def holder_pages(options, items) -> list[Page]:
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

PRODUCTS = (QUESTION_CARDS, ANSWER_CARDS, JOKER_TOKENS, ANSWER_PAD, LADDER_POSTER,
            CARD_HOLDER)

__all__ = ["PRODUCTS"]
