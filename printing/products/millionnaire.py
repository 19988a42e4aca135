"""Printable products of Qui veut gagner des millions ?."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache, partial

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from reportlab.lib.units import mm

from cms.games.millionnaire import JOKERS, LADDER, SPEC
from cms.games.spec import PALETTE, LadderStep

from ..draw import WHITE, MeasurePen, Pen, colour
from ..sheets import Rect
from ..text import BOLD, CONDENSED, CONDENSED_BOLD, amount, width
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
    return str(_("Question n° %(n)s") % {"n": card.step})


QUESTION_LABEL = _("question")
RIGHT_LABEL = _("bonne réponse")
PROPOSITION_LABELS = tuple(_("proposition %(letter)s") % {"letter": letter}
                           for letter in LETTERS)


@dataclass(frozen=True)
class CardLayout:
    """Where a question card's parts go, for one card size: worked out once, then reused."""

    k: float  # text scale next to a poker card
    rows: tuple[Rect, ...]  # the four proposition boxes, top to bottom
    question: Rect
    propositions: tuple[Rect, ...]  # the text inside each box
    answer: Rect  # on the back, under the letter
    centre: tuple[float, float]
    ref_y: float


@lru_cache(maxsize=8)
def card_layout(w: float, h: float) -> CardLayout:
    pen = MeasurePen(w, h)
    k = scale(pen)
    body = card_body(pen)
    gap = 1.2 * k
    row_h = min(9.0 * k, body.h * 0.13)
    rows = tuple(Rect(body.x, body.y + (3 - i) * (row_h + gap), body.w, row_h)
                 for i in range(len(LETTERS)))
    inner = pen.box.inset(pen.w * 0.12)
    cx, cy = pen.box.centre
    return CardLayout(
        k=k,
        rows=rows,
        question=Rect(body.x, rows[0].top + 2, body.w, body.top - rows[0].top - 2),
        propositions=tuple(Rect(box.x + box.h * 1.1, box.y + 0.5, box.w - box.h * 1.5,
                                box.h - 1) for box in rows),
        answer=Rect(inner.x, inner.y + 6 * k, inner.w, cy - 8 * k - inner.y - 6 * k),
        centre=(cx, cy),
        ref_y=inner.y + 0.5,
    )


def question_front_form(pen: Pen) -> None:
    """What every question card shares: paper, band, the four lettered boxes."""
    k = scale(pen)
    card_band(pen, colour=NAVY)
    for letter, box in zip(LETTERS, card_layout(pen.w, pen.h).rows, strict=True):
        pen.rect(box, stroke=NAVY, width=0.35, radius=box.h / 2)
        pen.centred(letter, box.x + box.h * 0.55, box.y + box.h / 2, size=8 * k, font=BOLD,
                    fill=GOLD)


def question_front(pen: Pen, card: LadderCard) -> None:
    """The step, the question and its four propositions; the answer is on the back."""
    layout = card_layout(pen.w, pen.h)
    pen.reuse(f"millionnaire-front-step-{card.step}", partial(front_header, card=card))
    pen.text(card.text, layout.question, size=10.5 * layout.k, valign="middle",
             label=QUESTION_LABEL)
    for rect, proposition, label in zip(layout.propositions, card.propositions,
                                        PROPOSITION_LABELS, strict=False):
        pen.text(proposition, rect, size=8.5 * layout.k, min_size=6, valign="middle",
                 label=label)


def front_header(pen: Pen, *, card: LadderCard) -> None:
    """The step and its amount in the band: the same on every card of that step."""
    k = scale(pen)
    safe = pen.safe
    baseline = pen.h - header_height(pen) / 2 - 1.1 * k
    size = 9 * min(k, 1.3)
    pen.label(step_title(card), safe.x, baseline, size=size, font=BOLD, fill=WHITE)
    if card.amount:
        pen.label(amount(card.amount), safe.right, baseline, size=size * 0.85, font=BOLD,
                  fill=GOLD if card.safe else WHITE, align="right")


def back_header(pen: Pen, *, card: LadderCard) -> None:
    """The step and its amount on the back: the same on every card of that step."""
    k = scale(pen)
    inner = pen.box.inset(pen.w * 0.12)
    cx = pen.w / 2
    pen.label(step_title(card), cx, inner.top - 6 * k, size=10 * k, font=BOLD, fill=WHITE,
              align="centre")
    if card.amount:
        label = amount(card.amount)
        if card.safe:
            label = f"{label} · {SAFE_LEVEL}"
        pen.label(label, cx, inner.top - 15 * k, size=11 * k, font=BOLD, fill=GOLD,
                  align="centre")


def question_back_form(pen: Pen) -> None:
    back_pattern(pen, colour=NAVY, title="")
    k = scale(pen)
    cx, cy = pen.box.centre
    pen.circle(cx, cy + 2 * k, 8 * k, fill=GOLD)


def question_back(pen: Pen, card: LadderCard) -> None:
    """The step, its amount and the right answer, behind the question."""
    layout = card_layout(pen.w, pen.h)
    cx, cy = layout.centre
    pen.reuse(f"millionnaire-back-step-{card.step}", partial(back_header, card=card))
    if card.right >= 0:
        letter = LETTERS[card.right]
        pen.reuse(f"millionnaire-back-letter-{letter}", partial(
            back_letter, letter=letter, x=cx, y=cy + 2 * layout.k, size=24 * layout.k))
        pen.text(card.propositions[card.right], layout.answer, size=10 * layout.k,
                 font=BOLD, fill=WHITE, align="centre", valign="middle", label=RIGHT_LABEL)
    pen.label(card.ref, cx, layout.ref_y, size=5.5, fill=WHITE, align="centre")


def back_letter(pen: Pen, *, letter: str, x: float, y: float, size: float) -> None:
    pen.centred(letter, x, y, size=size, font=BOLD, fill=NAVY)


QUESTION_CARDS = Deck(
    slug="questions",
    label=_("Cartes questions"),
    description=_("Une carte par question de l’échelle ; au dos, le palier et la bonne "
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


def ink_on(background: str) -> str:
    """Return the text colour that reads best on `background`: navy on light, white on dark."""
    red, green, blue = (int(background[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return NAVY if 0.299 * red + 0.587 * green + 0.114 * blue > 0.6 else WHITE


def player_label(player: int) -> str:
    return str(_("Joueur %(n)s") % {"n": player})


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
    ink = ink_on(card.colour)
    pen.background(WHITE)
    pen.rect(Rect(-pen.bleed, pen.h - band, pen.w + 2 * pen.bleed, band + pen.bleed),
             fill=card.colour)
    pen.rect(Rect(-pen.bleed, -pen.bleed, pen.w + 2 * pen.bleed, band + pen.bleed),
             fill=card.colour)
    safe = pen.safe
    head = Rect(safe.x, pen.h - band + 0.8, safe.w, band - 1.6)
    size = 9 * min(k, 1.3)
    pen.text(player_label(card.player), Rect(head.x, head.y, head.w * 0.6, head.h), size=size,
             min_size=5, font=BOLD, fill=ink, valign="middle", label=str(_("joueur")))
    pen.text(card.colour_name, Rect(head.x + head.w * 0.6, head.y, head.w * 0.4, head.h),
             size=size * 0.85, min_size=5, font=BOLD, fill=ink, align="right",
             valign="middle", label=str(_("couleur")))
    foot = Rect(safe.x, 0.8, safe.w, band - 1.6)
    pen.text(str(_("Réponse %(letter)s") % {"letter": card.letter}), foot, size=size * 0.85,
             min_size=5, font=BOLD, fill=ink, align="centre", valign="middle",
             label=str(_("réponse")))
    cx, cy = pen.box.centre
    box_w, box_h = pen.w * 0.86, min(pen.h - 2 * band - 8 * k, pen.w * 0.62)
    pen.polygon(lozenge(cx, cy, box_w, box_h), fill=NAVY, stroke=GOLD, width=0.8 * k)
    # In points: the capital letter stands about half as tall as the lozenge.
    pen.centred(card.letter, cx, cy, size=box_h * mm * 0.7, font=BOLD, fill=GOLD)


def answer_back_form(pen: Pen) -> None:
    back_pattern(pen, colour=NAVY, title=str(_("Carte réponse")), emblem="?")


ANSWER_CARDS = Deck(
    slug="reponses",
    label=_("Cartes réponses A, B, C, D"),
    description=_("Quatre cartes par joueur, pour une table de huit : une couleur et un "
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


def joker_tokens() -> list[JokerToken]:
    return [JokerToken(player, name, colour, joker, str(label))
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
        c = pen.canvas
        c.saveState()
        c.setLineCap(1)
        c.setStrokeColor(colour(fill))
        c.setLineWidth(size * 0.13 * mm)
        left, right, base = cx - size * 0.36, cx + size * 0.36, cy + size * 0.2
        c.bezier(left * mm, base * mm, (cx - size * 0.2) * mm, (cy + size * 0.52) * mm,
                 (cx + size * 0.2) * mm, (cy + size * 0.52) * mm, right * mm, base * mm)
        c.restoreState()
        for x in (left, right):
            pen.rect(Rect(x - size * 0.13, base - size * 0.08, size * 0.26, size * 0.13),
                     fill=fill, radius=size * 0.04)


def seat_number(pen: Pen, token: JokerToken, x: float, y: float, ring: float) -> None:
    """The player's number on the coloured ring, a digit most of the ring's width tall."""
    pen.centred(str(token.player), x, y, size=ring * mm * 0.8, font=BOLD,
                fill=ink_on(token.colour))


def joker_token_front(pen: Pen, token: JokerToken) -> None:
    """The joker's picture and name in a navy disc ringed with the player's colour."""
    cx, cy = pen.box.centre
    radius = min(pen.w, pen.h) / 2 - 0.8
    ring = radius * 0.19
    inner = radius - ring
    pen.background(WHITE)
    pen.circle(cx, cy, radius, fill=token.colour)
    pen.circle(cx, cy, inner, fill=NAVY, stroke=GOLD, width=0.3)
    seat_number(pen, token, cx, cy + radius - ring / 2, ring)
    if token.joker == "cinquante":
        # Its name is its picture.
        joker_icon(pen, token.joker, cx, cy, inner * 1.4)
        return
    joker_icon(pen, token.joker, cx, cy + inner * 0.3, inner * 0.85)
    pen.text(token.label, Rect(cx - inner * 0.78, cy - inner * 0.82, inner * 1.56, inner * 0.7),
             size=6.5, min_size=5, font=CONDENSED_BOLD, fill=WHITE, align="centre",
             valign="middle", label=str(_("joker")))


def joker_token_back_form(pen: Pen) -> None:
    pen.background(WHITE)


def joker_token_back(pen: Pen, token: JokerToken) -> None:
    """« Utilisé » across a crossed-out disc, with the joker's name to know which one went."""
    cx, cy = pen.box.centre
    radius = min(pen.w, pen.h) / 2 - 0.8
    ring = radius * 0.19
    inner = radius - ring
    pen.circle(cx, cy, radius, fill=token.colour)
    pen.circle(cx, cy, inner, fill=GREY)
    reach = inner * 0.6
    for sign in (1, -1):
        pen.line(cx - reach, cy - sign * reach, cx + reach, cy + sign * reach, stroke=STRUCK,
                 width=inner * 0.07)
    seat_number(pen, token, cx, cy + radius - ring / 2, ring)
    band = Rect(cx - inner * 0.95, cy - inner * 0.05, inner * 1.9, inner * 0.4)
    pen.rect(band, fill=NAVY)
    pen.text(str(_("UTILISÉ")), band.inset(inner * 0.1, 0), size=8, min_size=5, font=BOLD,
             fill=WHITE, align="centre", valign="middle", label=str(_("utilisé")))
    name = Rect(cx - inner * 0.72, cy - inner * 0.68, inner * 1.44, inner * 0.5)
    pen.rect(name, fill=NAVY, radius=1.2)
    pen.text(token.label, name.inset(0.6, 0.3), size=5.5, min_size=4.5, font=CONDENSED_BOLD,
             fill=GOLD, align="centre", valign="middle", label=str(_("joker")))


JOKER_TOKENS = Deck(
    slug="jokers",
    label=_("Jetons jokers"),
    description=_("Les trois jokers (50:50, Vote du public, Coup de fil à un ami) de huit "
                  "joueurs, en jetons ronds de 3 cm ; on retourne le jeton sur « utilisé »."),
    items=joker_tokens,
    front=joker_token_front,
    back=joker_token_back,
    back_form=joker_token_back_form,
    size=TOKEN_SIZE,
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
    return str(_("%(pays)s (de %(low)s à %(high)s)") % {
        "low": amount(band.first.amount), "high": amount(band.last.amount),
        "pays": amount(band.pays)})


# --- the « bloc réponse » score pad ------------------------------------------------------------

ROUNDS = TABLE_SIZE  # every player is game master once
# Over a box a few millimetres wide, the jokers go by a short name.
SHORT_JOKER_NAMES = {"public": _("Public"), "ami": _("Ami")}


def ladder_strip(pen: Pen, area: Rect) -> None:
    """The fifteen steps left to right, the safe levels in gold."""
    gap = 0.8
    cell_w = (area.w - gap * (len(LADDER) - 1)) / len(LADDER)
    for step in LADDER:
        box = Rect(area.x + (step.number - 1) * (cell_w + gap), area.y, cell_w, area.h)
        pen.rect(box, fill=GOLD if step.safe else LIGHT, stroke=NAVY, width=0.2, radius=1)
        pen.text(str(step.number), Rect(box.x, box.top - area.h * 0.45, box.w, area.h * 0.4),
                 size=7.5, min_size=4.5, font=BOLD, fill=NAVY, align="centre",
                 valign="middle", label=str(SAFE_LEVEL))
        pen.text(amount(step.amount), Rect(box.x + 0.4, box.y + 0.6, box.w - 0.8,
                                           area.h * 0.5),
                 size=8, min_size=4.5, font=CONDENSED_BOLD, fill=NAVY, align="centre",
                 valign="middle", label=str(_("montant")), french=False)


def answer_pad(pen: Pen) -> None:
    """One sheet of the pad: players down, rounds across, gains, jokers and totals."""
    page = pen.box.inset(PAGE_MARGIN)
    top = page.top
    pen.text(str(_("Bloc réponse")), Rect(page.x, top - 9, page.w * 0.5, 9), size=20,
             font=BOLD, fill=NAVY, valign="middle", label=str(_("titre")))
    pen.text(SPEC.name, Rect(page.x + page.w * 0.5, top - 9, page.w * 0.5, 9), size=12,
             font=BOLD, fill=GOLD, align="right", valign="middle", label=str(_("jeu")))
    top -= 12
    ladder_strip(pen, Rect(page.x, top - 11, page.w, 11))
    top -= 13
    swatch = Rect(page.x, top - 4.5, 16, 4.5)
    pen.rect(swatch, fill=GOLD, stroke=NAVY, width=0.2, radius=1)
    pen.text(str(SAFE_LEVEL), swatch, size=8, font=BOLD, fill=NAVY, align="centre",
             valign="middle", label=str(SAFE_LEVEL))
    rule = str(_("Mauvaise réponse, le joueur repart avec :")) + " " + " · ".join(
        fallback_rule(band) for band in fallback_bands())
    pen.text(rule, Rect(swatch.right + 3, top - 5, page.right - swatch.right - 3, 5.5),
             size=8.5, min_size=6, font=BOLD, fill=NAVY, valign="middle",
             label=str(_("paliers")))
    top -= 8
    note_h = 5.0
    grid = Rect(page.x, page.y + note_h + 2, page.w, top - page.y - note_h - 2)
    score_grid(pen, grid)
    note = str(_("Le maître de jeu note le gain de chaque joueur (barrer sa propre case) et "
                 "coche les jokers utilisés. Chaque joker ne sert qu’une fois par partie."))
    pen.text(note, Rect(page.x, page.y, page.w, note_h), size=8, min_size=6, fill=GREY,
             valign="middle", label=str(_("consigne")))


def score_grid(pen: Pen, grid: Rect) -> None:
    """Players × rounds: a line for the gain and three joker boxes per cell, then totals."""
    name_w, total_w = grid.w * 0.15, grid.w * 0.1
    round_w = (grid.w - name_w - total_w) / ROUNDS
    head_h = 13.0
    row_h = (grid.h - head_h) / TABLE_SIZE
    header = Rect(grid.x, grid.top - head_h, grid.w, head_h)
    pen.rect(header, fill=NAVY)
    pen.text(str(_("Joueur")), Rect(grid.x + 2, header.y, name_w - 4, head_h), size=10,
             font=BOLD, fill=WHITE, valign="middle", label=str(_("joueur")))
    pen.text(str(_("Total")), Rect(grid.right - total_w + 2, header.y, total_w - 4, head_h),
             size=10, font=BOLD, fill=GOLD, align="centre", valign="middle",
             label=str(_("total")))
    joker_names = tuple(str(SHORT_JOKER_NAMES.get(key, label)) for key, label in JOKERS.items())
    for n in range(ROUNDS):
        x = grid.x + name_w + n * round_w
        pen.text(str(_("Manche %(n)s") % {"n": n + 1}),
                 Rect(x + 1, header.top - 7, round_w - 2, 6), size=9, min_size=6, font=BOLD,
                 fill=WHITE, align="centre", valign="middle", label=str(_("manche")))
        for slot, name in enumerate(joker_names):
            sx = joker_slot_x(x, round_w, slot)
            pen.text(name, Rect(sx - round_w / 6 + 0.3, header.y + 0.8, round_w / 3 - 0.6, 4.5),
                     size=6, min_size=4.5, font=CONDENSED, fill=GOLD, align="centre",
                     valign="middle", label=str(_("joker")), french=False)
    for row in range(TABLE_SIZE):
        player = row + 1
        y = header.y - (row + 1) * row_h
        if row % 2:
            pen.rect(Rect(grid.x, y, grid.w, row_h), fill=LIGHT)
        _name, seat_colour = PLAYER_COLOURS[row]
        disc = min(row_h * 0.3, 4.0)
        pen.circle(grid.x + 2 + disc, y + row_h / 2, disc, fill=seat_colour)
        pen.centred(str(player), grid.x + 2 + disc, y + row_h / 2, size=disc * mm * 1.1,
                    font=BOLD, fill=ink_on(seat_colour))
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
    label=_("Bloc réponse"),
    description=_("La feuille de score du maître de jeu : huit joueurs, huit manches, les "
                  "gains, les jokers cochés, les paliers et les totaux."),
    pages=answer_pad_pages,
)


# --- the prize ladder poster ---------------------------------------------------------------


def ladder_poster(pen: Pen) -> None:
    """The fifteen steps, the million on top, the paliers in gold, what a wrong answer pays."""
    page = pen.box.inset(PAGE_MARGIN)
    pen.text(SPEC.name, Rect(page.x, page.top - 14, page.w, 14), size=26, font=BOLD,
             fill=NAVY, align="centre", valign="middle", label=str(_("titre")))
    pen.text(str(_("L’échelle des gains")), Rect(page.x, page.top - 22, page.w, 7), size=14,
             font=BOLD, fill=GOLD, align="centre", valign="middle", label=str(_("sous-titre")))
    pen.text(str(_("Après chaque bonne réponse, on peut s’arrêter et garder la somme "
                   "gagnée.")), Rect(page.x, page.top - 29, page.w, 6), size=10,
             fill=GREY, align="centre", valign="middle", label=str(_("consigne")))
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
        pen.text(str(_("Mauvaise réponse ici :")), Rect(side.x + 4, middle + 1, side.w - 4, 11),
                 size=11, min_size=7, font=BOLD, fill=NAVY, valign="bottom",
                 label=str(SAFE_LEVEL))
        pen.text(str(_("vous repartez avec")), Rect(side.x + 4, middle - 5, side.w - 4, 5.5),
                 size=10, min_size=7, fill=NAVY, valign="middle", label=str(SAFE_LEVEL))
        pen.text(amount(band.pays), Rect(side.x + 4, middle - 14, side.w - 4, 8.5), size=20,
                 min_size=10, font=BOLD, fill=GOLD if band.pays else GREY, valign="middle",
                 label=str(_("montant")), french=False)
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
                 size=11, min_size=6, font=BOLD, fill=NAVY, valign="middle",
                 label=str(SAFE_LEVEL))
    pen.text(amount(step.amount), Rect(box.x + box.w * 0.45, box.y, box.w * 0.55 - box.h * 0.6,
                                       box.h),
             size=16, min_size=8, font=BOLD, fill=NAVY, align="right", valign="middle",
             label=str(_("montant")), french=False)


def no_widow(text: str) -> str:
    """Tie the last two words together, so a name never wraps a lone short word."""
    head, _space, last = text.rpartition(" ")
    return f"{head}\u00a0{last}" if head else text


JOKER_HINTS = {
    "cinquante": _("Le maître de jeu vous rend deux cartes, dont la bonne réponse."),
    "public": _("Chacun vote en secret ; le maître de jeu ajoute la bonne réponse."),
    "ami": _("Un joueur de votre choix vous glisse sa réponse."),
}


def jokers_reminder(pen: Pen, area: Rect) -> None:
    """The three jokers as on their tokens, how each works and how they are spent."""
    pen.rect(area, fill=NAVY, radius=3)
    pen.text(str(_("Les jokers : chacun une seule fois par partie, plusieurs sur la même "
                   "question si vous voulez.")), Rect(area.x + 5, area.top - 9, area.w - 10, 7),
             size=11, min_size=7, font=BOLD, fill=GOLD, align="centre", valign="middle",
             label=str(_("jokers")))
    tries = SPEC.scoring["two_player_tries"]
    pen.text(str(_("À deux joueurs : %(public)s essais avec le Vote du public, %(ami)s avec "
                   "le Coup de fil à un ami.") % tries), Rect(area.x + 5, area.y + 2,
                                                           area.w - 10, 6),
             size=9, min_size=7, fill=WHITE, align="centre", valign="middle",
             label=str(_("variante à deux")))
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
        name = pen.text(no_widow(str(label)), Rect(text.x, text.top - 10, text.w, 10), size=11,
                        min_size=9, font=BOLD, fill=WHITE, label=str(_("joker")))
        # The hint starts under the name, which takes one line or two.
        used = (name.leading * (len(name.lines) - 1) + name.size * 1.2) / mm if name else 6
        pen.text(str(JOKER_HINTS[joker]), Rect(text.x, text.y, text.w, text.h - used - 1),
                 size=8.5, min_size=6.5, font=CONDENSED, fill=WHITE, label=str(_("joker")))


def ladder_poster_pages(options, items) -> list[Page]:
    return [Page(draw=ladder_poster)]


LADDER_POSTER = Sheets(
    slug="echelle",
    label=_("Affiche de l’échelle des gains"),
    description=_("Une page : les quinze questions de 200 € à 1 000 000 €, les paliers en or "
                  "et ce que rapporte une mauvaise réponse."),
    pages=ladder_poster_pages,
)

PRODUCTS = (QUESTION_CARDS, ANSWER_CARDS, JOKER_TOKENS, ANSWER_PAD, LADDER_POSTER)

__all__ = ["PRODUCTS"]
